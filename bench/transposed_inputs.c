/* Transposed inputs against contiguous ones (issue "data movement"): for
 * float32 n x n C-order outputs, each kernel's time with a contiguous input
 * and with a transposed one (a.T), beside the copy engine's transpose of
 * the same input (sk_copy of a.T): a staged path should cost about the
 * contiguous call plus that transpose. One thread; the best of ROUNDS
 * interleaved rounds, in milliseconds. bench/transposed_inputs.sh builds
 * and runs it.
 *
 *   transposed_inputs N ROUNDS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stridekit/stridekit.h"

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void Check(sk_status s) {
  if (s != SK_OK) {
    fprintf(stderr, "call failed: %s\n", sk_last_error());
    exit(1);
  }
}

enum { kAdd, kExp, kGreater, kCast, kCumsum, kCopy, kCases };
static const char* const kNames[kCases] = {"add a+b",       "exp",
                                           "greater a>b",   "cast to float64",
                                           "cumsum axis 1", "copy"};

/* One call of case c with input a read as `in` (contiguous or transposed). */
static void Run(int c, const sk_view* in, const sk_view* v, const float* a,
                const float* b, void* out) {
  switch (c) {
    case kAdd:
      Check(sk_binary(SK_ADD, SK_FLOAT32, in, a, v, b, v, out));
      break;
    case kExp:
      Check(sk_unary(SK_EXP, SK_FLOAT32, in, a, v, out));
      break;
    case kGreater:
      Check(sk_compare(SK_GT, SK_FLOAT32, in, a, v, b, v, out));
      break;
    case kCast:
      Check(sk_cast(SK_FLOAT32, in, a, SK_FLOAT64, v, out));
      break;
    case kCumsum:
      Check(sk_scan(SK_CUMSUM, SK_FLOAT32, in, a, 1, v, out));
      break;
    default:
      Check(sk_copy(SK_FLOAT32, in, a, v, out, NULL));
      break;
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s N ROUNDS\n", argv[0]);
    return 2;
  }
  const int64_t n = atoll(argv[1]);
  const int rounds = atoi(argv[2]);
  float* a = malloc((size_t)(n * n) * 4);
  float* b = malloc((size_t)(n * n) * 4);
  double* out = malloc((size_t)(n * n) * 8);
  if (!a || !b || !out) return 1;
  for (int64_t i = 0; i < n * n; ++i) {
    a[i] = (float)(i % 13) * 0.25f;
    b[i] = (float)(i % 7);
  }
  sk_view v, t;
  memset(&v, 0, sizeof(v));
  v.ndim = 2;
  v.shape[0] = v.shape[1] = n;
  v.strides[0] = n;
  v.strides[1] = 1;
  t = v;
  t.strides[0] = 1;
  t.strides[1] = n;
  Check(sk_set_threads(1));
  double best[kCases][2];
  for (int c = 0; c < kCases; ++c) best[c][0] = best[c][1] = 1e30;
  for (int r = 0; r < rounds; ++r) {
    for (int c = 0; c < kCases; ++c) {
      for (int tr = 0; tr < 2; ++tr) {
        const double t0 = Now();
        Run(c, tr ? &t : &v, &v, a, b, out);
        const double d = Now() - t0;
        if (d < best[c][tr]) best[c][tr] = d;
      }
    }
  }
  printf("float32 %lldx%lld (%lld KiB per array), 1 thread, best of %d\n",
         (long long)n, (long long)n, (long long)(n * n * 4 / 1024), rounds);
  printf("%-16s %12s %12s %10s %14s\n", "kernel", "contig ms", "a.T ms",
         "a.T/contig", "(contig+T)/a.T");
  const double transpose = best[kCopy][1];
  for (int c = 0; c < kCases; ++c) {
    printf("%-16s %12.3f %12.3f %10.2f %14.2f\n", kNames[c], best[c][0] * 1e3,
           best[c][1] * 1e3, best[c][1] / best[c][0],
           c == kCopy ? 1.0 : (best[c][0] + transpose) / best[c][1]);
  }
  free(a);
  free(b);
  free(out);
  return 0;
}
