/* Kernel time of one build of the library, for comparing two builds of it
 * (bench/opt_level.sh: for instance the simd layer at -O2 against -O3).
 * Prints, per case, the median of 31 timed calls in microseconds, on one
 * thread: float arrays of 256 KiB per operand (L2), a 512 x 512 transpose
 * and matmul, and 16384 rows of 16 elements (per-row costs).
 *
 *   opt_level */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stridekit/stridekit.h"

enum { kCount = 65536, kTurns = 31 };

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int Less(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static void Check(sk_status s) {
  if (s != SK_OK) {
    fprintf(stderr, "call failed: %s\n", sk_last_error());
    exit(1);
  }
}

static sk_view Vector(int64_t n) {
  sk_view v;
  memset(&v, 0, sizeof(v));
  v.ndim = 1;
  v.shape[0] = n;
  v.strides[0] = 1;
  return v;
}

static sk_view Square(int64_t e, int transposed) {
  sk_view v;
  memset(&v, 0, sizeof(v));
  v.ndim = 2;
  v.shape[0] = v.shape[1] = e;
  v.strides[0] = transposed ? 1 : e;
  v.strides[1] = transposed ? e : 1;
  return v;
}

static float* fa;
static float* fb;
static float* fo;
static double* da;
static double* dout;

static void Run(int which) {
  const sk_view f = Vector(kCount), d = Vector(kCount / 2);
  const sk_view sq = Square(512, 0), sqt = Square(512, 1);
  sk_view none;
  memset(&none, 0, sizeof(none));
  const int32_t axis0[1] = {0}, axis1[1] = {1};
  sk_view rows;  // [16384, 16]: short rows reduced one by one
  memset(&rows, 0, sizeof(rows));
  rows.ndim = 2;
  rows.shape[0] = kCount / 16;
  rows.shape[1] = 16;
  rows.strides[0] = 16;
  rows.strides[1] = 1;
  const sk_view row_sums = Vector(kCount / 16);
  sk_view column = rows;  // [16384, 1] broadcast along the rows
  column.shape[1] = 1;
  column.strides[1] = 0;
  const sk_view* mm[2] = {&sq, &sq};
  const void* mm_data[2] = {fa, fb};
  switch (which) {
    case 0:
      Check(sk_binary(SK_ADD, SK_FLOAT32, &f, fa, &f, fb, &f, fo));
      break;
    case 1:
      Check(sk_unary(SK_EXP, SK_FLOAT32, &f, fa, &f, fo));
      break;
    case 2:
      Check(sk_unary(SK_SIN, SK_FLOAT32, &f, fa, &f, fo));
      break;
    case 3:
      Check(sk_unary(SK_LOG, SK_FLOAT64, &d, da, &d, dout));
      break;
    case 4:
      Check(sk_unary(SK_TANH, SK_FLOAT64, &d, da, &d, dout));
      break;
    case 5:
      Check(sk_reduce(SK_SUM, SK_FLOAT32, &f, fa, 1, axis0, &none, fo));
      break;
    case 6:
      Check(sk_scan(SK_CUMSUM, SK_FLOAT32, &f, fa, 0, &f, fo));
      break;
    case 7:
      Check(sk_compare(SK_GT, SK_FLOAT32, &f, fa, &f, fb, &f, fo));
      break;
    case 8:
      Check(sk_cast(SK_FLOAT32, &f, fa, SK_FLOAT64, &f, dout));
      break;
    case 9:
      Check(sk_copy(SK_FLOAT32, &sqt, fa, &sq, fo, NULL));
      break;
    case 10:
      Check(sk_binary(SK_MUL, SK_FLOAT32, &sqt, fa, &sq, fb, &sq, fo));
      break;
    case 11:
      Check(sk_einsum("ij,jk->ik", SK_FLOAT32, 2, mm, mm_data, &sq, fo));
      break;
    case 12:
      Check(sk_reduce(SK_SUM, SK_FLOAT32, &rows, fa, 1, axis1, &row_sums, fo));
      break;
    case 13:
      Check(sk_binary(SK_ADD, SK_FLOAT32, &rows, fa, &column, fb, &rows, fo));
      break;
    case 14:
      Check(sk_binary(SK_ADD, SK_UINT8, &rows, fa, &column, fb, &rows, fo));
      break;
    case 15:
      Check(sk_scan(SK_CUMSUM, SK_FLOAT32, &rows, fa, 1, &rows, fo));
      break;
  }
}

int main(void) {
  static const char* names[] = {"add f32",           "exp f32",
                                "sin f32",           "log f64",
                                "tanh f64",          "sum f32",
                                "cumsum f32",        "greater f32",
                                "cast f32>f64",      "transpose 512^2",
                                "mul a.T*b 512^2",   "matmul 512^2",
                                "sum rows of 16",    "add f32 rows of 16",
                                "add u8 rows of 16", "cumsum rows of 16"};
  const int cases = (int)(sizeof(names) / sizeof(names[0]));
  const size_t n = 512 * 512;
  fa = malloc(n * sizeof(float));
  fb = malloc(n * sizeof(float));
  fo = malloc(n * sizeof(double));
  da = malloc(n * sizeof(double));
  dout = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; ++i) {
    fa[i] = (float)((double)(i % 1000) * 0.01 + 0.5);
    fb[i] = (float)((double)(i % 777) * 0.02 - 3.0);
    da[i] = (double)(i % 1000) * 0.013 + 0.25;
  }
  for (int c = 0; c < cases; ++c) {
    double t[kTurns];
    Run(c);
    for (int k = 0; k < kTurns; ++k) {
      const double start = Now();
      Run(c);
      t[k] = Now() - start;
    }
    qsort(t, kTurns, sizeof(double), Less);
    printf("%-18s %10.2f\n", names[c], t[kTurns / 2]);
  }
  return 0;
}
