// The numeric dtypes (lib/numeric_types.h NumericTypes) as sk_dtype values,
// so that the numeric fuzzers follow the library's type list.
#ifndef STRIDEKIT_TESTS_FUZZ_NUMERIC_DTYPES_H_
#define STRIDEKIT_TESTS_FUZZ_NUMERIC_DTYPES_H_

#include <vector>

#include "fuzz_input.h"
#include "numeric_types.h"

namespace stridekit::fuzz {

inline const std::vector<sk_dtype>& NumericDTypes() {
  static const std::vector<sk_dtype> types = [] {
    std::vector<sk_dtype> out;
    for (int32_t t = 0; t < DTypeCount(); ++t) {
      if (IsNumericDType(DType(t))) out.push_back(sk_dtype(t));
    }
    return out;
  }();
  return types;
}

// True for a numeric dtype of the op table's float kind.
inline bool IsFloatDType(sk_dtype t) { return KindOf(DType(t)) == kFloatKinds; }

}  // namespace stridekit::fuzz

#endif  // STRIDEKIT_TESTS_FUZZ_NUMERIC_DTYPES_H_
