"""Kernel text assembled from pieces of a host file, and the map back to host offsets.

Every byte of the kernel either comes from the host (copied verbatim, or decoded from an
escape sequence, whose bytes all point at the whole escape) or is synthetic (the code a
library generates around a snippet). Diagnostics map back only through host bytes.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from dataclasses import dataclass, field

SYNTHETIC = -1


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
        return bytes(self._text), PositionMap(self._start, self._end, tuple(self._placeholders))


@dataclass(frozen=True)
class PositionMap:
    starts: array
    ends: array
    placeholders: tuple[tuple[int, int], ...] = ()
    # (host start, kernel offset) of every host byte's first kernel byte, sorted by host
    # offset; built on the first host-to-kernel question (editor requests only).
    _inverse: list[tuple[int, int]] = field(default_factory=list, compare=False, repr=False)

    def to_kernel(self, host: int) -> int | None:
        """Kernel offset of host offset `host` (an editor's cursor): the kernel byte a host
        byte produced, or the one after the last byte of a literal when the cursor sits at
        its end; None outside the literals' text (quotes, host code)."""
        if not self._inverse:
            seen: dict[int, int] = {}
            for k, h in enumerate(self.starts):
                if h != SYNTHETIC and h not in seen:
                    seen[h] = k
            self._inverse.extend(sorted(seen.items()))
        i = bisect_right(self._inverse, (host, len(self.starts))) - 1
        if i < 0:
            return None
        start, k = self._inverse[i]
        if start == host:
            return k
        # inside an escape sequence (or placeholder) that produced byte k, or just after it
        last = k
        while last + 1 < len(self.starts) and self.starts[last + 1] == start:
            last += 1
        if host < self.ends[last]:
            return k
        return last + 1 if host == self.ends[last] else None

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
