# shellcheck shell=bash
# Results for other tools and over builds (sourced by lab/fwdlab): export (CSIT's UTI
# records and OpenMetrics) and trend. Both read finished run folders only; they need no
# lab up. The work is fwdstat's (lab/fwdstat/README.md "export --csit", "trend").

# fwdlab export --csit DIR... --out OUT [--openmetrics] -> fwdstat export
# (a function cannot be named `export`: fwdlab maps the verb to this one)
lab_export() {
	[ $# -gt 0 ] || die "export: which results? (fwdlab export --csit DIR... --out OUT)"
	"$(fwdstat_bin)" export "$@"
}

# fwdlab trend RESULTS... [--node NAME] [--alpha A] [--json] -> fwdstat trend
trend() {
	[ $# -gt 0 ] || die "trend: which results? (fwdlab trend RESULTS...)"
	"$(fwdstat_bin)" trend "$@"
}
