"""One OpenCL C kernel text found in a host file."""

from __future__ import annotations

from dataclasses import dataclass, field

from .posmap import PositionMap


@dataclass(frozen=True)
class HostKernel:
    source: bytes  # the OpenCL C text the host builds (or the one a library generates)
    positions: PositionMap
    anchor: tuple[int, int]  # host byte range of the literal or call it came from
    origin: str  # "program", "marker", "elementwise", "reduction", "scan"
    # Python names bound to the built program (`prg = cl.Program(...).build()`), for CL6xx.
    bound_to: tuple[str, ...] = field(default=())
