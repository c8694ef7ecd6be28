"""cllint: a language server and static analyzer for OpenCL C."""

__version__ = "0.1.0"
