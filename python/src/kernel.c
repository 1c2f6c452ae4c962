/* Kernels as vectorcall objects: a call whose operands are NumPy arrays
 * already of the kernel's dtypes runs here (views built in C, the C ABI
 * called directly or through a cached plan); every other call goes to the
 * pure-Python fallback, which converts, casts and raises NumPy's errors. */
#include "ext.h"

PyObject* skx_resolver; /* module.c: resolver(name, a, b) -> (compute, out) */

const char* skx_c_function(int kind) {
  static const char* names[SK_K_COUNT] = {
      "sk_binary",     "sk_compare", "sk_unary", "sk_where", "sk_reduce",
      "sk_arg_reduce", "sk_scan",    "sk_cast",  "sk_einsum"};
  return kind >= 0 && kind < SK_K_COUNT ? names[kind] : "sk_?";
}

/* a NumPy array (exactly, not a subclass) with an sk_dtype: 1 */
static int array_arg(PyObject* o, PyArrayObject** a, int* t) {
  if (!PyArray_CheckExact(o)) return 0;
  *a = (PyArrayObject*)o;
  *t = skx_dtype_of(PyArray_DESCR(*a));
  return *t >= 0;
}

/* the kernel's dtypes for inputs (ta, tb): 1 and *ct, *ot when the library
 * computes them directly; 0 when the fallback decides; -1 error */
static int resolve(skx_kernel* k, int ta, int tb, int* ct, int* ot) {
  signed char* e = k->table[ta][tb];
  if (e[0] == -1) {
    if (skx_resolver == NULL) return 0;
    PyObject* r = PyObject_CallFunction(skx_resolver, "Oii", k->name, ta, tb);
    if (r == NULL) return -1;
    int c = -2, o = -2;
    if (r != Py_None && !PyArg_ParseTuple(r, "ii", &c, &o)) {
      Py_DECREF(r);
      return -1;
    }
    Py_DECREF(r);
    e[0] = (signed char)c;
    e[1] = (signed char)o;
  }
  if (e[0] < 0) return 0;
  *ct = e[0];
  *ot = e[1];
  return 1;
}

/* keyword slots a kernel reads; any other keyword: fallback */
enum { KW_OUT, KW_AXIS, KW_KEEPDIMS, KW_DTYPE, KW_N };
static const char* kw_names[KW_N] = {"out", "axis", "keepdims", "dtype"};

static int read_keywords(PyObject* const* args, Py_ssize_t nargs,
                         PyObject* kwnames, PyObject** kw) {
  for (int i = 0; i < KW_N; ++i) kw[i] = NULL;
  if (kwnames == NULL) return 1;
  const Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t j = 0; j < n; ++j) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, j);
    int found = 0;
    for (int i = 0; i < KW_N && !found; ++i) {
      if (PyUnicode_CompareWithASCIIString(name, kw_names[i]) == 0) {
        kw[i] = args[nargs + j];
        found = 1;
      }
    }
    if (!found) return 0;
  }
  return 1;
}

/* positional argument i, else keyword slot, else NULL; None reads as NULL */
static PyObject* arg_or_kw(PyObject* const* args, Py_ssize_t nargs,
                           Py_ssize_t i, PyObject* kw) {
  PyObject* o = i < nargs ? args[i] : kw;
  return o == Py_None ? NULL : o;
}

