/* stridekit.plan(func, *arrays, **kw): the C ABI plan (sk_plan_*) of one
 * kernel call; calling it with arrays of the same dtypes, shapes and strides
 * executes the plan (sk_plan_execute), checking only those layouts. */
#include "ext.h"

typedef struct {
  int t; /* sk_dtype */
  int ndim;
  npy_intp shape[SK_MAX_NDIM];
  npy_intp strides[SK_MAX_NDIM]; /* bytes, as NumPy's */
} layout;

typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
  sk_plan* plan;
  PyObject* kernel;
  int nin;
  layout in[SK_EXT_MAX_IN];
  layout out;
  int out_given; /* planned on a given out: calls need out= of its layout */
  int return_scalar;
  int64_t elements;
} skx_plan_obj;

static void layout_of(PyArrayObject* a, int t, layout* l) {
  l->t = t;
  l->ndim = PyArray_NDIM(a);
  for (int d = 0; d < l->ndim; ++d) {
    l->shape[d] = PyArray_DIM(a, d);
    l->strides[d] = PyArray_STRIDE(a, d);
  }
}

/* 1 when a is an aligned array of layout l */
static int matches(PyObject* o, const layout* l) {
  if (!PyArray_CheckExact(o)) return 0;
  PyArrayObject* a = (PyArrayObject*)o;
  if (PyArray_NDIM(a) != l->ndim || !PyArray_ISALIGNED(a) ||
      skx_dtype_of(PyArray_DESCR(a)) != l->t)
    return 0;
  return memcmp(PyArray_DIMS(a), l->shape, sizeof(npy_intp) * l->ndim) == 0 &&
         memcmp(PyArray_STRIDES(a), l->strides, sizeof(npy_intp) * l->ndim) ==
             0;
}

static PyObject* layout_error(PyObject* kernel, const char* what, int i,
                              PyObject* got) {
  PyObject* name = ((skx_kernel*)kernel)->name;
  if (PyArray_Check(got)) {
    PyArrayObject* a = (PyArrayObject*)got;
    PyObject* shape = PyObject_GetAttrString(got, "shape");
    PyObject* strides = PyObject_GetAttrString(got, "strides");
    PyErr_Format(PyExc_ValueError,
                 "stridekit.plan(%U): %s %d is a %R array of shape %R and "
                 "byte strides %R, not the layout the plan was made for "
                 "(make another plan)",
                 name, what, i, (PyObject*)PyArray_DESCR(a), shape, strides);
    Py_XDECREF(shape);
    Py_XDECREF(strides);
  } else {
    PyErr_Format(PyExc_TypeError,
                 "stridekit.plan(%U): %s %d must be a NumPy array, got %.100s",
                 name, what, i, Py_TYPE(got)->tp_name);
  }
  return NULL;
}

static PyObject* plan_vectorcall(PyObject* self, PyObject* const* args,
                                 size_t nargsf, PyObject* kwnames) {
  skx_plan_obj* p = (skx_plan_obj*)self;
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* out = NULL;
  if (kwnames != NULL) {
    const Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
    if (n != 1 ||
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "out"))
      return PyErr_Format(PyExc_TypeError,
                          "stridekit.plan(%U): the only keyword is out=",
                          ((skx_kernel*)p->kernel)->name);
    out = args[nargs] == Py_None ? NULL : args[nargs];
  }
  if (nargs != p->nin)
    return PyErr_Format(PyExc_TypeError,
                        "stridekit.plan(%U): takes %d arrays, got %zd",
                        ((skx_kernel*)p->kernel)->name, p->nin, nargs);
  const void* data[SK_EXT_MAX_IN];
  for (int i = 0; i < p->nin; ++i) {
    if (!matches(args[i], &p->in[i]))
      return layout_error(p->kernel, "operand", i, args[i]);
    data[i] = PyArray_DATA((PyArrayObject*)args[i]);
  }
  PyArrayObject* o;
  if (out != NULL) {
    if (!matches(out, &p->out) || !PyArray_ISWRITEABLE((PyArrayObject*)out))
      return layout_error(p->kernel, "out", 0, out);
    Py_INCREF(out);
    o = (PyArrayObject*)out;
  } else if (p->out_given) {
    return PyErr_Format(PyExc_TypeError,
                        "stridekit.plan(%U): made with out=, so needs out= "
                        "of that layout",
                        ((skx_kernel*)p->kernel)->name);
  } else {
    PyArray_Descr* descr = PyArray_DescrFromType(skx_npy_type(p->out.t));
    if (descr == NULL) return NULL;
    o = (PyArrayObject*)PyArray_NewFromDescr(&PyArray_Type, descr, p->out.ndim,
                                             p->out.shape, p->out.strides, NULL,
                                             0, NULL);
    if (o == NULL) return NULL;
  }
  int status;
  void* od = PyArray_DATA(o);
  if (p->elements >= (1 << 15)) {
    Py_BEGIN_ALLOW_THREADS status = sk_plan_execute(p->plan, data, od);
    Py_END_ALLOW_THREADS
  } else {
    status = sk_plan_execute(p->plan, data, od);
  }
  if (status != SK_OK) {
    Py_DECREF(o);
    return skx_raise("sk_plan_execute", status);
  }
  if (out == NULL && p->return_scalar) return PyArray_Return(o);
  return (PyObject*)o;
}

