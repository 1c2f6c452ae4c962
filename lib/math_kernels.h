// The transcendental functions of the math ops (exp, exp2, expm1, log,
// log2, log10, log1p, cbrt, sinh, cosh, tanh, arcsinh, arccosh, arctanh,
// logaddexp, logaddexp2; sin, cos, tan, arcsin, arccos, arctan, arctan2,
// hypot) for float and double, written once over an arithmetic policy `M`
// so that the scalar reference (ScalarMath below) and the Highway vectors
// of every target (simd/elementwise/math-inl.h) run the same sequence of
// correctly rounded IEEE operations and give the same bits: the only fused
// multiply-add is M::MulAdd, the multiply-add rule (std::fma's bits,
// simd/common/multiply_add-inl.h), in the polynomials and the exact reduction
// steps; nothing else fuses (the build passes -ffp-contract=off). No
// Highway.
//
// Methods: the exp/log family (math_exp_log-inl.h) reduces by ln2 with
// multiply-adds and evaluates minimax polynomials (no division in exp and
// log; double's log family reduces by a 16-row table, M::Table16); the
// trigonometric family (math_trig-inl.h) reduces by pi/2 in double-word
// arithmetic up to kTrigLimit (larger finite arguments go to M::Fallback: the C
// library's double functions, correctly reduced, rounded to T). Both take rare
// vector paths for the extremes. Measured errors: docs/math_accuracy.md
// (tests/accuracy/run); tests/math_test.cc asserts at most 4 ulp.
//
// A policy M has: types T (float or double), V (value vector), I (signed
// integer vector of the same width), K (mask); Set(T), Add, Sub, Mul,
// MulAdd (a * b + c rounded once), Div,
// Sqrt, Neg (flips the sign bit), Abs, CopySign(mag, sign), Round (to
// nearest even), Floor, Trunc, Lt, Le, Eq, IsNaN, IsFinite, And/Or/Not of
// masks, Select(mask, yes, no), BitsOf(V),
// FromBits(I), AddI, AndI, OrI, ShlI<k>, ShrI<k> (arithmetic), SetI,
// ToInt (of an integral value in range), ToFloat, and
// Fallback(mask, x, result, fn): fn(x) in the lanes of mask.
// AnyLane(mask): whether any lane is set (skips a rare path whose lanes are
// selected afterwards: the same bits either way).
// XorI (bitwise exclusive or of I).
// SelectIfNegativeI(k, yes, no): yes in the lanes whose integer k is < 0.
// Table16(table, index): table[index & 15] in each lane (a lookup in 16
// entries; pure data movement, the same bits however a target does it).
// LtI(a, b): the mask of a < b on the signed integers.
#ifndef STRIDEKIT_LIB_MATH_KERNELS_H_
#define STRIDEKIT_LIB_MATH_KERNELS_H_

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace stridekit::math {
#include "math_kernels-inl.h"  // IWYU pragma: export
}  // namespace stridekit::math

#endif  // STRIDEKIT_LIB_MATH_KERNELS_H_
