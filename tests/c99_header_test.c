/* Compiles stridekit.h as strict C99, calls the Shapes section once, and
 * passes enum arguments far outside their enums (legal C ints, which C++
 * callers cannot make): each must fail cleanly (UBSan runs this too). */
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
  {
    float data[6] = {0};
    sk_view line;
    const int64_t six[1] = {6};
    if (sk_view_make(1, six, NULL, 0, &line) != SK_OK) return 7;
    if (sk_copy((sk_dtype)99, &line, data, &line, data, NULL) !=
        SK_ERR_UNSUPPORTED)
      return 8;
    if (sk_fill((sk_dtype)-1, &line, data, data) != SK_ERR_UNSUPPORTED)
      return 9;
    if (sk_binary((sk_binary_op)99, SK_FLOAT32, &line, data, &line, data, &line,
                  data) == SK_OK)
      return 10;
    if (sk_unary((sk_unary_op)-7, SK_FLOAT32, &line, data, &line, data) ==
        SK_OK)
      return 11;
    if (sk_reduce((sk_reduce_op)1000, SK_FLOAT32, &line, data, 0, NULL, &line,
                  data) == SK_OK)
      return 12;
    if (sk_binary(SK_ADD, (sk_dtype)1000, &line, data, &line, data, &line,
                  data) != SK_ERR_UNSUPPORTED)
      return 13;
    if (sk_dtype_size((sk_dtype)-5) != 0) return 14;
  }
  {
    /* A plan from C: made once, run twice; far-out enum values refused
     * with *plan NULL. */
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 1, 1, 1, 1, 1}, out[6];
    const void* inputs[2];
    sk_view line;
    sk_plan* plan = (sk_plan*)&line;
    const int64_t six[1] = {6};
    if (sk_view_make(1, six, NULL, 0, &line) != SK_OK) return 15;
    if (sk_plan_binary((sk_binary_op)99, SK_FLOAT32, &line, &line, &line,
                       &plan) == SK_OK ||
        plan != NULL)
      return 16;
    if (sk_plan_binary(SK_ADD, SK_FLOAT32, &line, &line, &line, &plan) != SK_OK)
      return 17;
    inputs[0] = a;
    inputs[1] = b;
    if (sk_plan_inputs(plan) != 2) return 18;
    if (sk_plan_execute(plan, inputs, out) != SK_OK || out[5] != 7.0f)
      return 19;
    inputs[0] = out;
    if (sk_plan_execute(plan, inputs, out) != SK_OK || out[5] != 8.0f)
      return 20;
    if (strlen(sk_plan_describe(plan)) == 0) return 21;
    sk_plan_free(plan);
  }
  printf("stridekit %s from C99\n", sk_version());
  return 0;
}