/* normalised axis of an n-d operand into *axis: 1, or 0 (fallback) */
static int one_axis(PyObject* o, int ndim, int32_t* axis) {
  if (!PyLong_CheckExact(o)) return 0;
  const long a = PyLong_AsLong(o);
  if (a == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  if (a < -ndim || a >= ndim) return 0;
  *axis = (int32_t)(a < 0 ? a + ndim : a);
  return 1;
}

static int set_input(skx_call* c, int i, PyArrayObject* a) {
  c->arrays[i] = a;
  c->data[i] = PyArray_DATA(a);
  return skx_view_of(a, &c->in[i]);
}

static void shape_of_input(skx_call* c) {
  c->out_ndim = c->in[0].ndim;
  for (int d = 0; d < c->out_ndim; ++d) c->out_shape[d] = c->in[0].shape[d];
}

/* axis=None of arg and scan: the input as one axis (C-contiguous only) */
static int flatten_input(skx_call* c) {
  sk_view* v = &c->in[0];
  if (v->ndim == 1) return 1;
  if (v->ndim == 0 || !PyArray_IS_C_CONTIGUOUS(c->arrays[0])) return 0;
  const int64_t n = PyArray_SIZE(c->arrays[0]);
  v->ndim = 1;
  v->shape[0] = n;
  v->strides[0] = 1;
  c->flatten = 1;
  return 1;
}

/* checks out= against the resolved call: exact array of out dtype and shape,
 * writeable; 0 sends the call to the fallback (which casts on store) */
static int check_given_out(skx_call* c, PyObject* out) {
  c->given_out = NULL;
  if (out == NULL) return 1;
  PyArrayObject* a;
  int t;
  if (!array_arg(out, &a, &t) || t != c->out_t || !PyArray_ISWRITEABLE(a) ||
      PyArray_NDIM(a) != c->out_ndim)
    return 0;
  for (int d = 0; d < c->out_ndim; ++d)
    if (PyArray_DIM(a, d) != c->out_shape[d]) return 0;
  sk_view ov;
  if (!skx_view_of(a, &ov)) return 0;
  c->given_out = out;
  return 1;
}

static int prepare_elementwise(skx_kernel* k, PyObject* const* args,
                               Py_ssize_t nargs, PyObject** kw, skx_call* c) {
  const int nin = k->kind == SK_K_UNARY ? 1 : k->kind == SK_K_WHERE ? 3 : 2;
  if (nargs != nin && !(nargs == nin + 1 && k->kind != SK_K_WHERE)) return 0;
  PyObject* out = arg_or_kw(args, nargs, nin, kw[KW_OUT]);
  if (kw[KW_AXIS] || kw[KW_KEEPDIMS] || kw[KW_DTYPE]) return 0;
  if (k->kind == SK_K_WHERE && out != NULL) return 0;
  int t[3] = {-1, -1, -1};
  PyArrayObject* a[3];
  for (int i = 0; i < nin; ++i) {
    if (array_arg(args[i], &a[i], &t[i])) {
      if (!set_input(c, i, a[i])) return 0;
    } else if (t[i] >= 0 || nin == 1 || (k->kind == SK_K_WHERE && i == 0)) {
      return 0; /* an array of another dtype; unary and where's condition
                   scalars go to the fallback */
    }
  }
  c->nin = nin;
  const int first = k->kind == SK_K_WHERE ? 1 : 0; /* the value operands */
  int tv = t[first] >= 0 ? t[first] : t[first + 1];
  if (tv < 0) return 0; /* no value array: NumPy's scalar rules */
  for (int i = first; i < nin; ++i) {
    if (t[i] >= 0) continue;
    if (!skx_scalar_as(args[i], tv, c->scalars[i])) return 0;
    t[i] = tv;
    c->arrays[i] = NULL;
    c->data[i] = c->scalars[i];
    c->in[i].ndim = 0;
    c->in[i].has_mask = 0;
    c->in[i].offset = 0;
    c->has_scalar = 1;
  }
  int r;
  if (k->kind == SK_K_WHERE) {
    if (t[0] != SK_BOOL) return 0;
    r = resolve(k, t[1], t[2], &c->in_t, &c->out_t);
    if (r <= 0) return r;
    if (t[1] != c->in_t || t[2] != c->in_t) return 0;
  } else {
    r = resolve(k, t[0], nin == 2 ? t[1] : 0, &c->in_t, &c->out_t);
    if (r <= 0) return r;
    if (t[0] != c->in_t || (nin == 2 && t[1] != c->in_t)) return 0;
  }
  int same = 1; /* equal shapes broadcast to themselves */
  for (int i = 1; i < nin && same; ++i)
    same = c->in[i].ndim == c->in[0].ndim &&
           memcmp(c->in[i].shape, c->in[0].shape,
                  sizeof(int64_t) * c->in[0].ndim) == 0;
  if (same) {
    shape_of_input(c);
  } else {
    int32_t ndims[3];
    const int64_t* shapes[3];
    for (int i = 0; i < nin; ++i) {
      ndims[i] = c->in[i].ndim;
      shapes[i] = c->in[i].shape;
    }
    const int s =
        sk_broadcast_shapes(nin, ndims, shapes, &c->out_ndim, c->out_shape);
    if (s != SK_OK) {
      skx_raise(skx_c_function(k->kind), s);
      return -1;
    }
  }
  c->return_scalar = k->kind != SK_K_WHERE;
  return check_given_out(c, out);
}

/* sum(a, axis, dtype, out, keepdims) and the other reductions: the fast
 * path takes a and axis (positional or keyword) and keepdims; dtype= and
 * out= go to the fallback unless None */
/* The one array input of a reduction, arg-reduction or scan (args[0], of
 * its computation dtype, no dtype=): 1, or 0 for the fallback, -1 on error */
static int prepare_one_input(skx_kernel* k, PyObject* const* args,
                             Py_ssize_t nargs, PyObject** kw, skx_call* c) {
  if (nargs < 1 || nargs > 2) return 0;
  if (kw[KW_DTYPE] != NULL && kw[KW_DTYPE] != Py_None) return 0;
  PyArrayObject* a;
  int t;
  if (!array_arg(args[0], &a, &t) || !set_input(c, 0, a)) return 0;
  c->nin = 1;
  const int r = resolve(k, t, 0, &c->in_t, &c->out_t);
  if (r <= 0) return r;
  return t == c->in_t;
}

static int prepare_reduce(skx_kernel* k, PyObject* const* args,
                          Py_ssize_t nargs, PyObject** kw, skx_call* c) {
  const int r = prepare_one_input(k, args, nargs, kw, c);
  if (r <= 0) return r;
  const int nd = c->in[0].ndim;
  PyObject* axis = arg_or_kw(args, nargs, 1, kw[KW_AXIS]);
  int reduced[SK_MAX_NDIM] = {0};
  c->naxes = 0;
  if (axis == NULL) {
    for (int d = 0; d < nd; ++d) reduced[d] = 1;
  } else if (PyTuple_CheckExact(axis)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(axis); ++i) {
      int32_t ax;
      if (!one_axis(PyTuple_GET_ITEM(axis, i), nd, &ax) || reduced[ax])
        return 0;
      reduced[ax] = 1;
    }
  } else {
    int32_t ax;
    if (!one_axis(axis, nd, &ax)) return 0;
    reduced[ax] = 1;
  }
  PyObject* keep = kw[KW_KEEPDIMS];
  if (keep != NULL && keep != Py_True && keep != Py_False) return 0;
  c->keepdims = keep == Py_True;
  c->out_ndim = 0;
  for (int d = 0; d < nd; ++d) {
    if (reduced[d]) c->axes[c->naxes++] = d;
    if (!reduced[d] || c->keepdims)
      c->out_shape[c->out_ndim++] = reduced[d] ? 1 : c->in[0].shape[d];
  }
  c->return_scalar = 1;
  return check_given_out(c, kw[KW_OUT] == Py_None ? NULL : kw[KW_OUT]);
}

