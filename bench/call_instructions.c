/* Fixed cost per call in instructions (bench/call_instructions.sh runs it
 * under callgrind): `call_instructions CASE N CALLS` makes CALLS calls of
 * CASE on float32 [e, e] C-order arrays of N = e * e elements. The script
 * subtracts a run of 1 call from a run of 101, so set-up, plan creation and
 * the first call's lazy initialisation drop out.
 *
 * CASE: plan_add (sk_plan_execute of a SK_ADD plan), add (sk_binary),
 * plan_exp (SK_EXP), copy (sk_copy), plan_copy, plan_einsum and einsum
 * ("ij,jk->ik"), compare (sk_compare SK_GT into bytes), cast (sk_cast to
 * float64), plan_cast, sum (sk_reduce SK_SUM over both axes), cumsum
 * (sk_scan SK_CUMSUM along axis 1) and argmax (sk_arg_reduce SK_ARGMAX
 * along axis 1 into int64). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stridekit/stridekit.h"

static sk_view Square(int64_t e) {
  sk_view v;
  memset(&v, 0, sizeof(v));
  v.ndim = 2;
  v.shape[0] = v.shape[1] = e;
  v.strides[0] = e;
  v.strides[1] = 1;
  return v;
}

static void Check(sk_status s) {
  if (s != SK_OK) {
    fprintf(stderr, "call failed: %s\n", sk_last_error());
    exit(1);
  }
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s CASE N CALLS\n", argv[0]);
    return 2;
  }
  const char* name = argv[1];
  const int64_t n = atoll(argv[2]);
  const long calls = atol(argv[3]);
  int64_t e = 1;
  while (e * e < n) ++e;
  const sk_view v = Square(e);
  float* a = calloc((size_t)(e * e), sizeof(float));
  float* b = calloc((size_t)(e * e), sizeof(float));
  /* Room for every case's output (float64 for the cast). */
  float* out = calloc((size_t)(e * e), sizeof(double));
  sk_view none; /* rank 0: the sum of every element */
  memset(&none, 0, sizeof(none));
  const int32_t both_axes[2] = {0, 1};
  sk_view rows; /* [e]: one int64 per row (argmax) */
  memset(&rows, 0, sizeof(rows));
  rows.ndim = 1;
  rows.shape[0] = e;
  rows.strides[0] = 1;
  const void* in[2] = {a, b};
  const sk_view* views[2] = {&v, &v};
  sk_plan* plan = NULL;
  if (strcmp(name, "plan_add") == 0) {
    Check(sk_plan_binary(SK_ADD, SK_FLOAT32, &v, &v, &v, &plan));
  } else if (strcmp(name, "plan_exp") == 0) {
    Check(sk_plan_unary(SK_EXP, SK_FLOAT32, &v, &v, &plan));
  } else if (strcmp(name, "plan_copy") == 0) {
    Check(sk_plan_copy(SK_FLOAT32, &v, &v, NULL, &plan));
  } else if (strcmp(name, "plan_cast") == 0) {
    Check(sk_plan_cast(SK_FLOAT32, &v, SK_FLOAT64, &v, &plan));
  } else if (strcmp(name, "plan_einsum") == 0) {
    Check(sk_plan_einsum("ij,jk->ik", SK_FLOAT32, 2, views, &v, &plan));
  }
  for (long i = 0; i < calls; ++i) {
    if (plan != NULL) {
      Check(sk_plan_execute(plan, in, out));
    } else if (strcmp(name, "add") == 0) {
      Check(sk_binary(SK_ADD, SK_FLOAT32, &v, a, &v, b, &v, out));
    } else if (strcmp(name, "copy") == 0) {
      Check(sk_copy(SK_FLOAT32, &v, a, &v, out, NULL));
    } else if (strcmp(name, "einsum") == 0) {
      Check(sk_einsum("ij,jk->ik", SK_FLOAT32, 2, views, in, &v, out));
    } else if (strcmp(name, "compare") == 0) {
      Check(sk_compare(SK_GT, SK_FLOAT32, &v, a, &v, b, &v, out));
    } else if (strcmp(name, "cast") == 0) {
      Check(sk_cast(SK_FLOAT32, &v, a, SK_FLOAT64, &v, out));
    } else if (strcmp(name, "sum") == 0) {
      Check(sk_reduce(SK_SUM, SK_FLOAT32, &v, a, 2, both_axes, &none, out));
    } else if (strcmp(name, "cumsum") == 0) {
      Check(sk_scan(SK_CUMSUM, SK_FLOAT32, &v, a, 1, &v, out));
    } else if (strcmp(name, "argmax") == 0) {
      Check(sk_arg_reduce(SK_ARGMAX, SK_FLOAT32, &v, a, 1, &rows, out));
    } else {
      fprintf(stderr, "unknown case %s\n", name);
      return 2;
    }
  }
  sk_plan_free(plan);
  free(a);
  free(b);
  free(out);
  return 0;
}
