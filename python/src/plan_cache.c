/* Plans of layouts that repeat: a direct-mapped table of keys (kernel,
 * dtypes, parameters, every operand's shape and strides). A key's first
 * call runs one-shot and is remembered; its second makes the plan, which
 * later calls execute (a plan costs several one-shot calls to make). */
#include "ext.h"

#define SKX_CACHE_SLOTS 256

typedef struct {
  uint64_t hash;
  int32_t len;
  int64_t* words; /* malloc'ed copy of the key, NULL: empty slot */
  sk_plan* plan;  /* NULL: seen once */
  int32_t out_ndim;
  int64_t* out_shape; /* in words, after the key */
} entry;

static entry cache[SKX_CACHE_SLOTS];

/* words of the largest key: every operand of SK_MAX_NDIM axes and a spec
 * of 64 bytes; longer specs are not cached */
#define SKX_FIXED_WORDS 16
_Static_assert(SKX_FIXED_WORDS + SK_MAX_NDIM + 9 +
                       (SK_EXT_MAX_IN + 1) * (1 + 2 * SK_MAX_NDIM) <=
                   SKX_KEY_WORDS,
               "skx_key holds every key");

static inline void push(skx_key* key, int64_t w) { key->words[key->len++] = w; }

static void push_view(skx_key* key, const sk_view* v) {
  push(key, v->ndim);
  for (int d = 0; d < v->ndim; ++d) {
    push(key, v->shape[d]);
    push(key, v->strides[d]);
  }
}

void skx_key_of(const skx_kernel* k, const skx_call* c, const sk_view* out,
                skx_key* key) {
  key->len = 0;
  push(key, k->kind);
  push(key, k->op);
  push(key, c->in_t);
  push(key, c->out_t);
  push(key, c->nin);
  push(key, c->axis);
  push(key, c->naxes);
  for (int i = 0; i < c->naxes; ++i) push(key, c->axes[i]);
  push(key, c->keepdims);
  if (c->spec != NULL) {
    const size_t n = strlen(c->spec);
    if (n > 8 * (SKX_FIXED_WORDS - 1)) {
      key->len = 0;
      return;
    }
    push(key, (int64_t)n);
    for (size_t i = 0; i < n; i += 8) {
      int64_t w = 0;
      memcpy(&w, c->spec + i, n - i < 8 ? n - i : 8);
      push(key, w);
    }
  }
  for (int i = 0; i < c->nin; ++i) push_view(key, &c->in[i]);
  if (out != NULL) {
    push(key, 1);
    push_view(key, out);
  } else {
    push(key, 0);
  }
  uint64_t h = 1469598103934665603ull; /* FNV-1a over the words */
  for (int32_t i = 0; i < key->len; ++i) {
    h ^= (uint64_t)key->words[i];
    h *= 1099511628211ull;
  }
  key->hash = h ^ (h >> 29);
}

const sk_plan* skx_cache_find(const skx_key* key, int* seen, int32_t* out_ndim,
                              int64_t* out_shape) {
  entry* e = &cache[key->hash % SKX_CACHE_SLOTS];
  *seen = 0;
  if (e->words != NULL && e->hash == key->hash && e->len == key->len &&
      memcmp(e->words, key->words, sizeof(int64_t) * key->len) == 0) {
    if (e->plan != NULL) {
      *out_ndim = e->out_ndim;
      memcpy(out_shape, e->out_shape, sizeof(int64_t) * e->out_ndim);
      return e->plan;
    }
    *seen = 1;
    return NULL;
  }
  int64_t* words = malloc(sizeof(int64_t) * (key->len + SK_MAX_NDIM));
  if (words == NULL) return NULL;
  memcpy(words, key->words, sizeof(int64_t) * key->len);
  sk_plan_free(e->plan);
  free(e->words);
  e->hash = key->hash;
  e->len = key->len;
  e->words = words;
  e->out_shape = words + key->len;
  e->plan = NULL;
  return NULL;
}

void skx_cache_put(const skx_key* key, sk_plan* plan, int32_t out_ndim,
                   const int64_t* out_shape) {
  entry* e = &cache[key->hash % SKX_CACHE_SLOTS];
  if (e->words == NULL || e->hash != key->hash || e->len != key->len ||
      memcmp(e->words, key->words, sizeof(int64_t) * key->len) != 0) {
    sk_plan_free(plan);
    return;
  }
  sk_plan_free(e->plan);
  e->plan = plan;
  e->out_ndim = out_ndim;
  memcpy(e->out_shape, out_shape, sizeof(int64_t) * out_ndim);
}

void skx_cache_clear(void) {
  for (int i = 0; i < SKX_CACHE_SLOTS; ++i) {
    sk_plan_free(cache[i].plan);
    free(cache[i].words);
    cache[i].plan = NULL;
    cache[i].words = NULL;
  }
}
