#!/usr/bin/env bash
# Transposed inputs against contiguous ones at L2, L3 and DRAM-sized
# float32 arrays (bench/transposed_inputs.c): each kernel's time with a
# contiguous and with a transposed input, and (contiguous + the copy
# engine's transpose) / transposed, which is 1 when a transposed input costs
# exactly the contiguous call plus a transpose. Builds against the release
# library of tests/run (build/tests) unless STRIDEKIT_LIB_DIR names another
# build directory.
#
#   bench/transposed_inputs.sh [N ...]   (default: 256 1024 2048 4096)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${STRIDEKIT_LIB_DIR:-$root/build/tests}
[ -f "$lib/libstridekit.a" ] || { echo "no $lib/libstridekit.a: run tests/run first"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -I"$root/dispatch/include" -I"$root/lib/include" -I"$lib/lib/include" \
  -I"$lib/lib/include/stridekit" "$root/bench/transposed_inputs.c" \
  "$lib/libstridekit.a" -lhwy -lstdc++ -lm -lpthread -o "$work/transposed_inputs"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256 1024 2048 4096)
for n in "${sizes[@]}"; do
  rounds=$(( n >= 2048 ? 5 : 20 ))
  "$work/transposed_inputs" "$n" "$rounds"
  echo
done
