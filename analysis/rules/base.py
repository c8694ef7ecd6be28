"""What every rule is: a code, a name, a docstring in ruff's headings, and a check.

A rule's docstring uses the headings *What it does*, *Why is this bad?*, *Example*,
*Use instead* and *OpenCL spec*; `cllint explain` and docs/rules.md are generated from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from cllint.analysis.diagnostics import Diagnostic, Fix, Note, Severity, Span, Tag
from cllint.analysis.model.walk import in_ranges
from cllint.analysis.records import FixedMember

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from cllint.analysis.target import Target

T = TypeVar("T")


class FixAvailability(FixedMember):
    __slots__ = ()
    NONE: ClassVar[FixAvailability]
    SOMETIMES: ClassVar[FixAvailability]
    ALWAYS: ClassVar[FixAvailability]


FixAvailability.define(NONE="none", SOMETIMES="sometimes", ALWAYS="always")


class Group(FixedMember):
    __slots__ = ()
    STABLE: ClassVar[Group]
    PREVIEW: ClassVar[Group]
    REMOVED: ClassVar[Group]  # kept so the code never changes meaning


Group.define(STABLE="stable", PREVIEW="preview", REMOVED="removed")


class RuleContext:
    """Everything a rule may read about one file. Rules never read raw text to decide."""

    file: str
    source: bytes
    tree: Tree
    target: Target
    # Filled in by the model as it lands; rules check for None where optional.
    preprocessor: Any
    model: Any
    options: dict[str, Any]
    # What several rules of one run share (a family's analysis of the file), by family, with
    # the focus it was made for: made by the first rule that asks, gone with the run, so that
    # no result outlives the tree, view and options it was read from (issue 33).
    shared: dict[str, tuple[Any, Any]]

    __match_args__ = ("file", "source", "tree", "target", "preprocessor", "model", "options", "shared")

    def __init__(
        self,
        file: str,
        source: bytes,
        tree: Tree,
        target: Target,
        preprocessor: Any = None,
        model: Any = None,
        options: dict[str, Any] | None = None,
        shared: dict[str, tuple[Any, Any]] | None = None,
    ) -> None:
        self.file = file
        self.source = source
        self.tree = tree
        self.target = target
        self.preprocessor = preprocessor
        self.model = model
        self.options = {} if options is None else options
        self.shared = {} if shared is None else shared

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"file={self.file!r}, " f"source={self.source!r}, "
                f"tree={self.tree!r}, " f"target={self.target!r}, " f"preprocessor={self.preprocessor!r}, "
                f"model={self.model!r}, " f"options={self.options!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.file, self.source, self.tree, self.target, self.preprocessor, self.model, self.options)
        theirs = (other.file, other.source, other.tree, other.target, other.preprocessor, other.model,
                  other.options)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def memo(self, family: str, compute: Callable[[], T]) -> T:
        """`compute()` once per run and focus (a run's local rules read another focus)."""
        got = self.shared.get(family)
        if got is not None and got[0] == self.focus:
            return got[1]
        value = compute()
        self.shared[family] = (self.focus, value)
        return value

    def in_focus(self, node: Node) -> bool:
        """False for code whose findings the incremental driver will take from its
        cache (analysis/incremental.py): rules may skip work there, never must."""
        return in_ranges(self.options.get("focus"), node.start_byte)

    @property
    def focus(self) -> list[tuple[int, int]] | None:
        """Sorted, disjoint byte ranges outside which rules may skip work (None: all)."""
        return self.options.get("focus")

    def span(self, node: Node) -> Span:
        return Span(self.file, node.start_byte, node.end_byte)

    def text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")


class Rule:
    # Not an `abc.ABC`: ~100 rule classes are made at every start-up, and ABCMeta's
    # bookkeeping and one more class in each one's lookup order were 0.8% of a one-line
    # kernel's run (issue 32). A rule class (one with a `code`) without `check` is refused
    # where it is defined (`__init_subclass__`), as the abstract method refused it.
    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, e.g. "divergent-barrier"
    severity: ClassVar[Severity] = Severity.WARNING
    fix_availability: ClassVar[FixAvailability] = FixAvailability.NONE
    group: ClassVar[Group] = Group.STABLE
    spec_section: ClassVar[str | None] = None  # AsciiDoc anchor in the OpenCL C spec
    # Findings in a function body depend on that body's text and the declarations outside
    # bodies only (no callee summaries, no callee bodies): an edit re-analyses the edited
    # functions for it, not their callers (analysis/incremental.py; the lint gives such rules
    # a context of their own whose focus is those functions).
    local: ClassVar[bool] = False

    if TYPE_CHECKING:
        def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
            """The rule's diagnostics for one file; reads the model, never raises on user source."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__ and not callable(getattr(cls, "check", None)):
            raise TypeError(f"rule {cls.__dict__['code']} ({cls.__name__}) defines no check")

    # Helpers so rules build diagnostics the same way.
    def diagnostic(
        self,
        span: Span,
        message: str,
        *,
        notes: tuple[Note, ...] | list[Note] = (),
        fix: Fix | None = None,
        severity: Severity | None = None,
        tags: tuple[Tag, ...] = (),
    ) -> Diagnostic:
        return Diagnostic(
            code=self.code,
            severity=severity or self.severity,
            message=message,
            span=span,
            notes=tuple(notes),
            fix=fix,
            tags=tags,
        )

    @classmethod
    def doc(cls) -> str:
        import inspect  # for docs and `explain` only: inspect loads ast, dis and tokenize (~6 ms)

        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        """First sentence of *What it does*, for `cllint rules`."""
        text = cls.doc()
        marker = "## What it does"
        if marker in text:
            text = text.split(marker, 1)[1]
        para = text.strip().split("\n\n", 1)[0].replace("\n", " ").strip()
        return para