/* argmax(a, axis=None, out=None, keepdims=False), cumsum(a, axis=None,
 * dtype=None, out=None): one axis or the flattened input */
static int prepare_axis(skx_kernel* k, PyObject* const* args, Py_ssize_t nargs,
                        PyObject** kw, skx_call* c) {
  if (k->kind == SK_K_SCAN && kw[KW_KEEPDIMS] != NULL) return 0;
  const int r = prepare_one_input(k, args, nargs, kw, c);
  if (r <= 0) return r;
  PyObject* axis = arg_or_kw(args, nargs, 1, kw[KW_AXIS]);
  if (axis == NULL) {
    if (!flatten_input(c)) return 0;
    c->axis = 0;
  } else if (!one_axis(axis, c->in[0].ndim, &c->axis)) {
    return 0;
  }
  PyObject* keep = kw[KW_KEEPDIMS];
  if (keep != NULL && keep != Py_False) return 0;
  if (k->kind == SK_K_ARG) {
    c->out_ndim = 0;
    for (int d = 0; d < c->in[0].ndim; ++d)
      if (d != c->axis) c->out_shape[c->out_ndim++] = c->in[0].shape[d];
    c->return_scalar = 1;
  } else {
    shape_of_input(c);
  }
  return check_given_out(c, kw[KW_OUT] == Py_None ? NULL : kw[KW_OUT]);
}

