"""Kernel text assembled from pieces of a host file, and the map back to host offsets.

Every byte of the kernel either comes from the host (copied verbatim, or decoded from an
escape sequence, whose bytes all point at the whole escape) or is synthetic (the code a
library generates around a snippet). Diagnostics map back only through host bytes.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass
from functools import cached_property

SYNTHETIC = -1
_LONGEST_SOURCE = 64  # host characters one kernel byte may come from (an escape, a placeholder)


def _find(values: array, value: int) -> int | None:
    try:
        return values.index(value)
    except ValueError:
        return None


_INCLUDE_PATH = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*(<[^>\n]*>|\"[^\"\n]*\")", re.M)


class KernelBuilder:
    def __init__(self) -> None:
        self._text = bytearray()
        self._start = array("q")  # host start of each kernel byte, SYNTHETIC for generated code
        self._end = array("q")  # host end of the source character that produced it
        self._placeholders: list[tuple[int, int]] = []  # kernel ranges standing for unknown host values

    def __len__(self) -> int:
        return len(self._text)

    def verbatim(self, text: bytes, host_start: int) -> None:
        """Bytes copied unchanged from host offset `host_start`."""
        self._text += text
        self._start.extend(range(host_start, host_start + len(text)))
        self._end.extend(range(host_start + 1, host_start + len(text) + 1))

    def decoded(self, text: bytes, host_start: int, host_end: int) -> None:
        """Bytes an escape sequence (or a placeholder) at host[start:end] stands for."""
        self._text += text
        self._start.extend([host_start] * len(text))
        self._end.extend([host_end] * len(text))

    def placeholder(self, text: bytes, host_start: int, host_end: int) -> None:
        """A neutral name for a template placeholder whose value the host fills in later."""
        self._placeholders.append((len(self._text), len(self._text) + len(text)))
        self.decoded(text, host_start, host_end)

    def synthetic(self, text: str | bytes) -> None:
        data = text.encode() if isinstance(text, str) else text
        self._text += data
        self._start.extend([SYNTHETIC] * len(data))
        self._end.extend([SYNTHETIC] * len(data))

    def text_since(self, start: int) -> bytes:
        return bytes(self._text[start:])

    def extend(self, other: KernelBuilder) -> None:
        """Append what another builder holds (a snippet built on its own)."""
        self._placeholders.extend((s + len(self._text), e + len(self._text)) for s, e in other._placeholders)
        self._text += other._text
        self._start.extend(other._start)
        self._end.extend(other._end)

    def insert_synthetic(self, at: int, text: bytes) -> None:
        self._text[at:at] = text
        self._placeholders = [(s + len(text), e + len(text)) if s >= at else (s, e) for s, e in self._placeholders]
        self._start[at:at] = array("q", [SYNTHETIC] * len(text))
        self._end[at:at] = array("q", [SYNTHETIC] * len(text))

    def build(self) -> tuple[bytes, PositionMap]:
        self._computed_includes()
        return bytes(self._text), PositionMap(self._start, self._end, tuple(self._placeholders))

    def _computed_includes(self) -> None:
        """`#include <{header}>` whose path holds a placeholder: the host names the file later,
        so it reads as a computed include (`#include NAME`, same length), which is not followed
        and, unresolved, quiets what a header could declare, rather than a missing file."""
        if not self._placeholders or b"include" not in self._text:
            return
        for m in _INCLUDE_PATH.finditer(self._text):
            start, end = m.span(1)
            if any(s < end and start < e for s, e in self._placeholders):
                self._text[start:end] = b"__cllint_computed_include"[: end - start].ljust(end - start, b"_")


@dataclass(frozen=True)
class PositionMap:
    starts: array
    ends: array
    placeholders: tuple[tuple[int, int], ...] = ()

    @cached_property
    def host_extent(self) -> tuple[int, int]:
        """The host bytes the kernel's text comes from, first to last ((0, -1): none)."""
        first = min(filter(SYNTHETIC.__ne__, self.starts), default=None)
        return (0, -1) if first is None else (first, max(self.ends))

    def to_kernel(self, host: int) -> int | None:
        """Kernel offset of host offset `host` (an editor's cursor): the first kernel byte a
        host byte produced, or the one after a literal's last byte when the cursor sits at its
        end; None outside the literals' text (quotes, host code). One C-level scan of the map
        per question: editor requests ask one, and a kernel's map changes with each edit."""
        first, last = self.host_extent
        if not first <= host <= last:
            return None
        k = _find(self.starts, host)
        if k is not None:
            return k
        for back in range(1, min(_LONGEST_SOURCE, host - first + 1)):  # inside an escape or placeholder
            k = _find(self.starts, host - back)
            if k is not None:
                return k if host < self.ends[k] else self._after(k, host)
        return None

    def _after(self, k: int, host: int) -> int | None:
        """The cursor right after the source character that produced kernel byte k."""
        while k + 1 < len(self.starts) and self.starts[k + 1] == self.starts[k]:
            k += 1
        return k + 1 if self.ends[k] == host else None

    def has_placeholder(self, start: int, end: int) -> bool:
        """True when kernel[start:end] holds a placeholder whose value the host supplies."""
        return any(s < end and start < e for s, e in self.placeholders)

    def to_host(self, start: int, end: int) -> tuple[int, int] | None:
        """Host range of the kernel range [start, end), shrunk to the host bytes inside it;
        None when it covers only generated code."""
        n = len(self.starts)
        if n == 0:
            return None
        start = max(0, min(start, n - 1))
        end = max(start, min(end, n))
        s = start
        while s < max(end, start + 1) and s < n and self.starts[s] == SYNTHETIC:
            s += 1
        if s >= n or self.starts[s] == SYNTHETIC:
            return None
        e = end - 1
        while e > s and self.starts[e] == SYNTHETIC:
            e -= 1
        host_start = self.starts[s]
        if end <= start:  # an empty range stays empty
            return host_start, host_start
        return host_start, max(host_start, self.ends[e])

    def is_exact(self, start: int, end: int) -> bool:
        """True when kernel[start:end] is a verbatim copy of one host range (an edit there
        can be written into the host as is)."""
        if end <= start:
            return 0 <= start <= len(self.starts) and (start == len(self.starts) or self.starts[start] != SYNTHETIC)
        first = self.starts[start]
        if first == SYNTHETIC:
            return False
        return all(self.starts[start + i] == first + i and self.ends[start + i] == first + i + 1
                   for i in range(end - start))
