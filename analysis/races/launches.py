"""Launches a file declares for its kernels: piglit's program-tester header (a leading `/*!`
comment whose `[test]` sections name `kernel_name`, `global_size` and `local_size`). A kernel
every declared launch of which is one work-group (the global size equals the local size in
every dimension) never runs two work-groups at once: races between work-groups (CL211)
cannot happen in it, as `reqd_work_group_size` fixes the size within one."""

from __future__ import annotations

import re
from cllint.analysis.lazy_re import lazy

_HEADER = lazy(rb"\A\s*/\*!(.*?)!\*/", re.S)
_SECTION = lazy(rb"^\s*\[(\w+)\]\s*$", re.M)
_FIELD = lazy(rb"^\s*(kernel_name|global_size|local_size)\s*:\s*(.*?)\s*$", re.M)


def one_work_group(source: bytes, kernel: str) -> bool:
    """Whether the header declares launches of `kernel` and each is a single work-group."""
    if not source.lstrip().startswith(b"/*!"):
        return False
    m = _HEADER.match(source)
    if m is None:
        return False
    parts = _SECTION.split(m.group(1))  # [before, name, body, name, body, ...]
    default: dict[bytes, bytes] = {}
    seen = False
    for name, body in zip(parts[1::2], parts[2::2]):
        fields = dict(_FIELD.findall(body))
        if name == b"config":
            default = fields
            continue
        if name != b"test":
            continue
        got = {**default, **fields}
        if got.get(b"kernel_name", b"").decode("utf-8", "replace") != kernel:
            continue
        g, loc = _sizes(got.get(b"global_size")), _sizes(got.get(b"local_size"))
        if g is None or loc is None or any(a != b and a > 1 for a, b in zip(g, loc)):
            return False  # several work-groups, or a size not given (the implementation picks)
        seen = True
    return seen


def _sizes(text: bytes | None) -> tuple[int, ...] | None:
    nums = [int(x) for x in re.findall(rb"\d+", text or b"")]
    return tuple(nums[:3]) if nums else None
