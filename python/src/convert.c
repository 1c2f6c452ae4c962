/* NumPy dtypes and arrays as the C ABI's sk_dtype and sk_view. */
#include "ext.h"

int skx_dtype_of(const PyArray_Descr* d) {
  if (d->byteorder == '>' || d->type_num >= NPY_OBJECT) return -1;
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
      return d->elsize == 8 ? SK_COMPLEX64 : d->elsize == 16 ? SK_COMPLEX128 : -1;
    default:
      return -1;
  }
}

int skx_npy_type(int t) {
  static const int types[SK_NDTYPES] = {
      NPY_BOOL,   NPY_INT8,   NPY_INT16,   NPY_INT32,   NPY_INT64,
      NPY_UINT8,  NPY_UINT16, NPY_UINT32,  NPY_UINT64,  NPY_HALF,
      -1,         NPY_FLOAT32, NPY_FLOAT64, NPY_COMPLEX64, NPY_COMPLEX128};
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
  PyObject* exc = PyObject_CallFunction(cls, "sis", function, status,
                                        sk_last_error());
  Py_DECREF(cls);
  if (exc != NULL) {
    PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}
