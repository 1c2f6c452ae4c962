"""NumPy differential test of sk_einsum_shape.

Seeded random NumPy subscript specs over random shapes (ellipsis with
size-1 broadcasting, diagonals, implicit output, malformed specs): the
result shape must equal np.einsum's, and NumPy raising must coincide with an
error status. OCANNL specs are compared with their NumPy translations through
the memory order batch, output, input (reference/ocannl.md table 5.2 and
random closed-row specs with a shared batch row variable).
"""
import random
import string

import numpy as np

import stridekit_ctypes as sk

LABELS = "abcdeAB"


def numpy_shape(spec, shapes):
    try:
        return True, np.einsum(spec, *[np.zeros(s) for s in shapes]).shape
    except (ValueError, TypeError):
        return False, None


def compare(tally, spec, shapes, want=None):
    ok, shape = numpy_shape(want or spec, shapes)
    st, got = sk.einsum_shape(spec, shapes)
    tally.check((st == sk.SK_OK) == ok and (not ok or tuple(shape) == got),
                f"{spec!r} {shapes}: numpy {shape if ok else 'raises'}, "
                f"stridekit status {st} {got} {sk.last_error()}")


def random_numpy_case(rng):
    sizes = {c: rng.choice((1, 2, 3, 4)) for c in LABELS}
    ellipsis = tuple(rng.choice((2, 3)) for _ in range(rng.randint(0, 3)))
    terms, shapes = [], []
    for _ in range(rng.randint(1, 3)):
        labels = [rng.choice(LABELS) for _ in range(rng.randint(0, 4))]
        shape = [sizes[c] for c in labels]
        if rng.random() < 0.4:
            at = rng.randint(0, len(labels))
            own = list(ellipsis[rng.randint(0, len(ellipsis)):])
            own = [1 if rng.random() < 0.3 else d for d in own]
            labels.insert(at, "...")
            shape[at:at] = own
        for i in range(len(shape)):
            if rng.random() < 0.1:
                shape[i] = 1  # NumPy broadcasts it against the label's size.
            elif rng.random() < 0.03:
                shape[i] = rng.choice((0, 5))  # Usually a mismatch.
        if rng.random() < 0.04:
            shape.append(2)  # Too many dimensions.
        elif rng.random() < 0.04 and shape:
            shape.pop()  # Too few.
        terms.append("".join(labels))
        shapes.append(tuple(shape))
    spec = ",".join(terms)
    if rng.random() < 0.6:
        seen = sorted({c for t in terms for c in t if c.isalpha()})
        out = rng.sample(seen, rng.randint(0, len(seen)))
        if any("..." in t for t in terms) and rng.random() < 0.9:
            out.insert(rng.randint(0, len(out)), "...")
        if rng.random() < 0.05:
            out.append(rng.choice(LABELS))  # Repeated or never seen.
        spec += "->" + "".join(out)
    if rng.random() < 0.05:  # Malformed text.
        i = rng.randint(0, len(spec))
        spec = spec[:i] + rng.choice(("-", ">", ".", "$", "->", ",", " ")) + spec[i:]
    return spec, shapes


def test_numpy_specs(rng, tally):
    for _ in range(6000):
        compare(tally, *random_numpy_case(rng))
    for spec, shapes in [
            ("", [()]), ("->", [()]), (" i j -> j i ", [(2, 3)]),
            ("i->i->", [(2,)]), ("......", [(2,)]), ("i...i", [(3, 2, 3)]),
            ("...ii->...i", [(2, 3, 3)]), ("ij,jk", [(2, 1), (3, 4)]),
            ("i,i", [(0,), (1,)]), ("bA,Ab", [(2, 3), (3, 2)]),
            ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 5), (5, 6)]),
            ("i", [(2,), (3,)]), ("i,j", [(2,)])]:
        compare(tally, spec, shapes)


