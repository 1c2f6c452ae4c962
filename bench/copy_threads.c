/* Copies on 1 and 2 threads against one-thread memcpy, DRAM-sized (64 MiB
 * of float32): a contiguous row, a 4096^2 transpose and a 256^3
 * permutation, best of 7 each; GB/s counts bytes read and written. A quick
 * check of the thread split (dispatch/operand_box.h ThreadBoxes) without
 * the benchmark build; bench/run's copy suite is the full comparison.
 *
 *   cc -O2 -Idispatch/include -Ilib/include -Ibuild/tests/lib/include \
 *     -Ibuild/tests/lib/include/stridekit bench/copy_threads.c \
 *     build/tests/libstridekit.a -lhwy -lstdc++ -lm -lpthread -o /tmp/ct
 *   /tmp/ct */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stridekit/stridekit.h"
static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
static sk_view V(int nd, const int64_t* shape, const int64_t* strides) {
  sk_view v;
  memset(&v, 0, sizeof v);
  v.ndim = nd;
  for (int i = 0; i < nd; i++) {
    v.shape[i] = shape[i];
    v.strides[i] = strides[i];
  }
  return v;
}
int main() {
  const int64_t n = 4096;
  size_t N = n * n;
  float *a = malloc(N * 4), *b = malloc(N * 4);
  memset(a, 1, N * 4);
  memset(b, 0, N * 4);
  int64_t s2[2] = {n, n}, c2[2] = {n, 1}, t2[2] = {1, n};
  sk_view dst = V(2, s2, c2), src = V(2, s2, t2);
  int64_t s3[3] = {256, 256, 256}, c3[3] = {65536, 256, 1},
          p3[3] = {1, 65536, 256};
  sk_view d3 = V(3, s3, c3), s3v = V(3, s3, p3);
  int64_t s1[1] = {(int64_t)N}, c1[1] = {1};
  sk_view d1 = V(1, s1, c1);
  for (int th = 1; th <= 2; th++) {
    sk_set_threads(th);
    const char* names[3] = {"contig", "transpose2d", "permute3d"};
    for (int c = 0; c < 3; c++) {
      double best = 1e9;
      for (int r = 0; r < 7; r++) {
        double t = Now();
        const sk_status status =
            c == 0   ? sk_copy(SK_FLOAT32, &d1, a, &d1, b, NULL)
            : c == 1 ? sk_copy(SK_FLOAT32, &src, a, &dst, b, NULL)
                     : sk_copy(SK_FLOAT32, &s3v, a, &d3, b, NULL);
        t = Now() - t;
        if (status != SK_OK) {
          fprintf(stderr, "%s: %s\n", names[c], sk_last_error());
          return 1;
        }
        if (t < best) best = t;
      }
      double mc = 1e9;
      for (int r = 0; r < 7; r++) {
        double t = Now();
        memcpy(b, a, N * 4);
        t = Now() - t;
        if (t < mc) mc = t;
      }
      printf("threads=%d %-12s %7.2f ms  memcpy1 %7.2f ms  GB/s %.1f\n", th,
             names[c], best, mc, 2.0 * N * 4 / best / 1e6);
    }
  }
}