/* astype(a, dtype, out=None) */
static int prepare_cast(PyObject* const* args, Py_ssize_t nargs, PyObject** kw,
                        skx_call* c) {
  if (nargs != 2 || kw[KW_AXIS] || kw[KW_KEEPDIMS] || kw[KW_DTYPE]) return 0;
  PyArrayObject* a;
  int t;
  if (!array_arg(args[0], &a, &t) || !set_input(c, 0, a)) return 0;
  c->nin = 1;
  c->in_t = t;
  PyArray_Descr* d = NULL;
  if (PyArray_DescrCheck(args[1])) {
    d = (PyArray_Descr*)args[1];
    Py_INCREF(d);
  } else if (PyType_Check(args[1]) &&
             (d = PyArray_DescrFromTypeObject(args[1])) != NULL) {
    /* np.float64 and the like: no converter */
  } else if (args[1] == Py_None || !PyArray_DescrConverter(args[1], &d)) {
    PyErr_Clear();
    return 0;
  }
  c->out_t = skx_dtype_of(d);
  Py_DECREF(d);
  if (c->out_t < 0) return 0;
  shape_of_input(c);
  return check_given_out(c, kw[KW_OUT] == Py_None ? NULL : kw[KW_OUT]);
}

/* einsum(spec, *operands): operands of one dtype the library computes */
static int prepare_einsum(skx_kernel* k, PyObject* const* args,
                          Py_ssize_t nargs, PyObject** kw, skx_call* c) {
  if (nargs < 2 || nargs > 1 + SK_EXT_MAX_IN || !PyUnicode_CheckExact(args[0]))
    return 0;
  if (kw[KW_OUT] || kw[KW_AXIS] || kw[KW_KEEPDIMS] || kw[KW_DTYPE]) return 0;
  c->spec = PyUnicode_AsUTF8(args[0]);
  if (c->spec == NULL) return -1;
  c->spec_obj = args[0];
  c->nin = (int)nargs - 1;
  int t0 = -1;
  for (int i = 0; i < c->nin; ++i) {
    PyArrayObject* a;
    int t;
    if (!array_arg(args[1 + i], &a, &t) || !set_input(c, i, a)) return 0;
    if (i > 0 && t != t0) return 0;
    t0 = t;
  }
  const int r = resolve(k, t0, t0, &c->in_t, &c->out_t);
  if (r <= 0) return r;
  if (t0 != c->in_t) return 0;
  c->out_ndim = -1; /* skx_finish_shape, unless a cached plan knows it */
  c->return_scalar = 1;
  return 1;
}

int skx_finish_shape(skx_call* c) {
  if (c->out_ndim >= 0) return 1;
  int32_t ndims[SK_EXT_MAX_IN];
  const int64_t* shapes[SK_EXT_MAX_IN];
  for (int i = 0; i < c->nin; ++i) {
    ndims[i] = c->in[i].ndim;
    shapes[i] = c->in[i].shape;
  }
  const int s = sk_einsum_shape(c->spec, c->nin, ndims, shapes, &c->out_ndim,
                                c->out_shape);
  if (s != SK_OK) {
    c->out_ndim = -1;
    skx_raise("sk_einsum_shape", s);
    return 0;
  }
  return 1;
}

int skx_prepare(skx_kernel* k, PyObject* const* args, Py_ssize_t nargs,
                PyObject* kwnames, skx_call* c) {
  PyObject* kw[KW_N];
  if (!read_keywords(args, nargs, kwnames, kw)) return 0;
  c->nin = 0;
  c->has_scalar = 0;
  c->given_out = NULL;
  c->spec = NULL;
  c->spec_obj = NULL;
  c->naxes = 0;
  c->axis = 0;
  c->keepdims = 0;
  c->flatten = 0;
  c->return_scalar = 0;
  switch (k->kind) {
    case SK_K_BINARY:
    case SK_K_COMPARE:
    case SK_K_UNARY:
    case SK_K_WHERE:
      return prepare_elementwise(k, args, nargs, kw, c);
    case SK_K_REDUCE:
      return prepare_reduce(k, args, nargs, kw, c);
    case SK_K_ARG:
    case SK_K_SCAN:
      return prepare_axis(k, args, nargs, kw, c);
    case SK_K_CAST:
      return prepare_cast(args, nargs, kw, c);
    case SK_K_EINSUM:
      return prepare_einsum(k, args, nargs, kw, c);
    default:
      return 0;
  }
}

