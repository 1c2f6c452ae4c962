/* The stridekit._ext extension module: NumPy arrays to sk_view structs in C
 * (convert.c), kernels as vectorcall objects (kernel.c), prepared plans
 * (plan.c), a per-process cache of plans for repeated layouts
 * (plan_cache.c) and the C ABI as plain functions for the package's Python
 * code (capi.c). Every file includes this header first; module.c owns
 * NumPy's API table. */
#ifndef STRIDEKIT_PYTHON_EXT_H_
#define STRIDEKIT_PYTHON_EXT_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
/* system headers after Python.h, which sets the feature macros */
#include <float.h>
#include <math.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL stridekit_ext_ARRAY_API
#ifndef SK_EXT_MODULE
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "stridekit/stridekit.h"

/* Kinds of kernel, one per sk_ kernel family of the C ABI. */
enum sk_kind {
  SK_K_BINARY,
  SK_K_COMPARE,
  SK_K_UNARY,
  SK_K_WHERE,
  SK_K_REDUCE,
  SK_K_ARG,
  SK_K_SCAN,
  SK_K_CAST,
  SK_K_EINSUM,
  SK_K_COUNT
};
#define SK_NDTYPES 15
#define SK_EXT_MAX_IN 3 /* inputs a fast call takes (einsum: operands) */

/* ---- convert.c: NumPy dtypes and arrays as the C ABI's */
/* sk_dtype of a native-byte-order NumPy dtype, -1 when it has none */
int skx_dtype_of(const PyArray_Descr* d);
/* NumPy type number of an sk_dtype, -1 for bfloat16 */
int skx_npy_type(int sk_dtype);
/* v = the view of a (offset 0 at PyArray_DATA); 0 when a byte stride is not
 * a multiple of the item size or a is misaligned (the fast path declines) */
int skx_view_of(PyArrayObject* a, sk_view* v);
/* a Python bool, int or float as NumPy 1.x's value-based casting makes it
 * against an array of sk_dtype t: 1 and *buf (16 bytes) when it takes t
 * (float16 excepted), 0 when NumPy would promote (the fallback decides) */
int skx_scalar_as(PyObject* o, int t, void* buf);
/* raises stridekit.StridekitError(function, status, sk_last_error()); NULL */
PyObject* skx_raise(const char* function, int status);

/* ---- kernel.c */
/* One fully resolved call: input views and data, dtypes, output. */
typedef struct {
  int nin;
  sk_view in[SK_EXT_MAX_IN];
  const void* data[SK_EXT_MAX_IN];
  PyArrayObject* arrays[SK_EXT_MAX_IN]; /* borrowed; NULL for a scalar */
  int64_t scalars[SK_EXT_MAX_IN][2];    /* Python scalars' values */
  int has_scalar;
  int in_t; /* compute dtype (where: of a, b) */
  int out_t;
  int32_t naxes; /* reduce */
  int32_t axes[SK_MAX_NDIM];
  int32_t axis;        /* arg, scan */
  const char* spec;    /* einsum, owned by spec_obj */
  PyObject* spec_obj;  /* borrowed */
  PyObject* given_out; /* borrowed, NULL for a new array */
  int keepdims;
  int flatten; /* axis=None of arg/scan on an n-d input */
  int32_t out_ndim;
  int64_t out_shape[SK_MAX_NDIM];
  int return_scalar; /* a 0-d new result is returned as a NumPy scalar */
} skx_call;

typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
  int kind;
  int op;
  PyObject* name;     /* "add" */
  PyObject* fallback; /* the pure-Python function: every other case */
  PyObject* doc;
  /* resolved dtypes per input dtypes: [a][b] = {compute, out}; -1 not asked
   * yet, -2 no fast path (the fallback decides) */
  signed char table[SK_NDTYPES][SK_NDTYPES][2];
} skx_kernel;

extern PyTypeObject skx_kernel_type;
/* 1: *c is a call the fast path runs; 0: the fallback must; -1: error */
int skx_prepare(skx_kernel* k, PyObject* const* args, Py_ssize_t nargs,
                PyObject* kwnames, skx_call* c);
/* computes c's output shape when skx_prepare left it (einsum: out_ndim
 * -1); 0 with an exception on failure */
int skx_finish_shape(skx_call* c);
/* the one-shot C ABI call of c into out (data) */
int skx_run_oneshot(const skx_kernel* k, const skx_call* c, const sk_view* out,
                    void* out_data);
/* sk_plan_<kernel> of c's layouts */
int skx_make_plan(const skx_kernel* k, const skx_call* c, const sk_view* out,
                  sk_plan** plan);
/* the output array of c: given_out (new reference) or a new array, in the
 * inputs' memory order for elementwise kinds (NumPy's order='K') */
PyArrayObject* skx_output(const skx_call* c, int kind);
const char* skx_c_function(int kind); /* "sk_binary", ... */

/* ---- plan_cache.c: plans of layouts that repeat (the GIL guards it) */
#define SKX_KEY_WORDS 512
typedef struct {
  uint64_t hash;
  int32_t len; /* 0: c cannot be keyed (the call runs one-shot) */
  int64_t words[SKX_KEY_WORDS];
} skx_key;
/* the key of c's kernel, dtypes, parameters and layouts (out: the given
 * out's, or none for a new array) */
void skx_key_of(const skx_kernel* k, const skx_call* c, const sk_view* out,
                skx_key* key);
/* the cached plan of key (and its output shape), or NULL; *seen = 1 when
 * key came before without a plan (making one is worth it), else it is
 * recorded as seen */
const sk_plan* skx_cache_find(const skx_key* key, int* seen, int32_t* out_ndim,
                              int64_t* out_shape);
/* the cache owns plan (of output shape out_shape) from now */
void skx_cache_put(const skx_key* key, sk_plan* plan, int32_t out_ndim,
                   const int64_t* out_shape);
void skx_cache_clear(void);

/* ---- capi.c: the C ABI as module functions for the Python code */
extern PyMethodDef skx_capi_methods[];

/* ---- plan.c: stridekit.plan(...) objects */
extern PyTypeObject skx_plan_type;
PyObject* skx_plan_new(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames);

#endif /* STRIDEKIT_PYTHON_EXT_H_ */
