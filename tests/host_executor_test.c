/* stridekit's parallel work on a host's thread pool through
 * sk_set_executor: a real pool from Debian (pthreadpool, built with
 * -DSK_HOST_PTHREADPOOL) or OpenMP (built with -fopenmp). With 4 threads
 * sk_iter_run, sk_copy, sk_binary and sk_reduce must give the bits of the
 * serial run, the host's executor must have been called, errors from parts
 * must come back as statuses, and NULL must restore stridekit's pool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stridekit/stridekit.h"

#if defined(SK_HOST_PTHREADPOOL)
#include <pthreadpool.h>
#define HOST_NAME "pthreadpool"
#elif defined(_OPENMP)
#include <omp.h>
#define HOST_NAME "openmp"
#else
#error "build with -DSK_HOST_PTHREADPOOL or with OpenMP"
#endif

static int failures = 0;
static int checks = 0;
#define CHECK(cond)                                                          \
  do {                                                                       \
    ++checks;                                                                \
    if (!(cond)) {                                                           \
      ++failures;                                                            \
      fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__, \
              __LINE__, #cond, sk_last_error());                             \
    }                                                                        \
  } while (0)

static long host_calls = 0; /* Only written by the calling thread. */

#if defined(SK_HOST_PTHREADPOOL)
struct pool_job {
  sk_part_fn part;
  void* job;
};
static void pool_task(void* context, size_t i) {
  struct pool_job* j = (struct pool_job*)context;
  j->part(j->job, (int64_t)i);
}
static void run_on_host(void* host, int64_t nparts, sk_part_fn part,
                        void* job) {
  struct pool_job j = {part, job};
  ++host_calls;
  pthreadpool_parallelize_1d((pthreadpool_t)host, pool_task, &j, (size_t)nparts,
                             0);
}
#else
static void run_on_host(void* host, int64_t nparts, sk_part_fn part,
                        void* job) {
  int64_t i;
  (void)host;
  ++host_calls;
#pragma omp parallel for schedule(static)
  for (i = 0; i < nparts; ++i) part(job, i);
}
#endif

/* out = a + b over float32 chunks. */
static void add_loop(char* const* p, int64_t n, const int64_t* s, void* ctx) {
  int64_t i;
  (void)ctx;
  for (i = 0; i < n; ++i) {
    float x, y, z;
    memcpy(&x, p[1] + i * s[1], 4);
    memcpy(&y, p[2] + i * s[2], 4);
    z = x + y;
    memcpy(p[0] + i * s[0], &z, 4);
  }
}

static sk_view view2(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  sk_view v;
  memset(&v, 0, sizeof(v));
  v.ndim = 2;
  v.shape[0] = rows, v.shape[1] = cols;
  v.strides[0] = s0, v.strides[1] = s1;
  return v;
}

enum { ROWS = 517, COLS = 1031, N = ROWS * COLS };

/* Runs every kernel into results[0..3]; returns 0 when all succeeded. */
static int run_all(const float* a, const float* b, float* results[4]) {
  const sk_view full = view2(ROWS, COLS, COLS, 1);
  const sk_view at = view2(ROWS, COLS, 1, ROWS); /* a.T as [ROWS, COLS] */
  sk_view row = full;
  const sk_view* views[3];
  size_t sizes[3] = {4, 4, 4};
  void* datas[3];
  int32_t axis0 = 0;
  int bad = 0;
  row.ndim = 1;
  row.shape[0] = COLS;
  row.strides[0] = 1;
  views[0] = &full, views[1] = &at, views[2] = &row;
  datas[0] = results[0], datas[1] = (void*)a, datas[2] = (void*)b;
  bad |= sk_iter_run(3, views, sizes, datas, 0, add_loop, NULL) != SK_OK;
  bad |= sk_copy(SK_FLOAT32, &at, a, &full, results[1], NULL) != SK_OK;
  bad |= sk_binary(SK_MUL, SK_FLOAT32, &full, a, &row, b, &full, results[2]) !=
         SK_OK;
  bad |= sk_reduce(SK_SUM, SK_FLOAT32, &full, a, 1, &axis0, &row, results[3]) !=
         SK_OK;
  return bad;
}

int main(void) {
  float* a = (float*)malloc(sizeof(float) * N);
  float* b = (float*)malloc(sizeof(float) * COLS);
  float* serial[4];
  float* pooled[4];
  int k;
  int64_t i;
  void* host = NULL;
  for (i = 0; i < N; ++i) a[i] = (float)(i % 977) * 0.125f - 3.0f;
  for (i = 0; i < COLS; ++i) b[i] = 1.0f / (float)(i + 1);
  for (k = 0; k < 4; ++k) {
    serial[k] = (float*)calloc(N, sizeof(float));
    pooled[k] = (float*)calloc(N, sizeof(float));
  }

  CHECK(sk_set_threads(1) == SK_OK);
  CHECK(run_all(a, b, serial) == 0);

#if defined(SK_HOST_PTHREADPOOL)
  host = pthreadpool_create(4);
  CHECK(host != NULL);
#endif
  CHECK(sk_set_executor(run_on_host, host) == SK_OK);
  CHECK(sk_set_threads(4) == SK_OK);
  CHECK(sk_get_threads() == 4);
  CHECK(run_all(a, b, pooled) == 0);
  CHECK(host_calls > 0);
  for (k = 0; k < 4; ++k) {
    CHECK(memcmp(serial[k], pooled[k], sizeof(float) * N) == 0);
  }
  CHECK(serial[0][1] == a[ROWS] + b[1]); /* out[0][1] = a.T[0][1] + b[1] */

  /* An error inside the parallel work comes back as a status. */
  {
    int32_t zero[4] = {0, 0, 0, 0}, num[4] = {1, 2, 3, 4}, out[4];
    sk_view v;
    memset(&v, 0, sizeof(v));
    v.ndim = 1, v.shape[0] = 4, v.strides[0] = 1;
    CHECK(sk_binary(SK_DIV, SK_INT32, &v, num, &v, zero, &v, out) ==
          SK_ERR_INVALID);
  }

  /* NULL restores stridekit's pool: the host is not called again. */
  {
    const long calls = host_calls;
    CHECK(sk_set_executor(NULL, NULL) == SK_OK);
    memset(pooled[0], 0, sizeof(float) * N);
    CHECK(run_all(a, b, pooled) == 0);
    CHECK(host_calls == calls);
    CHECK(memcmp(serial[0], pooled[0], sizeof(float) * N) == 0);
  }
  CHECK(sk_set_threads(1) == SK_OK);

#if defined(SK_HOST_PTHREADPOOL)
  pthreadpool_destroy((pthreadpool_t)host);
#endif
  for (k = 0; k < 4; ++k) {
    free(serial[k]);
    free(pooled[k]);
  }
  free(a);
  free(b);
  printf("%s: %d checks, %d failed (%ld host calls)\n", HOST_NAME, checks,
         failures, host_calls);
  return failures == 0 ? 0 : 1;
}
