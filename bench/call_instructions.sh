#!/usr/bin/env bash
# Instructions per call of the C ABI on tiny float32 arrays, counted by
# callgrind (repeatable on a noisy machine) inside the calls only: per case
# and size, the count of 101 calls minus that of 1 call (the first call's
# lazy initialisation), over 100. Builds bench/call_instructions.c
# against the -O3 release library of bench/run (build/bench; tests/run's
# build/tests is -O2) unless STRIDEKIT_LIB_DIR names another build
# directory. STRIDEKIT_TARGET picks the target as usual.
#
#   bench/call_instructions.sh [CASE ...]   (default: every case)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${STRIDEKIT_LIB_DIR:-$root/build/bench}
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)"; exit 1; }
[ -f "$lib/libstridekit.a" ] || { echo "no $lib/libstridekit.a: run bench/run first"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exe=$work/call_instructions
# The static library (as a Meson subproject links it), C++ runtime included.
cc -O2 -I"$root/dispatch/include" -I"$root/lib/include" -I"$lib/lib/include" \
  -I"$lib/lib/include/stridekit" "$root/bench/call_instructions.c" \
  "$lib/libstridekit.a" -lhwy -lstdc++ -lm -lpthread -o "$exe"
cases=("$@")
[ ${#cases[@]} -gt 0 ] ||
  cases=(plan_add add plan_exp copy plan_copy plan_einsum einsum compare cast plan_cast sum
         cumsum argmax)
count() {  # count CASE N CALLS -> total instructions
  # Only inside the timed calls (not set-up, nor the worker threads).
  valgrind --tool=callgrind --callgrind-out-file="$work/out" --collect-atstart=no \
    --toggle-collect=sk_plan_execute --toggle-collect=sk_binary \
    --toggle-collect=sk_copy --toggle-collect=sk_einsum --toggle-collect=sk_compare \
    --toggle-collect=sk_cast --toggle-collect=sk_reduce --toggle-collect=sk_scan \
    --toggle-collect=sk_arg_reduce "$exe" "$1" "$2" "$3" \
    2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-12s %6s %14s\n' case elements instructions/call
for c in "${cases[@]}"; do
  for n in 1 16 256; do
    one=$(count "$c" "$n" 1)
    many=$(count "$c" "$n" 101)
    printf '%-12s %6s %14s\n' "$c" "$n" $(( (many - one) / 100 ))
  done
done
