// Fuzzes sk_einsum_shape with hostile specs (NumPy subscripts and OCANNL
// labels, told apart by "=>") and operand shapes: it must never crash, and
// a success must give a rank within SK_MAX_NDIM and dims >= 0, and be
// deterministic.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::FuzzInput;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const int n = int(in.Byte() % 5);
  std::vector<std::vector<int64_t>> shapes(n);
  std::vector<int32_t> ndims(n);
  std::vector<const int64_t*> pointers(n);
  for (int i = 0; i < n; ++i) {
    const bool hostile = in.Byte() % 16 == 0;
    ndims[i] = hostile ? int32_t(in.Range(-2, 40)) : int32_t(in.Byte() % 5);
    shapes[i].resize(ndims[i] > 0 ? size_t(ndims[i]) : 0);
    for (auto& d : shapes[i]) d = hostile ? in.Int() : in.Range(0, 5);
    pointers[i] = shapes[i].data();
  }
  std::string spec;
  while (!in.empty()) {
    const char c = char(in.Byte());
    if (c == '\0') break;
    spec += c;
  }
  int32_t out_ndim = -1;
  int64_t out_shape[SK_MAX_NDIM];
  const sk_status status = sk_einsum_shape(
      spec.c_str(), n, ndims.data(), pointers.data(), &out_ndim, out_shape);
  if (status == SK_OK) {
    if (out_ndim < 0 || out_ndim > SK_MAX_NDIM) abort();
    for (int d = 0; d < out_ndim; ++d) {
      if (out_shape[d] < 0) abort();
    }
    int32_t again_ndim = -1;
    int64_t again[SK_MAX_NDIM];
    if (sk_einsum_shape(spec.c_str(), n, ndims.data(), pointers.data(),
                        &again_ndim, again) != SK_OK ||
        again_ndim != out_ndim) {
      abort();
    }
    for (int d = 0; d < out_ndim; ++d) {
      if (again[d] != out_shape[d]) abort();
    }
  }
  return 0;
}
