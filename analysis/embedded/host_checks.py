"""CL6xx placeholder; filled in below."""
from __future__ import annotations


def check_host_calls(path, source, kernels):
    return []
