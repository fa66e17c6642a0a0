#!/usr/bin/env bash
# The link-mode variants (default, interposable, bsymbolic) forward the same pcap
# to byte-identical output, and `make relocs` shows fewer JUMP_SLOT relocations
# in libvfwd for default and bsymbolic than for interposable. `make check`
# builds the interposable and bsymbolic variants first.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-var-$$"
root=$top/build/vfwd
for v in default interposable bsymbolic; do
	if [ ! -x "$root/$v/bin/vfwd" ]; then
		echo "# $root/$v not built"
		tap fail "variant_${v}_is_built"
	fi
done
[ "$failed" = 0 ] || { echo "1..$n_tap"; exit 1; }

"$pcaptool" vfwd-mixed "$tmp" 00:00:00:00:00:00
"$vfwd_conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:01:02 --route1 48.0.0.0/8 --no-icmp-error \
	--feature port0 example
want=$(awk '$1 == "in" { print $2 }' "$tmp/counts.txt")
for v in default interposable bsymbolic; do
	b=$root/$v
	rx_done() {
		[ "$("$b/bin/vfwdctl" -s "$tmp/cli.sock" show interfaces |
			awk '$1 == "port0" { print $NF; exit }')" = "$want" ]
	}
	"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
		--prefix "vfwd-var-$$" --pcap port0 "$tmp/in.pcap" "$tmp/out0-$v.pcap" \
		--pcap port1 "$tmp/empty.pcap" "$tmp/out1-$v.pcap"
	"$b/bin/vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd-$v.log" 2>&1 &
	pid=$!
	if wait_for test -S "$tmp/cli.sock" && wait_for rx_done && wait_walked "$tmp/cli.sock"; then
		"$b/bin/vfwdctl" -s "$tmp/cli.sock" show errors >"$tmp/errors-$v.txt"
		if "$b/bin/vfwdctl" -s "$tmp/cli.sock" show version |
			grep -q "\"variant\": \"$v\""; then
			tap ok "variant_${v}_reports_itself_in_show_version"
		else
			tap fail "variant_${v}_reports_itself_in_show_version"
		fi
	else
		sed 's/^/# /' "$tmp/vfwd-$v.log" | tail -5
		tap fail "variant_${v}_forwards_the_pcap"
	fi
	kill_wait "$pid"
	pid=""
	rm -f "$tmp/cli.sock"
done
for v in interposable bsymbolic; do
	if [ "$("$pcaptool" count "$tmp/out1-default.pcap")" -gt 0 ] &&
		"$pcaptool" cmp "$tmp/out1-default.pcap" "$tmp/out1-$v.pcap" &&
		diff -q "$tmp/errors-default.txt" "$tmp/errors-$v.txt" >/dev/null; then
		tap ok "variant_${v}_output_and_counters_equal_default"
	else
		tap fail "variant_${v}_output_and_counters_equal_default"
	fi
done
"$here/../scripts/relocs.sh" "$root" | tee "$tmp/relocs.txt" | sed 's/^/# /'
slots() { awk -F'|' -v v="$1" '$2 ~ " "v" " { gsub(/ /, "", $3); print $3 }' "$tmp/relocs.txt"; }
d=$(slots default) i=$(slots interposable) s=$(slots bsymbolic)
if [ -n "$d" ] && [ -n "$i" ] && [ -n "$s" ] && [ "$d" -lt "$i" ] && [ "$s" -lt "$i" ]; then
	tap ok default_and_bsymbolic_have_fewer_plt_relocations_than_interposable
else
	tap fail "default_and_bsymbolic_have_fewer_plt_relocations_than_interposable ($d $s $i)"
fi
echo "1..$n_tap"
exit "$failed"
