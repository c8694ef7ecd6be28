/* Python binding: exposes the generated parser's TSLanguage as a capsule that
 * py-tree-sitter's `Language(...)` accepts. */
#include <Python.h>

typedef struct TSLanguage TSLanguage;
TSLanguage *tree_sitter_opencl(void);

static PyObject *language(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyCapsule_New(tree_sitter_opencl(), "tree_sitter.Language", NULL);
}

static PyMethodDef methods[] = {
    {"language", language, METH_NOARGS, "Return the OpenCL C tree-sitter language."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_binding", "OpenCL C tree-sitter parser", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__binding(void) { return PyModule_Create(&module); }