# reference/ocannl.md table 5.2: (OCANNL spec, memory shapes, NumPy subscripts).
OCANNL_TABLE = [
    ("b|i->o => o|b->i", [(2, 4, 3)], "boi->oib"),
    ("ab|cd->ef => cf|ae->db", [(2, 3, 6, 7, 4, 5)], "abefcd->cfdbae"),
    ("ab|cd->ef => c|a->d", [(2, 3, 6, 7, 4, 5)], "abefcd->cda"),
    ("b|i->o => b|i", [(2, 4, 3)], "boi->bi"),
    ("i; j => i->j", [(2,), (3,)], "i,j->ji"),
    ("i|j->k; l|m->n => il|jm->kn", [(2, 4, 3), (5, 7, 6)], "ikj,lnm->ilknjm"),
    ("b|i->o; b|i->o => b|i->o", [(2, 4, 3), (2, 4, 3)], "boi,boi->boi"),
    ("b|h->o; b|i->h => b|i->o", [(2, 5, 4), (2, 4, 3)], "boh,bhi->boi"),
    ("a|i->h; b|h->o => ab|i->o", [(2, 4, 3), (2, 5, 4)], "ahi,boh->aboi"),
    ("b|i->h; b|h->o => i->o", [(2, 4, 3), (2, 5, 4)], "bhi,boh->oi"),
    ("...|i->o => ...|o->i", [(2, 4, 3)], "...oi->...io"),
    ("b|...->o => o|...->b", [(2, 4, 3)], "bo...->ob..."),
    ("i->...o => ...io", [(3, 4, 2)], "...oi->...io"),
    ("ab;bc=>ac", [(2, 3), (3, 4)], "ab,bc->ac"),
    ("a..r..;..r..b=>ab", [(2, 3, 4), (3, 4, 5)], "axy,xyb->ab"),
    ("a, ..row1.., b; ..row2.., c => a, ..row1.., c", [(2, 3, 4), (3, 5)],
     "axb,yc->axc"),
    ("ii => i", [(3, 3)], "ii->i"),
    ("ij;jk;km=>im", [(2, 3), (3, 4), (4, 5)], "ij,jk,km->im"),
    ("... s | h d; ... t | h d => ... s | t -> h", [(2, 5, 3, 4), (2, 6, 3, 4)],
     "bshd,bthd->bsht"),
    ("ij;jk=>ik", [(2, 2), (3, 4)], "ij,jk->ik"),  # Both raise.
]


def test_ocannl_table(tally):
    for spec, shapes, numpy_spec in OCANNL_TABLE:
        compare(tally, spec, shapes, numpy_spec)
    # OCANNL never broadcasts inside einsum where NumPy does.
    st, _ = sk.einsum_shape("ij;jk=>ik", [(2, 1), (3, 4)])
    tally.check(st == sk.SK_ERR_INVALID, f"ij;jk=>ik on (2,1),(3,4): {st}")


def random_ocannl_case(rng):
    """An OCANNL einsum over closed rows plus a shared "..." batch row, and
    its NumPy translation (memory order batch, output, input)."""
    pool = string.ascii_lowercase[:8]
    sizes = {c: rng.choice((2, 3, 4)) for c in pool}
    batch = tuple(rng.choice((2, 3)) for _ in range(rng.randint(0, 2)))
    slots, numpy_terms, shapes, used = [], [], [], []

    def rows(labels_pool):
        return [[rng.choice(labels_pool) for _ in range(rng.randint(0, 2))]
                for _ in range(2)]

    for _ in range(rng.randint(1, 3)):
        input_row, output_row = rows(pool)
        slots.append("...|" + "".join(input_row) + "->" + "".join(output_row))
        numpy_terms.append("..." + "".join(output_row + input_row))
        shape = list(batch) + [sizes[c] for c in output_row + input_row]
        if rng.random() < 0.05 and len(shape) > len(batch):
            shape[-1] += 1  # A mismatch: both raise.
        shapes.append(tuple(shape))
        used += input_row + output_row
    distinct = sorted(set(used))
    out = rng.sample(distinct, rng.randint(0, len(distinct)))
    cut = rng.randint(0, len(out))
    result_in, result_out = out[:cut], out[cut:]
    spec = ";".join(slots) + "=>...|" + "".join(result_in) + "->" + "".join(
        result_out)
    numpy_spec = ",".join(numpy_terms) + "->..." + "".join(result_out + result_in)
    return spec, shapes, numpy_spec


def test_ocannl_random(rng, tally):
    for _ in range(2000):
        spec, shapes, numpy_spec = random_ocannl_case(rng)
        compare(tally, spec, shapes, numpy_spec)


def test_c_abi_arguments(tally):
    out_ndim = sk.ctypes.c_int32()
    out = sk.int64_array([], sk.SK_MAX_NDIM)
    for args, message in [
            ((None, 0, None, None, sk.ctypes.byref(out_ndim), out),
             "sk_einsum_shape: spec is NULL"),
            ((b"i", -1, None, None, sk.ctypes.byref(out_ndim), out),
             "sk_einsum_shape: n=-1 is negative"),
            ((b"i", 1, None, None, sk.ctypes.byref(out_ndim), out),
             "sk_einsum_shape: ndims is NULL"),
            ((b"", 0, None, None, None, out),
             "sk_einsum_shape: out_ndim is NULL")]:
        st = sk.LIB.sk_einsum_shape(*args)
        tally.check(st == sk.SK_ERR_INVALID and sk.last_error() == message,
                    f"{args}: {st} {sk.last_error()!r}")


def main():
    rng = random.Random(7)
    tally = sk.Tally("einsum_shape_diff")
    test_numpy_specs(rng, tally)
    test_ocannl_table(tally)
    test_ocannl_random(rng, tally)
    test_c_abi_arguments(tally)
    tally.finish()


if __name__ == "__main__":
    main()
