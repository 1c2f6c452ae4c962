/* The module stridekit._ext: Kernel, Plan, plan(), setup(), clear_cache()
 * and the C ABI's functions for the package's Python code (capi.c). It is
 * the package's one copy of the library. */
#define SK_EXT_MODULE
#include "ext.h"

extern PyObject* skx_resolver;

static PyObject* setup(PyObject* self, PyObject* resolver) {
  if (!PyCallable_Check(resolver))
    return PyErr_Format(PyExc_TypeError,
                        "stridekit._ext.setup: resolver must be callable");
  Py_INCREF(resolver);
  Py_XSETREF(skx_resolver, resolver);
  Py_RETURN_NONE;
}

static PyObject* clear_cache(PyObject* self, PyObject* unused) {
  skx_cache_clear();
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_O,
     "setup(resolver): resolver(name, a, b) -> (compute, out) sk_dtypes or "
     "None, asked once per kernel and input dtypes"},
    {"clear_cache", clear_cache, METH_NOARGS,
     "frees the cached plans (after forcing a target)"},
    {"plan", (PyCFunction)(void (*)(void))skx_plan_new,
     METH_FASTCALL | METH_KEYWORDS,
     "plan(func, *arrays, **kw): func's call prepared as a C ABI plan"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ext", NULL, -1,
                                    methods};

PyMODINIT_FUNC PyInit__ext(void) {
  import_array();
  if (PyType_Ready(&skx_kernel_type) < 0 || PyType_Ready(&skx_plan_type) < 0)
    return NULL;
  PyObject* m = PyModule_Create(&module);
  if (m == NULL) return NULL;
  Py_INCREF(&skx_kernel_type);
  Py_INCREF(&skx_plan_type);
  if (PyModule_AddFunctions(m, skx_capi_methods) < 0 ||
      PyModule_AddObject(m, "Kernel", (PyObject*)&skx_kernel_type) < 0 ||
      PyModule_AddObject(m, "Plan", (PyObject*)&skx_plan_type) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  static const char* kinds[SK_K_COUNT] = {"BINARY", "COMPARE", "UNARY",
                                          "WHERE",  "REDUCE",  "ARG",
                                          "SCAN",   "CAST",    "EINSUM"};
  for (int i = 0; i < SK_K_COUNT; ++i) PyModule_AddIntConstant(m, kinds[i], i);
  return m;
}
