#!/usr/bin/python3
"""A strict reader of the OpenMetrics text format (the subset CSIT's telemetry uses).

usage: openmetrics_parse.py FILE.om

Checks the exposition rules that matter to a consumer: every line is a `# TYPE`, `# HELP`
or a sample; metric names match [a-zA-Z_:][a-zA-Z0-9_:]*; a family is declared (TYPE)
before its samples, once, and its samples are contiguous; a counter's samples end in
`_total`, a gauge's are the family name; label names match [a-zA-Z_][a-zA-Z0-9_]*, label
values are quoted with only \\\\, \\" and \\n escapes, no label repeats; values are numbers
(counters non-negative); the text ends with `# EOF` and a newline, nothing after it.
Prints one `FAMILY<TAB>SAMPLE<TAB>LABELS-AS-JSON<TAB>VALUE` line per sample; on the first
error prints `FILE:LINE: what` to stderr and exits 1.
"""
import json
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|[+-]?Inf$|NaN$")
TYPES = {"counter", "gauge", "unknown", "info", "stateset", "histogram",
         "gaugehistogram", "summary"}


class Bad(Exception):
    pass


def labels(text, pos):
    """Parses {a="x",b="y"} from text[pos] == '{'; returns (dict, next position)."""
    out = {}
    pos += 1
    if text[pos:pos + 1] == "}":
        return out, pos + 1
    while True:
        m = LABEL.match(text, pos)
        if not m:
            raise Bad(f"bad label name at column {pos + 1}")
        name = m.group(0)
        pos = m.end()
        if text[pos:pos + 2] != '="':
            raise Bad(f"label {name}: expected =\"")
        pos += 2
        val = []
        while True:
            if pos >= len(text):
                raise Bad(f"label {name}: unterminated value")
            c = text[pos]
            if c == "\\":
                e = text[pos + 1:pos + 2]
                if e not in ("\\", '"', "n"):
                    raise Bad(f"label {name}: bad escape \\{e}")
                val.append("\n" if e == "n" else e)
                pos += 2
            elif c == '"':
                pos += 1
                break
            elif c == "\n":
                raise Bad(f"label {name}: newline in value")
            else:
                val.append(c)
                pos += 1
        if name in out:
            raise Bad(f"label {name} repeated")
        out[name] = "".join(val)
        if text[pos:pos + 1] == ",":
            pos += 1
            continue
        if text[pos:pos + 1] == "}":
            return out, pos + 1
        raise Bad(f"expected , or }} at column {pos + 1}")


def parse(data):
    if not data.endswith("# EOF\n"):
        raise Bad("does not end with '# EOF' and a newline", len(data.splitlines()))
    lines = data[:-len("# EOF\n")].split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    families, done, current, samples = {}, set(), None, []
    for no, line in enumerate(lines, 1):
        try:
            if line.startswith("#"):
                parts = line.split(" ", 3)
                if len(parts) < 4 or parts[0] != "#" or parts[1] not in ("TYPE", "HELP", "UNIT"):
                    raise Bad(f"not a TYPE, HELP or UNIT line: {line!r}")
                fam = parts[2]
                if not NAME.fullmatch(fam):
                    raise Bad(f"bad family name {fam!r}")
                if parts[1] == "TYPE":
                    if fam in families:
                        raise Bad(f"family {fam} declared twice")
                    if parts[3] not in TYPES:
                        raise Bad(f"unknown type {parts[3]!r}")
                    if current is not None:
                        done.add(current)
                    families[fam] = parts[3]
                    current = fam
                elif fam != current:
                    raise Bad(f"{parts[1]} for {fam} outside its family")
                continue
            m = NAME.match(line)
            if not m:
                raise Bad(f"not a sample: {line!r}")
            name, pos = m.group(0), m.end()
            lab = {}
            if line[pos:pos + 1] == "{":
                lab, pos = labels(line, pos)
            if line[pos:pos + 1] != " ":
                raise Bad("expected a space before the value")
            value = line[pos + 1:].split(" ")[0]
            if not NUMBER.match(value):
                raise Bad(f"value {value!r} is not a number")
            fam = current
            kind = families.get(fam)
            if kind is None:
                raise Bad(f"sample {name} before any TYPE line")
            want = fam + "_total" if kind == "counter" else fam
            if name != want:
                raise Bad(f"sample {name} in {kind} family {fam} (expected {want})")
            if kind == "counter" and float(value) < 0:
                raise Bad(f"counter {name} is negative")
            samples.append((fam, name, lab, float(value)))
        except Bad as e:
            raise Bad(e.args[0], no) from None
    return samples


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        data = f.read()
    try:
        samples = parse(data)
    except Bad as e:
        line = e.args[1] if len(e.args) > 1 else 0
        print(f"{sys.argv[1]}:{line}: {e.args[0]}", file=sys.stderr)
        return 1
    for fam, name, lab, value in samples:
        print(f"{fam}\t{name}\t{json.dumps(lab, sort_keys=True)}\t{value:.17g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