/* NumPy's order='K' for elementwise results: the axes of the first input
 * of the output's rank, by decreasing |stride| (C order on ties) */
static int k_order(const skx_call* c, int kind, int* perm) {
  if (kind != SK_K_BINARY && kind != SK_K_COMPARE && kind != SK_K_UNARY &&
      kind != SK_K_WHERE && kind != SK_K_CAST)
    return 0;
  const int n = c->out_ndim;
  for (int i = 0; i < c->nin; ++i) {
    const sk_view* v = &c->in[i];
    if (v->ndim != n || n < 2) continue;
    int sorted = 1;
    for (int d = 0; d < n; ++d) perm[d] = d;
    for (int d = 1; d < n; ++d) { /* insertion sort, stable */
      const int a = perm[d];
      const int64_t sa = v->strides[a] < 0 ? -v->strides[a] : v->strides[a];
      int j = d - 1;
      while (j >= 0) {
        const int64_t sb = v->strides[perm[j]] < 0 ? -v->strides[perm[j]]
                                                   : v->strides[perm[j]];
        if (sb >= sa) break;
        perm[j + 1] = perm[j];
        --j;
        sorted = 0;
      }
      perm[j + 1] = a;
    }
    return !sorted;
  }
  return 0;
}

PyArrayObject* skx_output(const skx_call* c, int kind) {
  if (c->given_out != NULL) {
    Py_INCREF(c->given_out);
    return (PyArrayObject*)c->given_out;
  }
  npy_intp dims[SK_MAX_NDIM];
  for (int d = 0; d < c->out_ndim; ++d) dims[d] = (npy_intp)c->out_shape[d];
  int perm[SK_MAX_NDIM];
  if (!k_order(c, kind, perm))
    return (PyArrayObject*)PyArray_SimpleNew(c->out_ndim, dims,
                                             skx_npy_type(c->out_t));
  PyArray_Descr* descr = PyArray_DescrFromType(skx_npy_type(c->out_t));
  if (descr == NULL) return NULL;
  npy_intp strides[SK_MAX_NDIM];
  npy_intp step = descr->elsize;
  for (int j = c->out_ndim - 1; j >= 0; --j) {
    strides[perm[j]] = step;
    step *= dims[perm[j]] > 0 ? dims[perm[j]] : 1;
  }
  return (PyArrayObject*)PyArray_NewFromDescr(&PyArray_Type, descr, c->out_ndim,
                                              dims, strides, NULL, 0, NULL);
}

int skx_run_oneshot(const skx_kernel* k, const skx_call* c, const sk_view* o,
                    void* od) {
  const sk_view* v = c->in;
  const void* const* d = c->data;
  switch (k->kind) {
    case SK_K_BINARY:
      return sk_binary(k->op, c->in_t, &v[0], d[0], &v[1], d[1], o, od);
    case SK_K_COMPARE:
      return sk_compare(k->op, c->in_t, &v[0], d[0], &v[1], d[1], o, od);
    case SK_K_UNARY:
      return sk_unary(k->op, c->in_t, &v[0], d[0], o, od);
    case SK_K_WHERE:
      return sk_where(c->in_t, &v[0], d[0], &v[1], d[1], &v[2], d[2], o, od);
    case SK_K_REDUCE:
      return sk_reduce(k->op, c->in_t, &v[0], d[0], c->naxes, c->axes, o, od);
    case SK_K_ARG:
      return sk_arg_reduce(k->op, c->in_t, &v[0], d[0], c->axis, o, od);
    case SK_K_SCAN:
      return sk_scan(k->op, c->in_t, &v[0], d[0], c->axis, o, od);
    case SK_K_CAST:
      return sk_cast(c->in_t, &v[0], d[0], c->out_t, o, od);
    case SK_K_EINSUM: {
      const sk_view* vs[SK_EXT_MAX_IN] = {&v[0], &v[1], &v[2]};
      return sk_einsum(c->spec, c->in_t, c->nin, vs, d, o, od);
    }
    default:
      return SK_ERR_UNSUPPORTED;
  }
}

