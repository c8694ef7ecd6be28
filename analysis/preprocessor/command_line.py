"""Function-like macros given with `-D 'NAME(a,b)=body'` (issue 29).

An object-like `-D` is a value in the macro table; a function-like one needs its parameters,
which only a `#define` carries. The compiler reads `-D` as `#define` lines before the file, so
they are given to the preprocessor the same way: a source named `<command line>`, read first,
through the include resolver (which is how a program's other leading sources come in).
"""

from __future__ import annotations

from typing import Any

COMMAND_LINE = "<command line>"


def is_function_like(name: str) -> bool:
    return "(" in name


class CommandLineDefines:
    """`base` with `<command line>` read first: the `#define` lines of the function-like `-D`s."""

    def __init__(self, base: Any, defines: dict[str, str]) -> None:
        self.base = base
        self.text = "".join(f"#define {name} {body}\n" for name, body in sorted(defines.items())).encode()
        self.prelude = (COMMAND_LINE, *getattr(base, "prelude", ()))

    def __call__(self, name: str, angled: bool, including: str) -> tuple[str, bytes] | None:
        if name == COMMAND_LINE:
            return COMMAND_LINE, self.text
        return self.base(name, angled, including) if self.base is not None else None

    def __getattr__(self, name: str) -> Any:  # the program's other facts (host macros...)
        if name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CommandLineDefines) and (self.base, self.text) == (other.base, other.text)

    def __hash__(self) -> int:
        return hash((self.text, self.prelude))
