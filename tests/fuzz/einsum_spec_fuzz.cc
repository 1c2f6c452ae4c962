// Fuzzes sk_einsum_shape with hostile specs (NumPy subscripts and OCANNL
// labels, told apart by "=>") and operand shapes: it must never crash, and
// a success must give a rank within SK_MAX_NDIM and dims >= 0, and be
// deterministic. Bytes after the spec's NUL are row lengths (three per
// operand) for sk_einsum_rows_shape, held to the same.
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::FuzzInput;

namespace {

// A success's result: rank within SK_MAX_NDIM, dims >= 0.
void CheckResult(int32_t ndim, const int64_t* shape) {
  if (ndim < 0 || ndim > SK_MAX_NDIM) abort();
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] < 0) abort();
  }
}

void CheckSame(int32_t ndim, const int64_t* shape, int32_t again_ndim,
               const int64_t* again) {
  if (again_ndim != ndim) abort();
  for (int d = 0; d < ndim; ++d) {
    if (again[d] != shape[d]) abort();
  }
}

// A row length: mostly 0 .. 6, sometimes -1 or an int32 limit.
int32_t RowLength(FuzzInput& in) {
  const uint8_t b = in.Byte();
  if (b == 255) return INT32_MAX;
  if (b == 254) return INT32_MIN;
  return int32_t(b % 8) - 1;
}

}  // namespace

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
    CheckResult(out_ndim, out_shape);
    int32_t again_ndim = -1;
    int64_t again[SK_MAX_NDIM];
    if (sk_einsum_shape(spec.c_str(), n, ndims.data(), pointers.data(),
                        &again_ndim, again) != SK_OK) {
      abort();
    }
    CheckSame(out_ndim, out_shape, again_ndim, again);
  }
  if (in.empty()) return 0;
  // The row form.
  std::vector<int32_t> rows(size_t(3 * n));
  for (int32_t& r : rows) r = RowLength(in);
  int32_t rows_ndim = -1;
  int64_t rows_shape[SK_MAX_NDIM];
  if (sk_einsum_rows_shape(spec.c_str(), n, rows.data(), ndims.data(),
                           pointers.data(), &rows_ndim, rows_shape) != SK_OK) {
    return 0;
  }
  CheckResult(rows_ndim, rows_shape);
  int32_t again_ndim = -1;
  int64_t again[SK_MAX_NDIM];
  if (sk_einsum_rows_shape(spec.c_str(), n, rows.data(), ndims.data(),
                           pointers.data(), &again_ndim, again) != SK_OK) {
    abort();
  }
  CheckSame(rows_ndim, rows_shape, again_ndim, again);
  return 0;
}
