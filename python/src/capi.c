/* The C ABI for the package's Python code (views, and the calls the
 * kernels' fast path leaves to Python): one module function per sk_
 * function, views passed as bytes objects holding an sk_view, data as
 * integer addresses. A failed call raises StridekitError. */
#include "ext.h"

/* ---- arguments */

static int view_arg(PyObject* o, const sk_view** v) {
  if (!PyBytes_CheckExact(o) || PyBytes_GET_SIZE(o) != sizeof(sk_view)) {
    PyErr_Format(PyExc_TypeError,
                 "stridekit._ext: a view must be bytes of sizeof(sk_view), "
                 "got %.100s",
                 Py_TYPE(o)->tp_name);
    return 0;
  }
  *v = (const sk_view*)PyBytes_AS_STRING(o);
  return 1;
}

static PyObject* view_result(const sk_view* v) {
  return PyBytes_FromStringAndSize((const char*)v, sizeof(sk_view));
}

/* a sequence of at most SK_MAX_NDIM integers into out[]; -1 on error */
static int ints_arg(PyObject* seq, int64_t* out) {
  PyObject* fast = PySequence_Fast(seq, "stridekit._ext: expected a sequence");
  if (fast == NULL) return -1;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > SK_MAX_NDIM) {
    Py_DECREF(fast);
    PyErr_Format(PyExc_ValueError, "stridekit: %zd entries, at most %d axes", n,
                 SK_MAX_NDIM);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
    if (out[i] == -1 && PyErr_Occurred()) {
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast);
  return (int)n;
}

static int ints32_arg(PyObject* seq, int32_t* out) {
  int64_t wide[SK_MAX_NDIM];
  const int n = ints_arg(seq, wide);
  for (int i = 0; i < n; ++i) {
    if (wide[i] < INT32_MIN || wide[i] > INT32_MAX) {
      PyErr_Format(PyExc_ValueError, "stridekit: axis %lld out of range",
                   (long long)wide[i]);
      return -1;
    }
    out[i] = (int32_t)wide[i];
  }
  return n;
}

