// The transcendental functions of the math ops (exp, log, expm1, log1p,
// sin, cos, tanh) for float and double, written once over an arithmetic
// policy `M` so that the scalar reference (ScalarMath below) and the
// Highway vectors of every target (simd/math-inl.h) run the same sequence
// of correctly rounded IEEE operations and give the same bits: the only
// fused multiply-add is M::MulAdd, the multiply-add rule (std::fma's bits,
// simd/multiply_add-inl.h), in the polynomials; nothing else fuses (the
// build passes -ffp-contract=off). No Highway.
//
// Methods: Cody-Waite range reduction (constants split so that the
// products with the reduction multiple are exact) and truncated Taylor
// series of enough terms that the truncation error stays far below half an
// ulp; log and log1p follow fdlibm's scheme (s = f / (2 + f), atanh series);
// sin and cos reduce by pi/2 in double-word arithmetic (exact products and
// TwoSum), so arguments up to kTrigLimit (double: 1e5, float: 4000) are
// reduced with a relative error below 2^-60; larger finite arguments go to
// M::Fallback, which both sides implement with the C library's double sin
// and cos (correctly reduced), rounded to T. Measured errors: see
// tests/math_test.cc (at most 4 ulp is asserted).
//
// A policy M has: types T (float or double), V (value vector), I (signed
// integer vector of the same width), K (mask); Set(T), Add, Sub, Mul,
// MulAdd (a * b + c rounded once), Div,
// Abs, CopySign(mag, sign), Round (to nearest even), Floor, Trunc, Lt, Le,
// Eq, IsNaN, IsFinite, And/Or of masks, Select(mask, yes, no), BitsOf(V),
// FromBits(I), AddI, AndI, OrI, ShlI<k>, ShrI<k> (arithmetic), SetI,
// ToInt (of an integral value in range), ToFloat, and
// Fallback(mask, x, result, fn): fn(x) in the lanes of mask.
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
