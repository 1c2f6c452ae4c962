// Overflow-checked int64 arithmetic. Each helper names the operation in its
// error so a caller sees which computation did not fit.
#ifndef STRIDEKIT_CHECKED_H_
#define STRIDEKIT_CHECKED_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>

#include "stridekit/error.h"

namespace stridekit {

inline int64_t CheckedAdd(int64_t a, int64_t b, const char* op) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    Fail(ErrorKind::kOverflow, op, ": ", a, " + ", b, " overflows int64");
  }
  return r;
}

inline int64_t CheckedSub(int64_t a, int64_t b, const char* op) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) {
    Fail(ErrorKind::kOverflow, op, ": ", a, " - ", b, " overflows int64");
  }
  return r;
}

inline int64_t CheckedMul(int64_t a, int64_t b, const char* op) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    Fail(ErrorKind::kOverflow, op, ": ", a, " * ", b, " overflows int64");
  }
  return r;
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_CHECKED_H_
