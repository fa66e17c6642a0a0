# vpp-interface-stats.awk: VPP's `show interface` (vppctl, CRs removed) -> one JSON line,
# {"port0":{"rx":N,"tx":N,"rx_drop":N,"tx_drop":N},"port1":{...}}: VPP's own counters (rx
# packets, tx packets; drops and rx-miss; tx-error) of the interfaces named port0 and port1.
# Used by peers/backends/vpp (host topology) and topologies/b2b/vpp.sh (VPP in the DUT VM).
$1 ~ /^port[01]$/ { cur = $1; rx[cur] = tx[cur] = rd[cur] = td[cur] = 0; $1 = $2 = $3 = $4 = "" }
cur == "" { next }
{ s = $0; sub(/^port[01][ \t]+[0-9]+[ \t]+[a-z]+[ \t]+[0-9\/]+[ \t]*/, "", s)
  n = split(s, w, " ") }
n >= 3 && w[1] == "rx" && w[2] == "packets" { rx[cur] = w[3] }
n >= 3 && w[1] == "tx" && w[2] == "packets" { tx[cur] = w[3] }
n >= 2 && (w[1] == "drops" || w[1] == "rx-miss") { rd[cur] += w[2] }
n >= 2 && w[1] == "tx-error" { td[cur] += w[2] }
$1 !~ /^port[01]$/ && $0 ~ /^[^ \t]/ { cur = "" }
END {
	printf "{\"port0\":{\"rx\":%.0f,\"tx\":%.0f,\"rx_drop\":%.0f,\"tx_drop\":%.0f},", rx["port0"], tx["port0"], rd["port0"], td["port0"]
	printf "\"port1\":{\"rx\":%.0f,\"tx\":%.0f,\"rx_drop\":%.0f,\"tx_drop\":%.0f}}\n", rx["port1"], tx["port1"], rd["port1"], td["port1"]
}
