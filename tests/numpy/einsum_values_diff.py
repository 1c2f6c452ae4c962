"""NumPy differential test of sk_einsum's values.

Random specs (matrix products, batched products, traces, diagonals,
transposes, outer products, sums, "...", up to three operands) over random
views (transposed, reversed, strided, broadcast) of random data, for every
dtype: integers must equal np.einsum exactly; floats within the documented
bound (R + 2) u sum|products| (R reduced positions per output element),
computed per element from np.einsum of the absolute values. OCANNL specs
(reference/ocannl.md table 5.2 and random ones) are compared with np.einsum
of their NumPy translations (memory order batch, output, input). Prints
"N passed, N failed".
"""
import random
import sys

import numpy as np

import einsum_shape_diff
import stridekit_ctypes as sk
from checks import check, report



SPECS = [
    ("ij,jk->ik", ["ij", "jk"]), ("ij,jk", ["ij", "jk"]),
    ("bij,bjk->bik", ["bij", "bjk"]), ("ii->", ["ii"]), ("ii->i", ["ii"]),
    ("ij->ji", ["ij"]), ("ij->", ["ij"]), ("ij->j", ["ij"]),
    ("i,j->ij", ["i", "j"]), ("i,i->", ["i", "i"]),
    ("ijk,kj->i", ["ijk", "kj"]), ("i,ij,j->", ["i", "ij", "j"]),
    ("ab,bc,cd->ad", ["ab", "bc", "cd"]), ("...ij,jk->...ik", ["...ij", "jk"]),
    ("iij->j", ["iij"]), ("ij,ij->ij", ["ij", "ij"]),
]


def random_view(rng, base_shape, dtype):
    """A NumPy view of a fresh random array with shape base_shape, and the
    (buffer, sk_view) describing it."""
    if rng.random() < 0.3 and len(base_shape) >= 2:
        # The transpose of an array of the reversed shape.
        data = random_data(rng, tuple(reversed(base_shape)), dtype)
        arr = data.T
    else:
        data = random_data(rng, tuple(base_shape), dtype)
        arr = data
    if arr.ndim and rng.random() < 0.3:
        axis = rng.randrange(arr.ndim)
        arr = np.flip(arr, axis)
    buf = data.reshape(-1) if data.flags["C_CONTIGUOUS"] else data
    view = sk.view_of(arr, buf)
    return arr, buf, view


def random_data(rng, shape, dtype):
    n = int(np.prod(shape, dtype=np.int64))
    if np.dtype(dtype).kind == "f":
        values = np.array([rng.uniform(-4, 4) for _ in range(n)])
    else:
        values = np.array([rng.randint(-50, 50) for _ in range(n)])
    return values.astype(dtype).reshape(shape)


def test(rng, cases):
    for case in range(cases):
        spec, terms = rng.choice(SPECS)
        dtype = rng.choice([np.float32, np.float64, np.int32, np.int64])
        sizes = {c: rng.randint(1, 6) for c in "abcdijk"}
        ellipsis = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
        operands, pairs = [], []
        for term in terms:
            shape = (ellipsis if term.startswith("...") else []) + [
                sizes[c] for c in term.replace("...", "")]
            arr, buf, view = random_view(rng, shape, dtype)
            operands.append(arr)
            pairs.append((view, buf))
        labels = set("".join(terms).replace("...", ""))
        space = int(np.prod([sizes[c] for c in labels])) * (
            int(np.prod(ellipsis)) if "..." in spec else 1)
        compare_values(f"case {case}", spec, spec, operands, pairs, dtype,
                       lambda out_size: max(1, space // max(1, out_size)))


def compare_values(what, spec, numpy_spec, operands, pairs, dtype, reduced):
    """sk_einsum(spec) against np.einsum(numpy_spec) on the same operands;
    reduced(out_size) gives R for the float bound."""
    want = np.einsum(numpy_spec, *operands)
    out = np.full(want.shape, 77, dtype=dtype)
    st, out_view = sk.view_make(out.shape)
    st = sk.einsum(spec, np.dtype(dtype), pairs, out_view, out)
    what = f"{what}: {spec} {np.dtype(dtype)} shapes " + \
           f"{[o.shape for o in operands]}"
    check(st == sk.SK_OK, f"{what}: status {st} {sk.last_error()}")
    if st != sk.SK_OK:
        return
    if np.dtype(dtype).kind != "f":
        check(np.array_equal(out, want), f"{what}: values differ")
        return
    u = np.finfo(dtype).eps / 2
    magnitude = np.einsum(numpy_spec, *[np.abs(o).astype(np.float64)
                                        for o in operands])
    bound = (reduced(want.size) + 2) * u * magnitude + 1e-30
    err = np.abs(out.astype(np.float64) - want.astype(np.float64))
    check(np.all(err <= bound),
          f"{what}: error {err.max()} above bound {bound.max()}")


def test_ocannl(rng, cases):
    """OCANNL specs whose NumPy translation is valid, on random views."""
    specs = [(spec, shapes, numpy_spec)
             for spec, shapes, numpy_spec in einsum_shape_diff.OCANNL_TABLE]
    specs += [einsum_shape_diff.random_ocannl_case(rng) for _ in range(cases)]
    for number, (spec, shapes, numpy_spec) in enumerate(specs):
        try:
            counts = np.einsum(numpy_spec, *[np.ones(s) for s in shapes])
        except ValueError:
            continue  # Both raise: einsum_shape_diff checks that.
        dtype = rng.choice([np.float32, np.float64, np.int32, np.int64])
        operands, pairs = [], []
        for shape in shapes:
            arr, buf, view = random_view(rng, list(shape), dtype)
            operands.append(arr)
            pairs.append((view, buf))
        reduced = int(np.max(counts)) if np.size(counts) else 1
        compare_values(f"ocannl {number}", spec, numpy_spec, operands, pairs,
                       dtype, lambda out_size: reduced)


def main():
    rng = random.Random(20261123)
    test(rng, 1500)
    test_ocannl(rng, 600)
    return report()


if __name__ == "__main__":
    sys.exit(main())
