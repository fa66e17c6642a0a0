#!/usr/bin/env bash
# make relocs: per vfwd build variant, the JUMP_SLOT (PLT) relocations of
# libvfwd.so and vfwd, and the number of symbols libvfwd.so exports.
#   scripts/relocs.sh BUILD_ROOT     (BUILD_ROOT/<variant>/{bin,lib})
set -euo pipefail
root=${1:?usage: relocs.sh BUILD_ROOT}
printf '| %-13s | %-22s | %-18s | %-18s |\n' variant "libvfwd JUMP_SLOT" "vfwd JUMP_SLOT" "libvfwd exports"
printf '|%s|%s|%s|%s|\n' "---------------" "------------------------" "--------------------" "--------------------"
found=0
for dir in "$root"/*/; do
	v=$(basename "$dir")
	lib=$dir/lib/libvfwd.so
	bin=$dir/bin/vfwd
	if [ ! -f "$lib" ] || [ ! -f "$bin" ]; then continue; fi
	found=1
	lj=$(readelf -rW "$lib" | grep -c 'JUMP_SLO' || true)
	bj=$(readelf -rW "$bin" | grep -c 'JUMP_SLO' || true)
	ex=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/' | wc -l)
	printf '| %-13s | %22s | %18s | %18s |\n' "$v" "$lj" "$bj" "$ex"
done
if [ "$found" = 0 ]; then
	echo "no builds under $root (make forwarder VARIANT=...)" >&2
	exit 1
fi