int skx_make_plan(const skx_kernel* k, const skx_call* c, const sk_view* o,
                  sk_plan** p) {
  const sk_view* v = c->in;
  switch (k->kind) {
    case SK_K_BINARY:
      return sk_plan_binary(k->op, c->in_t, &v[0], &v[1], o, p);
    case SK_K_COMPARE:
      return sk_plan_compare(k->op, c->in_t, &v[0], &v[1], o, p);
    case SK_K_UNARY:
      return sk_plan_unary(k->op, c->in_t, &v[0], o, p);
    case SK_K_WHERE:
      return sk_plan_where(c->in_t, &v[0], &v[1], &v[2], o, p);
    case SK_K_REDUCE:
      return sk_plan_reduce(k->op, c->in_t, &v[0], c->naxes, c->axes, o, p);
    case SK_K_ARG:
      return sk_plan_arg_reduce(k->op, c->in_t, &v[0], c->axis, o, p);
    case SK_K_SCAN:
      return sk_plan_scan(k->op, c->in_t, &v[0], c->axis, o, p);
    case SK_K_CAST:
      return sk_plan_cast(c->in_t, &v[0], c->out_t, o, p);
    case SK_K_EINSUM: {
      const sk_view* vs[SK_EXT_MAX_IN] = {&v[0], &v[1], &v[2]};
      return sk_plan_einsum(c->spec, c->in_t, c->nin, vs, o, p);
    }
    default:
      return SK_ERR_UNSUPPORTED;
  }
}

/* Calls of at least this many elements release the GIL and skip the plan
 * cache (its plans are shared under the GIL). */
#define SKX_NOGIL_ELEMENTS (1 << 15)

static int64_t call_elements(const skx_call* c) {
  int64_t n = 1;
  for (int d = 0; d < c->out_ndim; ++d) n *= c->out_shape[d];
  for (int i = 0; i < c->nin; ++i) {
    const int64_t m = c->arrays[i] ? PyArray_SIZE(c->arrays[i]) : 1;
    if (m > n) n = m;
  }
  return n;
}

static PyObject* kernel_vectorcall(PyObject* self, PyObject* const* args,
                                   size_t nargsf, PyObject* kwnames) {
  skx_kernel* k = (skx_kernel*)self;
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  skx_call c;
  const int r = skx_prepare(k, args, nargs, kwnames, &c);
  if (r < 0) return NULL;
  if (r == 0) return PyObject_Vectorcall(k->fallback, args, nargsf, kwnames);
  const int nogil = call_elements(&c) >= SKX_NOGIL_ELEMENTS;
  sk_view given;
  if (c.given_out != NULL) skx_view_of((PyArrayObject*)c.given_out, &given);
  skx_key key;
  key.len = 0;
  int seen = 0;
  const sk_plan* plan = NULL;
  if (!nogil) {
    skx_key_of(k, &c, c.given_out ? &given : NULL, &key);
    if (key.len) plan = skx_cache_find(&key, &seen, &c.out_ndim, c.out_shape);
  }
  if (!skx_finish_shape(&c)) return NULL;
  PyArrayObject* out = skx_output(&c, k->kind);
  if (out == NULL) return NULL;
  sk_view ov;
  skx_view_of(out, &ov);
  void* od = PyArray_DATA(out);
  int status;
  if (nogil) {
    Py_BEGIN_ALLOW_THREADS status = skx_run_oneshot(k, &c, &ov, od);
    Py_END_ALLOW_THREADS
  } else if (plan != NULL) {
    status = sk_plan_execute(plan, c.data, od);
  } else {
    status = skx_run_oneshot(k, &c, &ov, od);
    sk_plan* made = NULL;
    if (status == SK_OK && seen && skx_make_plan(k, &c, &ov, &made) == SK_OK)
      skx_cache_put(&key, made, c.out_ndim, c.out_shape);
  }
  if (status != SK_OK) {
    Py_DECREF(out);
    return skx_raise(skx_c_function(k->kind), status);
  }
  if (c.given_out == NULL && c.return_scalar) return PyArray_Return(out);
  return (PyObject*)out;
}

