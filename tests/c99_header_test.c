/* Compiles stridekit.h as strict C99 and calls the Shapes section once. */
#include <stdio.h>
#include <string.h>

#include "stridekit/stridekit.h"

int main(void) {
  const int64_t shape[3] = {2, 3, 4};
  int64_t strides[3];
  int64_t n = 0;
  sk_view view;
  if (sk_numel(3, shape, &n) != SK_OK || n != 24) return 1;
  if (sk_c_strides(3, shape, strides) != SK_OK || strides[0] != 12) return 2;
  if (sk_numel(-1, shape, &n) != SK_ERR_INVALID) return 3;
  if (strlen(sk_last_error()) == 0) return 4;
  if (sk_dtype_size(SK_COMPLEX128) != 16) return 5;
  if (sizeof(view.shape) != SK_MAX_NDIM * sizeof(int64_t)) return 6;
  printf("stridekit %s from C99\n", sk_version());
  return 0;
}
