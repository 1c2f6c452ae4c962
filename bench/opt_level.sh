#!/usr/bin/env bash
# Kernel times of two builds of the static library, in alternating runs on
# the same machine (bench/opt_level.c): for instance the simd layer at -O2
# against -O3. Prints per case the median over ROUNDS runs of each build's
# median time and B / A. The cases include long rows (256 KiB per operand)
# and many short ones (16 elements), where per-row costs show.
#
#   bench/opt_level.sh A_LIB_DIR B_LIB_DIR [ROUNDS]
# where each directory holds a libstridekit.a built from this checkout
# (B's directory also gives the generated headers), e.g.
#   meson setup build/o2 -Dbuildtype=release -Doptimize=2 -Ddefault_library=static
#   ninja -C build/o2 libstridekit.a
#   bench/opt_level.sh build/tests build/o2 11
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${3:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in A B; do
  lib=$1
  [ "$side" = B ] && lib=$2
  # The generated headers (version) from B's build directory.
  cc -O2 -I"$root/dispatch/include" -I"$root/lib/include" -I"$2/lib/include" \
    -I"$2/lib/include/stridekit" \
    "$root/bench/opt_level.c" "$lib/libstridekit.a" -lhwy -lstdc++ -lm \
    -lpthread -o "$work/$side"
done
for ((r = 0; r < rounds; ++r)); do
  "$work/A" >"$work/A.$r"
  "$work/B" >"$work/B.$r"
done
/usr/bin/python3 - "$work" "$rounds" <<'EOF'
import statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def load(side):
    runs = {}
    for r in range(rounds):
        for line in open(f"{work}/{side}.{r}"):
            name, t = line.rsplit(None, 1)
            runs.setdefault(name.strip(), []).append(float(t))
    return {k: statistics.median(v) for k, v in runs.items()}
a, b = load("A"), load("B")
print(f"{'case':18} {'A us':>10} {'B us':>10} {'B/A':>6}")
for k in a:
    print(f"{k:18} {a[k]:10.2f} {b[k]:10.2f} {b[k] / a[k]:6.3f}")
EOF
