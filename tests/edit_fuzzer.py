"""A seeded generator of hostile edits for the fuzz tests of the server and the CLI
(issue 22 item 6): garbage characters, unbalanced brackets, comments and strings,
directive lines, huge tokens, deep nesting, invalid UTF-8 (lone surrogates, as a UTF-16
editor can hold them), deletions of large ranges, and real kernels pasted from examples/
and the rule fixtures. Same seed, same edits, so a failure names its reproduction."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Lone low surrogates only: a high one followed by a low one would reach the server as
# one astral character through JSON. No '\r': the server ends lines at '\n' only.
INVALID = [chr(c) for c in range(0xDC80, 0xDD00)]
GARBAGE = "\x00\x01\x07\x0b\x0c\x1b\x7f@$`\\#?~!%^&|:;,.<>=+-*/'\"é€😀\u200b\ufeff\ufffd \t\n"
BRACKETS = "{}()[]"
COMMENTS = ["/*", "*/", "//", "/* unclosed", "/**/", "// \\\n", "*/ */"]
STRINGS = ['"', "'", '"unterminated', "'\\", '"\\"', "L'x", '"\\x', "'ab'", '""']
DIRECTIVES = [
    "#if X", "#ifdef cl_khr_fp64", "#ifndef", "#else", "#elif 1 +", "#endif", "#if (", "#if 0",
    "#define F(x) x(", "#define G(", "#define SYNC() barrier(CLK_LOCAL_MEM_FENCE)", "#undef",
    "#include \"missing.h\"", "#include <", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable",
    "#pragma OPENCL EXTENSION all : disable", "#error stop", "#line 0", "# 1 \"x\"", "#", "##", "#@",
    "#define A A", "#define B(x) B(x)", "#if defined(", "#elif", "\\",
]
TOKENS = ["x", "a[0]", ";", " ", "\n", "int j = 0;", "global ", "local ", "__constant ", "kernel ",
          "barrier(CLK_LOCAL_MEM_FENCE);", "get_local_id(0)", "if (lid) return;", "1.0", "double d;",
          "float4 v = (float4)(1,2,3,4);", "v.xyzw", "(local float *)", "typedef int *ip;", "sizeof(",
          "return", "else", "for (;;) {", "switch (x) { case 1:", "goto L;", "L:", "->", "...", "0x", "1e"]
# Weights: typing is the common case; the rest are the hostile ones.
KINDS = {"typing": 6, "garbage": 3, "brackets": 2, "comment": 2, "string": 2, "directive": 2,
         "huge_token": 1, "nesting": 1, "invalid_utf8": 2, "delete_range": 2, "paste_kernel": 2}


@dataclass(frozen=True)
class Edit:
    """Replace text[start:end] (code points of the Python string) by `text`."""
    start: int
    end: int
    text: str
    kind: str

    def apply(self, text: str) -> str:
        return text[: self.start] + self.text + text[self.end :]


def kernels() -> list[str]:
    """Real kernels to paste and to start from: examples/ and the rule fixtures."""
    paths = sorted(ROOT.glob("examples/*.cl")) + sorted((ROOT / "tests/rules/fixtures").rglob("*.cl"))
    return [p.read_text(encoding="utf-8", errors="replace").replace("\r", "") for p in paths]


def lsp_position(text: str, offset: int) -> tuple[int, int]:
    """(line, UTF-16 character) of a code-point offset, lines ending at '\\n'."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return line, len(text[start:offset].encode("utf-16-le", "surrogatepass")) // 2


def to_bytes(text: str) -> bytes:
    """A file's bytes: lone surrogates U+DC80..U+DCFF become the invalid bytes 0x80..0xFF."""
    return text.encode("utf-8", "surrogateescape")


class EditFuzzer:
    """Edits for one document. `scale` multiplies the sizes of huge tokens, nesting and
    pastes; `limit` keeps a document near that many characters by deleting more often."""

    def __init__(self, seed: int, corpus: list[str] | None = None, scale: float = 1.0, limit: int = 60_000) -> None:
        self.rng = random.Random(seed)
        self.corpus = corpus if corpus is not None else kernels()
        self.scale = scale
        self.limit = limit
        self._kinds, self._weights = list(KINDS), list(KINDS.values())

    def document(self) -> str:
        """A starting document: one to three real kernels."""
        return "\n".join(self.rng.choice(self.corpus) for _ in range(self.rng.randint(1, 3)))

    def _size(self, top: int) -> int:
        return self.rng.randint(1, max(1, int(top * self.scale)))

    def piece(self, kind: str) -> str:
        rng = self.rng
        if kind == "typing":
            return "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 4)))
        if kind == "garbage":
            return "".join(rng.choice(GARBAGE) for _ in range(rng.randint(1, 40)))
        if kind == "brackets":
            return "".join(rng.choice(BRACKETS) for _ in range(rng.randint(1, 12)))
        if kind == "comment":
            return rng.choice(COMMENTS)
        if kind == "string":
            return rng.choice(STRINGS)
        if kind == "directive":  # at a line start, as the preprocessor reads them
            return "\n" + rng.choice(DIRECTIVES) + rng.choice(["\n", " ", "\\\n", ""])
        if kind == "huge_token":
            return rng.choice(["a", "9", "_x", "0x1"]) * self._size(5_000)
        if kind == "nesting":
            n = self._size(300)
            opener, closer = rng.choice([("(", ")"), ("{", "}"), ("[", "]")])
            return opener * n + rng.choice(["1", "", "x;"]) + (closer * n if rng.random() < 0.5 else "")
        if kind == "invalid_utf8":
            return "".join(rng.choice(INVALID) for _ in range(rng.randint(1, 4)))
        if kind == "paste_kernel":
            return "\n" + rng.choice(self.corpus) + "\n"
        return ""

    def edit(self, text: str) -> Edit:
        rng = self.rng
        kind = "delete_range" if len(text) > self.limit else rng.choices(self._kinds, self._weights)[0]
        start = rng.randint(0, len(text))
        if kind == "delete_range":
            end = min(len(text), start + rng.randint(1, max(1, len(text) // 2)))
            return Edit(start, end, "", kind)
        end = min(len(text), start + (rng.randint(0, 8) if rng.random() < 0.3 else 0))
        return Edit(start, end, self.piece(kind), kind)

    def edits(self, text: str, count: int):
        """`count` edits, each applied before the next is drawn: yields (edit, text after)."""
        for _ in range(count):
            e = self.edit(text)
            text = e.apply(text)
            yield e, text
