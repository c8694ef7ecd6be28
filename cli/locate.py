"""Byte offsets to 1-based lines and columns (columns count characters, as editors do)."""

from __future__ import annotations

import bisect


class LineIndex:
    def __init__(self, source: bytes):
        self.source = source
        self.starts = [0]
        pos = source.find(b"\n")
        while pos >= 0:
            self.starts.append(pos + 1)
            pos = source.find(b"\n", pos + 1)

    def line_col(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.source)))
        line = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        col = len(self.source[start:offset].decode("utf-8", "replace")) + 1
        return line + 1, col

    def line_text(self, line: int) -> str:
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.source)
        return self.source[start:end].decode("utf-8", "replace").rstrip("\r")