static PyObject* ints_result(int n, const int64_t* v) {
  PyObject* t = PyTuple_New(n);
  for (int i = 0; t != NULL && i < n; ++i) {
    PyObject* x = PyLong_FromLongLong(v[i]);
    if (x == NULL) {
      Py_CLEAR(t);
      break;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

static PyObject* status_result(const char* function, int status) {
  if (status != SK_OK) return skx_raise(function, status);
  Py_RETURN_NONE;
}

#define PTR(x) ((void*)(uintptr_t)(x))

/* ---- views */

static PyObject* view_make(PyObject* self, PyObject* args) {
  PyObject *shape_o, *strides_o;
  long long offset;
  if (!PyArg_ParseTuple(args, "OOL:view_make", &shape_o, &strides_o, &offset))
    return NULL;
  int64_t shape[SK_MAX_NDIM], strides[SK_MAX_NDIM];
  const int n = ints_arg(shape_o, shape);
  if (n < 0) return NULL;
  if (strides_o != Py_None && ints_arg(strides_o, strides) != n)
    return PyErr_Occurred() ? NULL
                            : PyErr_Format(PyExc_ValueError,
                                           "stridekit: %d shape entries but "
                                           "another number of strides",
                                           n);
  sk_view out;
  const int s = sk_view_make(n, shape, strides_o == Py_None ? NULL : strides,
                             offset, &out);
  return s == SK_OK ? view_result(&out) : skx_raise("sk_view_make", s);
}

/* view_op(name, v, *args): the sk_view_<name> functions */
static PyObject* view_op(PyObject* self, PyObject* args) {
  const char* name;
  PyObject *vo, *x = Py_None, *y = Py_None;
  if (!PyArg_ParseTuple(args, "sO|OO:view_op", &name, &vo, &x, &y)) return NULL;
  const sk_view* v;
  if (!view_arg(vo, &v)) return NULL;
  sk_view out;
  int64_t a[SK_MAX_NDIM], b[SK_MAX_NDIM];
  int32_t i[SK_MAX_NDIM], j[SK_MAX_NDIM];
  int s, n;
  char fn[64];
  snprintf(fn, sizeof fn, "sk_view_%s", name);
  if (!strcmp(name, "reshape") || !strcmp(name, "expand")) {
    if ((n = ints_arg(x, a)) < 0) return NULL;
    s = name[0] == 'r' ? sk_view_reshape(v, n, a, &out)
                       : sk_view_expand(v, n, a, &out);
  } else if (!strcmp(name, "permute")) {
    if ((n = ints32_arg(x, i)) < 0) return NULL;
    if (n != v->ndim)
      return PyErr_Format(PyExc_ValueError,
                          "stridekit: permute of a %d-d view needs %d axes, "
                          "got %d",
                          v->ndim, v->ndim, n);
    s = sk_view_permute(v, i, &out);
  } else if (!strcmp(name, "shrink") || !strcmp(name, "pad")) {
    if ((n = ints_arg(x, a)) < 0 || ints_arg(y, b) != n) return NULL;
    if (n != v->ndim)
      return PyErr_Format(PyExc_ValueError,
                          "stridekit: %s of a %d-d view needs %d entries, "
                          "got %d",
                          name, v->ndim, v->ndim, n);
    s = name[0] == 's' ? sk_view_shrink(v, a, b, &out)
                       : sk_view_pad(v, a, b, &out);
  } else if (!strcmp(name, "flip")) {
    const long axis = PyLong_AsLong(x);
    if (axis == -1 && PyErr_Occurred()) return NULL;
    s = sk_view_flip(v, (int32_t)axis, &out);
  } else if (!strcmp(name, "slice")) {
    const char* spec = PyUnicode_AsUTF8(x);
    if (spec == NULL) return NULL;
    s = sk_view_slice(v, spec, &out);
  } else if (!strcmp(name, "squeeze")) {
    n = x == Py_None ? -1 : ints32_arg(x, i);
    if (n < 0 && PyErr_Occurred()) return NULL;
    s = sk_view_squeeze(v, n, n < 0 ? NULL : i, &out);
  } else if (!strcmp(name, "unsqueeze")) {
    if ((n = ints32_arg(x, i)) < 0) return NULL;
    s = sk_view_unsqueeze(v, n, i, &out);
  } else if (!strcmp(name, "swapaxes")) {
    const long a1 = PyLong_AsLong(x), a2 = PyLong_AsLong(y);
    if (PyErr_Occurred()) return NULL;
    s = sk_view_swapaxes(v, (int32_t)a1, (int32_t)a2, &out);
  } else if (!strcmp(name, "moveaxis")) {
    if ((n = ints32_arg(x, i)) < 0 || ints32_arg(y, j) < 0) return NULL;
    s = sk_view_moveaxis(v, n, i, j, &out);
  } else {
    return PyErr_Format(PyExc_ValueError, "stridekit._ext.view_op: no %s",
                        name);
  }
  return s == SK_OK ? view_result(&out) : skx_raise(fn, s);
}

static PyObject* view_flags(PyObject* self, PyObject* vo) {
  const sk_view* v;
  if (!view_arg(vo, &v)) return NULL;
  return PyLong_FromUnsignedLong(sk_view_flags(v));
}

/* (ndim, offset, shape, strides, mask: ((begin, end), ...) or None) */
static PyObject* view_info(PyObject* self, PyObject* vo) {
  const sk_view* v;
  if (!view_arg(vo, &v)) return NULL;
  const int n = v->ndim < 0 || v->ndim > SK_MAX_NDIM ? 0 : v->ndim;
  PyObject* mask = Py_None;
  Py_INCREF(mask);
  if (v->has_mask) {
    Py_DECREF(mask);
    mask = PyTuple_New(n);
    for (int d = 0; mask != NULL && d < n; ++d)
      PyTuple_SET_ITEM(mask, d,
                       Py_BuildValue("(LL)", (long long)v->mask_begin[d],
                                     (long long)v->mask_end[d]));
  }
  return Py_BuildValue("(iLNNN)", n, (long long)v->offset,
                       ints_result(n, v->shape), ints_result(n, v->strides),
                       mask);
}

/* (view, sk_dtype, data address) of a DLPack capsule's tensor */
static PyObject* view_from_dlpack(PyObject* self, PyObject* capsule) {
  void* t = PyCapsule_GetPointer(capsule, "dltensor");
  if (t == NULL) return NULL;
  sk_view out;
  sk_dtype dtype;
  void* data;
  const int s = sk_view_from_dlpack((const sk_dltensor*)t, &out, &dtype, &data);
  if (s != SK_OK) return skx_raise("sk_view_from_dlpack", s);
  return Py_BuildValue("(NiK)", view_result(&out), (int)dtype,
                       (unsigned long long)(uintptr_t)data);
}

static PyObject* broadcast_shapes(PyObject* self, PyObject* shapes_o) {
  int64_t shapes[SK_MAX_NDIM][SK_MAX_NDIM];
  const int64_t* ptrs[SK_MAX_NDIM];
  int32_t ndims[SK_MAX_NDIM];
  PyObject* fast = PySequence_Fast(shapes_o, "broadcast_shapes: shapes");
  if (fast == NULL) return NULL;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > SK_MAX_NDIM) {
    Py_DECREF(fast);
    return PyErr_Format(PyExc_ValueError, "stridekit: at most %d operands",
                        SK_MAX_NDIM);
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    ndims[i] = ints_arg(PySequence_Fast_GET_ITEM(fast, i), shapes[i]);
    ptrs[i] = shapes[i];
    if (ndims[i] < 0) {
      Py_DECREF(fast);
      return NULL;
    }
  }
  Py_DECREF(fast);
  int32_t out_ndim;
  int64_t out[SK_MAX_NDIM];
  const int s = sk_broadcast_shapes((int32_t)n, ndims, ptrs, &out_ndim, out);
  return s == SK_OK ? ints_result(out_ndim, out)
                    : skx_raise("sk_broadcast_shapes", s);
}

/* ---- kernels: (..., view, address, ...) as the sk_ function */

static PyObject* copy(PyObject* self, PyObject* args) {
  int t;
  PyObject *a, *o;
  unsigned long long ap, op, fill;
  if (!PyArg_ParseTuple(args, "iOKOKK:copy", &t, &a, &ap, &o, &op, &fill))
    return NULL;
  const sk_view *va, *vo;
  if (!view_arg(a, &va) || !view_arg(o, &vo)) return NULL;
  return status_result("sk_copy",
                       sk_copy(t, va, PTR(ap), vo, PTR(op), PTR(fill)));
}

static PyObject* fill(PyObject* self, PyObject* args) {
  int t;
  PyObject* o;
  unsigned long long op, value;
  if (!PyArg_ParseTuple(args, "iOKK:fill", &t, &o, &op, &value)) return NULL;
  const sk_view* vo;
  if (!view_arg(o, &vo)) return NULL;
  return status_result("sk_fill", sk_fill(t, vo, PTR(op), PTR(value)));
}

static PyObject* cast(PyObject* self, PyObject* args) {
  int st, dt;
  PyObject *a, *o;
  unsigned long long ap, op;
  if (!PyArg_ParseTuple(args, "iOKiOK:cast", &st, &a, &ap, &dt, &o, &op))
    return NULL;
  const sk_view *va, *vo;
  if (!view_arg(a, &va) || !view_arg(o, &vo)) return NULL;
  return status_result("sk_cast", sk_cast(st, va, PTR(ap), dt, vo, PTR(op)));
}

/* binary and compare: (op, t, a, ap, b, bp, out, outp) */
static PyObject* two_inputs(PyObject* args, int compare) {
  int code, t;
  PyObject *a, *b, *o;
  unsigned long long ap, bp, op;
  if (!PyArg_ParseTuple(args, "iiOKOKOK", &code, &t, &a, &ap, &b, &bp, &o, &op))
    return NULL;
  const sk_view *va, *vb, *vo;
  if (!view_arg(a, &va) || !view_arg(b, &vb) || !view_arg(o, &vo)) return NULL;
  if (compare)
    return status_result("sk_compare", sk_compare(code, t, va, PTR(ap), vb,
                                                  PTR(bp), vo, PTR(op)));
  return status_result(
      "sk_binary", sk_binary(code, t, va, PTR(ap), vb, PTR(bp), vo, PTR(op)));
}

static PyObject* binary(PyObject* self, PyObject* args) {
  return two_inputs(args, 0);
}

static PyObject* compare(PyObject* self, PyObject* args) {
  return two_inputs(args, 1);
}

static PyObject* unary(PyObject* self, PyObject* args) {
  int code, t;
  PyObject *a, *o;
  unsigned long long ap, op;
  if (!PyArg_ParseTuple(args, "iiOKOK:unary", &code, &t, &a, &ap, &o, &op))
    return NULL;
  const sk_view *va, *vo;
  if (!view_arg(a, &va) || !view_arg(o, &vo)) return NULL;
  return status_result("sk_unary", sk_unary(code, t, va, PTR(ap), vo, PTR(op)));
}

static PyObject* where(PyObject* self, PyObject* args) {
  int t;
  PyObject *c, *a, *b, *o;
  unsigned long long cp, ap, bp, op;
  if (!PyArg_ParseTuple(args, "iOKOKOKOK:where", &t, &c, &cp, &a, &ap, &b, &bp,
                        &o, &op))
    return NULL;
  const sk_view *vc, *va, *vb, *vo;
  if (!view_arg(c, &vc) || !view_arg(a, &va) || !view_arg(b, &vb) ||
      !view_arg(o, &vo))
    return NULL;
  return status_result("sk_where", sk_where(t, vc, PTR(cp), va, PTR(ap), vb,
                                            PTR(bp), vo, PTR(op)));
}

static PyObject* reduce(PyObject* self, PyObject* args) {
  int code, t;
  PyObject *a, *axes_o, *o;
  unsigned long long ap, op;
  if (!PyArg_ParseTuple(args, "iiOKOOK:reduce", &code, &t, &a, &ap, &axes_o, &o,
                        &op))
    return NULL;
  const sk_view *va, *vo;
  int32_t axes[SK_MAX_NDIM];
  if (!view_arg(a, &va) || !view_arg(o, &vo)) return NULL;
  const int n = ints32_arg(axes_o, axes);
  if (n < 0) return NULL;
  return status_result("sk_reduce",
                       sk_reduce(code, t, va, PTR(ap), n, axes, vo, PTR(op)));
}

/* arg_reduce and scan: (op, t, in, inp, axis, out, outp) */
static PyObject* along_axis(PyObject* args, int scan) {
  int code, t, axis;
  PyObject *a, *o;
  unsigned long long ap, op;
  if (!PyArg_ParseTuple(args, "iiOKiOK", &code, &t, &a, &ap, &axis, &o, &op))
    return NULL;
  const sk_view *va, *vo;
  if (!view_arg(a, &va) || !view_arg(o, &vo)) return NULL;
  if (scan)
    return status_result("sk_scan",
                         sk_scan(code, t, va, PTR(ap), axis, vo, PTR(op)));
  return status_result("sk_arg_reduce",
                       sk_arg_reduce(code, t, va, PTR(ap), axis, vo, PTR(op)));
}

static PyObject* arg_reduce(PyObject* self, PyObject* args) {
  return along_axis(args, 0);
}

static PyObject* scan(PyObject* self, PyObject* args) {
  return along_axis(args, 1);
}

static PyObject* einsum_shape(PyObject* self, PyObject* args) {
  const char* spec;
  PyObject* shapes_o;
  if (!PyArg_ParseTuple(args, "sO:einsum_shape", &spec, &shapes_o)) return NULL;
  PyObject* fast = PySequence_Fast(shapes_o, "einsum_shape: shapes");
  if (fast == NULL) return NULL;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int64_t(*shapes)[SK_MAX_NDIM] = PyMem_Malloc(sizeof *shapes * (n + 1));
  const int64_t** ptrs = PyMem_Malloc(sizeof *ptrs * (n + 1));
  int32_t* ndims = PyMem_Malloc(sizeof *ndims * (n + 1));
  PyObject* result = NULL;
  if (shapes == NULL || ptrs == NULL || ndims == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    ndims[i] = ints_arg(PySequence_Fast_GET_ITEM(fast, i), shapes[i]);
    ptrs[i] = shapes[i];
    if (ndims[i] < 0) goto done;
  }
  int32_t out_ndim;
  int64_t out[SK_MAX_NDIM];
  const int s = sk_einsum_shape(spec, (int32_t)n, ndims, ptrs, &out_ndim, out);
  result =
      s == SK_OK ? ints_result(out_ndim, out) : skx_raise("sk_einsum_shape", s);
done:
  PyMem_Free(shapes);
  PyMem_Free(ptrs);
  PyMem_Free(ndims);
  Py_DECREF(fast);
  return result;
}

static PyObject* einsum(PyObject* self, PyObject* args) {
  const char* spec;
  int t;
  PyObject *views_o, *ptrs_o, *o;
  unsigned long long op;
  if (!PyArg_ParseTuple(args, "siOOOK:einsum", &spec, &t, &views_o, &ptrs_o, &o,
                        &op))
    return NULL;
  const sk_view* vo;
  if (!view_arg(o, &vo)) return NULL;
  const Py_ssize_t n = PySequence_Size(views_o);
  if (n < 0 || PySequence_Size(ptrs_o) != n)
    return PyErr_Occurred() ? NULL
                            : PyErr_Format(PyExc_ValueError,
                                           "einsum: views and addresses differ "
                                           "in number");
  const sk_view** views = PyMem_Malloc(sizeof *views * (n + 1));
  const void** datas = PyMem_Malloc(sizeof *datas * (n + 1));
  PyObject* result = NULL;
  if (views == NULL || datas == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* v = PySequence_GetItem(views_o, i);
    PyObject* p = PySequence_GetItem(ptrs_o, i);
    const int ok = v != NULL && p != NULL && view_arg(v, &views[i]);
    datas[i] = ok ? PTR(PyLong_AsUnsignedLongLong(p)) : NULL;
    Py_XDECREF(v); /* the bytes stay alive in views_o */
    Py_XDECREF(p);
    if (!ok || PyErr_Occurred()) goto done;
  }
  result = status_result(
      "sk_einsum", sk_einsum(spec, t, (int32_t)n, views, datas, vo, PTR(op)));
done:
  PyMem_Free(views);
  PyMem_Free(datas);
  return result;
}

/* ---- library state */

static PyObject* version(PyObject* self, PyObject* unused) {
  return PyUnicode_FromString(sk_version());
}

static PyObject* set_threads(PyObject* self, PyObject* n) {
  const long v = PyLong_AsLong(n);
  if (v == -1 && PyErr_Occurred()) return NULL;
  if (v < INT32_MIN || v > INT32_MAX)
    return PyErr_Format(PyExc_ValueError, "stridekit.set_threads: %ld", v);
  return status_result("sk_set_threads", sk_set_threads((int32_t)v));
}

static PyObject* get_threads(PyObject* self, PyObject* unused) {
  return PyLong_FromLong(sk_get_threads());
}

static PyObject* targets(PyObject* self, PyObject* unused) {
  const int32_t n = sk_target_count();
  PyObject* list = PyList_New(n);
  for (int32_t i = 0; list != NULL && i < n; ++i)
    PyList_SET_ITEM(list, i, PyUnicode_FromString(sk_target_name(i)));
  return list;
}

static PyObject* target_active(PyObject* self, PyObject* unused) {
  return PyUnicode_FromString(sk_target_active());
}

static PyObject* target_force(PyObject* self, PyObject* name) {
  const char* s = name == Py_None ? NULL : PyUnicode_AsUTF8(name);
  if (s == NULL && name != Py_None) return NULL;
  const int status = sk_target_force(s);
  if (status == SK_OK) skx_cache_clear(); /* plans keep their target */
  return status_result("sk_target_force", status);
}

PyMethodDef skx_capi_methods[] = {
    {"view_make", view_make, METH_VARARGS,
     "sk_view_make(shape, strides, offset)"},
    {"view_op", view_op, METH_VARARGS, "sk_view_<name>(v, args...)"},
    {"view_flags", view_flags, METH_O, "sk_view_flags(v)"},
    {"view_info", view_info, METH_O, "(ndim, offset, shape, strides, mask)"},
    {"view_from_dlpack", view_from_dlpack, METH_O, "sk_view_from_dlpack"},
    {"broadcast_shapes", broadcast_shapes, METH_O, "sk_broadcast_shapes"},
    {"copy", copy, METH_VARARGS, "sk_copy"},
    {"fill", fill, METH_VARARGS, "sk_fill"},
    {"cast", cast, METH_VARARGS, "sk_cast"},
    {"binary", binary, METH_VARARGS, "sk_binary"},
    {"compare", compare, METH_VARARGS, "sk_compare"},
    {"unary", unary, METH_VARARGS, "sk_unary"},
    {"where", where, METH_VARARGS, "sk_where"},
    {"reduce", reduce, METH_VARARGS, "sk_reduce"},
    {"arg_reduce", arg_reduce, METH_VARARGS, "sk_arg_reduce"},
    {"scan", scan, METH_VARARGS, "sk_scan"},
    {"einsum_shape", einsum_shape, METH_VARARGS, "sk_einsum_shape"},
    {"einsum", einsum, METH_VARARGS, "sk_einsum"},
    {"version", version, METH_NOARGS, "sk_version()"},
    {"set_threads", set_threads, METH_O, "sk_set_threads(n)"},
    {"get_threads", get_threads, METH_NOARGS, "sk_get_threads()"},
    {"targets", targets, METH_NOARGS, "sk_target_name(0 .. count-1)"},
    {"target_active", target_active, METH_NOARGS, "sk_target_active()"},
    {"target_force", target_force, METH_O,
     "sk_target_force(name or None); drops the cached plans"},
    {NULL, NULL, 0, NULL}};