/* Kernel(name, kind, op, fallback): made by the package's __init__ */
static PyObject* kernel_new(PyTypeObject* type, PyObject* args,
                            PyObject* kwds) {
  PyObject *name, *fallback;
  int kind, op;
  if (!PyArg_ParseTuple(args, "UiiO:Kernel", &name, &kind, &op, &fallback))
    return NULL;
  if (kind < 0 || kind >= SK_K_COUNT || !PyCallable_Check(fallback)) {
    PyErr_Format(PyExc_ValueError,
                 "stridekit._ext.Kernel: kind %d (0..%d) or fallback %R "
                 "invalid",
                 kind, SK_K_COUNT - 1, fallback);
    return NULL;
  }
  skx_kernel* k = (skx_kernel*)type->tp_alloc(type, 0);
  if (k == NULL) return NULL;
  k->vectorcall = kernel_vectorcall;
  k->kind = kind;
  k->op = op;
  Py_INCREF(name);
  k->name = name;
  Py_INCREF(fallback);
  k->fallback = fallback;
  k->doc = PyObject_GetAttrString(fallback, "__doc__");
  if (k->doc == NULL) PyErr_Clear();
  memset(k->table, -1, sizeof k->table);
  return (PyObject*)k;
}

static void kernel_dealloc(PyObject* self) {
  skx_kernel* k = (skx_kernel*)self;
  PyObject_GC_UnTrack(self);
  Py_CLEAR(k->name);
  Py_CLEAR(k->fallback);
  Py_CLEAR(k->doc);
  Py_TYPE(self)->tp_free(self);
}

static int kernel_traverse(PyObject* self, visitproc visit, void* arg) {
  skx_kernel* k = (skx_kernel*)self;
  Py_VISIT(k->fallback);
  return 0;
}

static PyObject* kernel_get_name(PyObject* self, void* closure) {
  Py_INCREF(((skx_kernel*)self)->name);
  return ((skx_kernel*)self)->name;
}

static PyObject* kernel_get_doc(PyObject* self, void* closure) {
  PyObject* d = ((skx_kernel*)self)->doc;
  if (d == NULL) d = Py_None;
  Py_INCREF(d);
  return d;
}

static PyObject* kernel_get_module(PyObject* self, void* closure) {
  return PyUnicode_FromString("stridekit");
}

static PyObject* kernel_repr(PyObject* self) {
  return PyUnicode_FromFormat("<stridekit function %U>",
                              ((skx_kernel*)self)->name);
}

static PyObject* kernel_get(PyObject* self, PyObject* obj, PyObject* type) {
  Py_INCREF(self); /* not a method: as a builtin function */
  return self;
}

static PyGetSetDef kernel_getset[] = {
    {"__name__", kernel_get_name, NULL, NULL, NULL},
    {"__qualname__", kernel_get_name, NULL, NULL, NULL},
    {"__doc__", kernel_get_doc, NULL, NULL, NULL},
    {"__module__", kernel_get_module, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef kernel_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(skx_kernel, vectorcall),
     READONLY, NULL},
    {"kind", T_INT, offsetof(skx_kernel, kind), READONLY, NULL},
    {"op", T_INT, offsetof(skx_kernel, op), READONLY, NULL},
    {"fallback", T_OBJECT, offsetof(skx_kernel, fallback), READONLY, NULL},
    /* inspect.signature(stridekit.add) reads the Python function's */
    {"__wrapped__", T_OBJECT, offsetof(skx_kernel, fallback), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

PyTypeObject skx_kernel_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stridekit._ext.Kernel",
    .tp_basicsize = sizeof(skx_kernel),
    .tp_flags =
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = kernel_new,
    .tp_dealloc = kernel_dealloc,
    .tp_traverse = kernel_traverse,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(skx_kernel, vectorcall),
    .tp_repr = kernel_repr,
    .tp_descr_get = kernel_get,
    .tp_getset = kernel_getset,
    .tp_members = kernel_members,
};
