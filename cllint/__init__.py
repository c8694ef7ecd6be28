"""cllint: a language server and static analyzer for OpenCL C."""

__version__ = "0.1.0"

# Before any module of the package defines a record: see classcache's docstring.
from cllint import classcache as _classcache  # noqa: E402

_classcache.install()
