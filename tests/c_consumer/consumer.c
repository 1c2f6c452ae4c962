/* A C99 program that links an installed static libstridekit.a with exactly
 *   cc consumer.c $(pkg-config --cflags stridekit) \
 *      $(pkg-config --libs --static stridekit)
 * (tests/run does so against a temporary install) and calls the C ABI: shape
 * functions, a SIMD-dispatched kernel and the DLPack export. Exits non-zero
 * on a wrong answer. */
#include <dlpack/dlpack.h>
#include <stdio.h>
#include <string.h>

#include "stridekit/stridekit.h"

int main(void) {
  int64_t shape[2] = {2, 3};
  int64_t n = 0;
  if (sk_numel(2, shape, &n) != SK_OK || n != 6) return 1;

  float a[6] = {0, 1, 2, 3, 4, 5}, b[3] = {10, 20, 30}, out[6];
  sk_view va, vb, vo;
  int64_t row[1] = {3};
  if (sk_view_make(2, shape, NULL, 0, &va) != SK_OK) return 2;
  if (sk_view_make(1, row, NULL, 0, &vb) != SK_OK) return 2;
  if (sk_view_make(2, shape, NULL, 0, &vo) != SK_OK) return 2;
  if (sk_binary(SK_ADD, SK_FLOAT32, &va, a, &vb, b, &vo, out) != SK_OK) {
    fprintf(stderr, "sk_binary: %s\n", sk_last_error());
    return 3;
  }
  {
    const float want[6] = {10, 21, 32, 13, 24, 35};
    if (memcmp(out, want, sizeof(want)) != 0) return 4;
  }

  /* a.T as a DLTensor: element strides [1, 3]. */
  {
    sk_view t;
    int64_t dl_shape[2], dl_strides[2];
    DLTensor dl;
    if (sk_view_slice(&va, "::-1", &t) != SK_OK) return 5;
    if (sk_view_to_dlpack(&t, SK_FLOAT32, a, dl_shape, dl_strides, &dl) !=
            SK_OK ||
        dl.ndim != 2 || dl.strides[0] != -3 || dl.strides[1] != 1 ||
        dl.byte_offset != 3 * sizeof(float)) {
      fprintf(stderr, "sk_view_to_dlpack: %s\n", sk_last_error());
      return 6;
    }
  }
  if (sk_target_active() == NULL) return 7;
  printf("c_consumer linked stridekit %s statically (target %s)\n",
         sk_version(), sk_target_active());
  return 0;
}
