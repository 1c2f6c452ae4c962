/* NumPy dtypes and arrays as the C ABI's sk_dtype and sk_view. */
#include "ext.h"

int skx_dtype_of(const PyArray_Descr* d) {
  if (!PyArray_ISNBO(d->byteorder) || d->type_num >= NPY_OBJECT) return -1;
  switch (d->kind) {
    case 'b':
      return SK_BOOL;
    case 'i':
      return d->elsize == 1   ? SK_INT8
             : d->elsize == 2 ? SK_INT16
             : d->elsize == 4 ? SK_INT32
             : d->elsize == 8 ? SK_INT64
                              : -1;
    case 'u':
      return d->elsize == 1   ? SK_UINT8
             : d->elsize == 2 ? SK_UINT16
             : d->elsize == 4 ? SK_UINT32
             : d->elsize == 8 ? SK_UINT64
                              : -1;
    case 'f':
      return d->elsize == 2   ? SK_FLOAT16
             : d->elsize == 4 ? SK_FLOAT32
             : d->elsize == 8 ? SK_FLOAT64
                              : -1;
    case 'c':
      return d->elsize == 8    ? SK_COMPLEX64
             : d->elsize == 16 ? SK_COMPLEX128
                               : -1;
    default:
      return -1;
  }
}

int skx_npy_type(int t) {
  static const int types[SK_NDTYPES] = {
      NPY_BOOL,  NPY_INT8,    NPY_INT16,   NPY_INT32,     NPY_INT64,
      NPY_UINT8, NPY_UINT16,  NPY_UINT32,  NPY_UINT64,    NPY_HALF,
      -1,        NPY_FLOAT32, NPY_FLOAT64, NPY_COMPLEX64, NPY_COMPLEX128};
  return t >= 0 && t < SK_NDTYPES ? types[t] : -1;
}

int skx_view_of(PyArrayObject* a, sk_view* v) {
  const int nd = PyArray_NDIM(a);
  const npy_intp item = PyArray_ITEMSIZE(a);
  const npy_intp* dims = PyArray_DIMS(a);
  const npy_intp* strides = PyArray_STRIDES(a);
  if (!PyArray_ISALIGNED(a)) return 0;
  v->ndim = nd;
  v->has_mask = 0;
  v->offset = 0;
  for (int d = 0; d < nd; ++d) {
    if (strides[d] % item != 0) return 0;
    v->shape[d] = dims[d];
    v->strides[d] = strides[d] / item;
  }
  return 1;
}

PyObject* skx_raise(const char* function, int status) {
  PyObject* mod = PyImport_ImportModule("stridekit._errors");
  if (mod == NULL) return NULL;
  PyObject* cls = PyObject_GetAttrString(mod, "StridekitError");
  Py_DECREF(mod);
  if (cls == NULL) return NULL;
  PyObject* exc =
      PyObject_CallFunction(cls, "sis", function, status, sk_last_error());
  Py_DECREF(cls);
  if (exc != NULL) {
    PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

/* *buf = v in sk_dtype t, when v is within t's range (integers) */
static int store_integer(long long v, int t, void* buf) {
  switch (t) {
#define SKX_INT_CASE(code, type, lo, hi) \
  case code:                             \
    if (v < (lo) || v > (hi)) return 0;  \
    *(type*)buf = (type)v;               \
    return 1;
    SKX_INT_CASE(SK_BOOL, unsigned char, 0, 1)
    SKX_INT_CASE(SK_INT8, int8_t, INT8_MIN, INT8_MAX)
    SKX_INT_CASE(SK_INT16, int16_t, INT16_MIN, INT16_MAX)
    SKX_INT_CASE(SK_INT32, int32_t, INT32_MIN, INT32_MAX)
    SKX_INT_CASE(SK_INT64, int64_t, INT64_MIN, INT64_MAX)
    SKX_INT_CASE(SK_UINT8, uint8_t, 0, UINT8_MAX)
    SKX_INT_CASE(SK_UINT16, uint16_t, 0, UINT16_MAX)
    SKX_INT_CASE(SK_UINT32, uint32_t, 0, UINT32_MAX)
    SKX_INT_CASE(SK_UINT64, uint64_t, 0, INT64_MAX)
#undef SKX_INT_CASE
    default:
      return 0;
  }
}

/* *buf = d in a float or complex sk_dtype t (float16: not here) */
static int store_float(double d, int t, void* buf) {
  switch (t) {
    case SK_FLOAT32:
      *(float*)buf = (float)d;
      return 1;
    case SK_FLOAT64:
      *(double*)buf = d;
      return 1;
    case SK_COMPLEX64:
      ((float*)buf)[0] = (float)d;
      ((float*)buf)[1] = 0.0f;
      return 1;
    case SK_COMPLEX128:
      ((double*)buf)[0] = d;
      ((double*)buf)[1] = 0.0;
      return 1;
    default:
      return 0;
  }
}

/* NumPy 1.x value-based casting of one Python scalar against an array of
 * sk_dtype t: the result keeps t when promote_types(t, min_scalar_type(v))
 * is t (a small non-negative int counts as signed): bool always; an int
 * that fits an integer t, or fits int16/uint16 against float32/complex64,
 * or any int64 against float64/complex128; a float that fits float32
 * against float32/complex64, any against float64/complex128. */
int skx_scalar_as(PyObject* o, int t, void* buf) {
  const int wide = t == SK_FLOAT64 || t == SK_COMPLEX128;
  const int narrow = t == SK_FLOAT32 || t == SK_COMPLEX64;
  if (PyBool_Check(o)) {
    const int v = o == Py_True;
    return wide || narrow ? store_float(v, t, buf) : store_integer(v, t, buf);
  }
  if (PyFloat_CheckExact(o)) {
    const double d = PyFloat_AS_DOUBLE(o);
    if (narrow && isfinite(d) && fabs(d) > FLT_MAX) return 0;
    return store_float(d, t, buf);
  }
  if (!PyLong_CheckExact(o) || t == SK_BOOL) return 0;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return 0;
  }
  if (narrow)
    return v >= INT16_MIN && v <= UINT16_MAX && store_float(v, t, buf);
  if (wide) return store_float((double)v, t, buf);
  return store_integer(v, t, buf);
}