PyObject* skx_plan_new(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                       PyObject* kwnames) {
  if (nargs < 1 || !PyObject_TypeCheck(args[0], &skx_kernel_type))
    return PyErr_Format(PyExc_TypeError,
                        "stridekit.plan: the first argument must be a "
                        "stridekit kernel function (stridekit.add, ...), got "
                        "%R",
                        nargs < 1 ? Py_None : args[0]);
  skx_kernel* k = (skx_kernel*)args[0];
  skx_call c;
  const int r = skx_prepare(k, args + 1, nargs - 1, kwnames, &c);
  if (r < 0) return NULL;
  if (r == 0 || c.has_scalar)
    return PyErr_Format(
        PyExc_ValueError,
        "stridekit.plan(%U): these arguments are not one direct kernel call: "
        "a plan takes NumPy arrays already of the kernel's dtypes (no Python "
        "scalars, no casts, out= of the result dtype and shape); call "
        "stridekit.%U itself for the rest",
        k->name, k->name);
  if (!skx_finish_shape(&c)) return NULL;
  skx_plan_obj* p = PyObject_New(skx_plan_obj, &skx_plan_type);
  if (p == NULL) return NULL;
  p->vectorcall = plan_vectorcall;
  p->plan = NULL;
  Py_INCREF(args[0]);
  p->kernel = args[0];
  p->nin = c.nin;
  p->out_given = c.given_out != NULL;
  p->return_scalar = c.return_scalar;
  p->elements = 1;
  for (int i = 0; i < c.nin; ++i) {
    const int t = i == 0 && k->kind == SK_K_WHERE ? SK_BOOL : c.in_t;
    layout_of(c.arrays[i], t, &p->in[i]);
    if (PyArray_SIZE(c.arrays[i]) > p->elements)
      p->elements = PyArray_SIZE(c.arrays[i]);
  }
  PyArrayObject* o = skx_output(&c, k->kind);
  if (o == NULL) {
    Py_DECREF(p);
    return NULL;
  }
  layout_of(o, c.out_t, &p->out);
  if (PyArray_SIZE(o) > p->elements) p->elements = PyArray_SIZE(o);
  sk_view ov;
  skx_view_of(o, &ov);
  Py_DECREF(o);
  const int s = skx_make_plan(k, &c, &ov, &p->plan);
  if (s != SK_OK) {
    Py_DECREF(p);
    char fn[64];
    snprintf(fn, sizeof fn, "sk_plan_%s", skx_c_function(k->kind) + 3);
    return skx_raise(fn, s);
  }
  return (PyObject*)p;
}

static void plan_dealloc(PyObject* self) {
  skx_plan_obj* p = (skx_plan_obj*)self;
  sk_plan_free(p->plan);
  Py_XDECREF(p->kernel);
  PyObject_Free(self);
}

static PyObject* plan_describe(PyObject* self, void* closure) {
  return PyUnicode_FromString(sk_plan_describe(((skx_plan_obj*)self)->plan));
}

static PyObject* plan_repr(PyObject* self) {
  return PyUnicode_FromFormat(
      "<stridekit.plan of %U: %s>",
      ((skx_kernel*)((skx_plan_obj*)self)->kernel)->name,
      sk_plan_describe(((skx_plan_obj*)self)->plan));
}

static PyGetSetDef plan_getset[] = {
    {"description", plan_describe, NULL, "sk_plan_describe's text", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef plan_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(skx_plan_obj, vectorcall),
     READONLY, NULL},
    {"function", T_OBJECT, offsetof(skx_plan_obj, kernel), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

PyTypeObject skx_plan_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stridekit.Plan",
    .tp_basicsize = sizeof(skx_plan_obj),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc =
        "A prepared kernel call (stridekit.plan); call it with arrays "
        "of the layouts it was made for.",
    .tp_dealloc = plan_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(skx_plan_obj, vectorcall),
    .tp_repr = plan_repr,
    .tp_getset = plan_getset,
    .tp_members = plan_members,
};
