// Fuzzes the C ABI "Shapes" section with hostile ranks, dims, indices and
// strides: every call returns a status (never crashes), and successful
// results are consistent with each other.
#include <cstdint>
#include <cstdlib>

#include "fuzz_input.h"
#include "stridekit/stridekit.h"

using stridekit::fuzz::FuzzInput;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  int64_t a[SK_MAX_NDIM], b[SK_MAX_NDIM], out[SK_MAX_NDIM];
  const int32_t ndim =
      in.Byte() % 8 == 0 ? int32_t(in.Int()) : int32_t(in.Range(0, 6));
  const int32_t n = ndim < 0 ? 0 : ndim > SK_MAX_NDIM ? SK_MAX_NDIM : ndim;
  for (int d = 0; d < n; ++d) {
    a[d] = in.Byte() % 4 ? in.Range(0, 7) : in.Int();
    b[d] = in.Int();
  }
  int64_t numel = -1;
  const sk_status numel_status = sk_numel(ndim, a, &numel);
  if (numel_status == SK_OK && numel < 0) abort();
  int64_t strides[SK_MAX_NDIM];
  const sk_status strides_status = sk_c_strides(ndim, a, strides);
  if (numel_status == SK_OK && numel > 0 && strides_status != SK_OK) {
    // Strides of a shape whose element count fits always fit too.
    abort();
  }
  const int64_t k = in.Int();
  if (sk_unravel_index(k, ndim, a, out) == SK_OK && numel > 0 &&
      strides_status == SK_OK) {
    int64_t back = 0;
    if (sk_ravel_index(ndim, out, strides, &back) != SK_OK || back != k) {
      abort();
    }
  }
  int64_t ravel = 0;
  (void)sk_ravel_index(ndim, a, b, &ravel);
  const int32_t spec_ndim = int32_t(in.Range(0, 6));
  int64_t spec[8];
  for (int d = 0; d < spec_ndim; ++d) spec[d] = in.Range(-2, 8);
  if (sk_resolve_reshape(ndim, a, spec_ndim, spec, out) == SK_OK) {
    int64_t resolved = 0;
    if (sk_numel(spec_ndim, out, &resolved) != SK_OK || resolved != numel) {
      abort();
    }
  }
  const int32_t ndims[3] = {ndim, int32_t(in.Range(0, 4)),
                            int32_t(in.Range(0, 4))};
  const int64_t* shapes[3] = {a, b, a + 1};
  int32_t out_ndim = 0;
  (void)sk_broadcast_shapes(3, ndims, shapes, &out_ndim, out);
  (void)sk_last_error();
  return 0;
}
