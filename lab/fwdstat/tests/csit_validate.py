#!/usr/bin/python3
"""Validates fwdlab's CSIT export against CSIT's UTI test_case schema.

usage: csit_validate.py SCHEMA.yaml FILE.info.json...

Debian's python3-jsonschema (4.10 in bookworm) implements JSON Schema draft 2020-12, the
schema's $schema. Its format checker has no "date-time" checker unless the optional
rfc3339-validator module is installed (it is not packaged in bookworm), so the RFC 3339
date-times are checked here as well. Prints one line per file; exit 1 when any fails.
"""
import json
import re
import sys

import jsonschema
import yaml

RFC3339 = re.compile(
    r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = yaml.safe_load(f)
    cls = jsonschema.validators.validator_for(schema)
    if cls is not jsonschema.Draft202012Validator:
        print(f"error: schema draft is {cls.__name__}, expected 2020-12", file=sys.stderr)
        return 2
    cls.check_schema(schema)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = [f"{'/'.join(map(str, e.absolute_path)) or '.'}: {e.message}"
                  for e in validator.iter_errors(doc)]
        for key in ("start_time", "end_time"):
            if isinstance(doc.get(key), str) and not RFC3339.match(doc[key]):
                errors.append(f"{key}: {doc[key]!r} is not an RFC 3339 date-time")
        if errors:
            bad += 1
            print(f"INVALID {path}")
            for e in errors[:20]:
                print(f"  {e}")
        else:
            print(f"valid {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
