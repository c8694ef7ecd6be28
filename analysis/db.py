"""The analysis host: owns file texts and their trees; hands out immutable snapshots.

Inputs are `(FileId, text)` pairs and byte-range edits; nothing here reads files.
`Host.apply_change` edits the previous tree (`Tree.edit`) and reparses with it, so a
keystroke costs what it touched. Derived data are memoised in the Host's `Database`
(analysis/database.py): its revision counter is the Host's, and a snapshot makes it the
current database while it computes (`Database.active`), so two Hosts share nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tree_sitter import Parser, Tree

from cllint.analysis.records import replace
from cllint.analysis.budget import BUDGET_CODE
from cllint.analysis.database import Database, current
from cllint.analysis.diagnostics import Diagnostic, FileId
from cllint.analysis.incremental import IncrementalLinter, LintMemo
from cllint.analysis.lint import LintOptions, lint_tree, suppress_all
from cllint.analysis.preprocessor.view import program_resolver
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.reparse import point_after, point_at, reparse_fresh
from cllint.grammar import language

# Resolves `#include` text to (file id, contents); injected by the CLI or server.
IncludeResolver = Callable[[str, bool, FileId], "tuple[FileId, bytes] | None"]


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace bytes [start, old_end) of the file's previous text with `new_text`."""

    start: int
    old_end: int
    new_text: bytes


@dataclass(frozen=True, slots=True)
class Step:
    """One revision of a file: the edits from `base` to `revision`, and where tree-sitter
    says the syntax changed beyond them (`Tree.changed_ranges`, in the new text's offsets).
    With a syntax error, an edit can change how untouched code parses; these ranges say
    where, so the incremental linter re-analyses exactly that."""

    base: int
    revision: int
    edits: tuple[TextEdit, ...] = ()
    changed: tuple[tuple[int, int], ...] = ()


MAX_STEPS = 64  # a lint memo older than this many revisions gets a full run


@dataclass
class Change:
    """A batch of input changes, applied atomically."""

    files: dict[FileId, bytes | None] = field(default_factory=dict)  # None removes
    edits: dict[FileId, list[TextEdit]] = field(default_factory=dict)
    options: dict[FileId, LintOptions] = field(default_factory=dict)
    default_options: LintOptions | None = None


@dataclass(frozen=True)
class FileState:
    text: bytes
    tree: Tree | None  # None: dropped to save memory (Host tree_capacity); reparsed on use
    revision: int
    options: LintOptions | None = None
    # False when an incremental reparse left syntax errors and the host keeps such trees
    # (`Host(reparse_broken=False)`): tree-sitter's error recovery depends on the old tree,
    # so such a tree may differ from a fresh parse until `Host.settle` reparses it.
    canonical: bool = True
    steps: tuple[Step, ...] = ()  # the latest revisions of this file, oldest first

    def advanced(self, revision: int, **changes) -> FileState:
        step = Step(self.revision, revision, changes.pop("edits", ()), changes.pop("changed", ()))
        return replace(self, revision=revision, steps=(*self.steps[-MAX_STEPS + 1:], step), **changes)

    def dirty_since(self, revision: int) -> list[tuple[int, int]] | None:
        """Byte ranges of the current text whose text or syntax changed since `revision`;
        None when that revision is not in the recorded history."""
        if revision == self.revision:
            return []
        chain = list(self.steps)
        while chain and chain[0].base != revision:
            chain.pop(0)
        if not chain:
            return None
        dirty: list[tuple[int, int]] = []
        for step in chain:
            for e in step.edits:
                delta = len(e.new_text) - (e.old_end - e.start)
                dirty = [_shift(r, e.start, e.old_end, delta) for r in dirty]
                dirty.append((e.start, e.start + len(e.new_text)))
            dirty.extend(step.changed)
        return dirty


def _shift(r: tuple[int, int], start: int, old_end: int, delta: int) -> tuple[int, int]:
    """A range of the text before an edit of [start, old_end), in the text after it."""
    a, b = r
    if b < start:
        return r
    if a > old_end:
        return a + delta, b + delta
    return min(a, start), max(b, old_end) + delta



class Host:
    def __init__(self, options: LintOptions | None = None, include_resolver: IncludeResolver | None = None,
                 tree_capacity: int | None = None, tree_text_budget: int | None = None,
                 reparse_broken: bool = True):
        """`tree_capacity`: how many files keep their syntax tree (least recently changed
        or read go first; None keeps all). A tree takes about 30 times its text's size,
        so an editor with many files open keeps texts and results, not every tree.
        `tree_text_budget`: also drop the oldest trees while the texts of the files that keep
        one add up to more than this many bytes (the two most recent always keep theirs), so
        that the memory kept follows what the trees cost, many small files or a few large.
        `reparse_broken`: a revision whose incremental reparse has syntax errors is read from a
        fresh parse, so that it reads as `cllint check` reads its text (error recovery depends
        on the old tree: 39 of 180 fuzzed revisions of darktable's basic.cl reported another
        CL001 without it). False keeps the incremental tree until `settle`."""
        self._parser = Parser(language())
        self._tree_capacity = tree_capacity
        self._tree_text_budget = tree_text_budget
        self.reparse_broken = reparse_broken
        self._recent: OrderedDict[FileId, None] = OrderedDict()
        self._files: dict[FileId, FileState] = {}
        self._default = options or LintOptions()
        self._resolver = include_resolver
        self.db = Database()
        self._lock = threading.Lock()
        # Per file, what the last lint left for the next (see analysis/incremental.py).
        self._lint_memos: dict[FileId, LintMemo] = self.db.per_file("host.lint_memos", None)

    # -- inputs ---------------------------------------------------------------------

    def set_file(self, file: FileId, text: bytes) -> None:
        self.apply_change(Change(files={file: text}))

    def apply_change(self, change: Change) -> None:
        with self._lock:
            self.db.revision += 1
            if change.default_options is not None:
                self._default = change.default_options
            for file, text in change.files.items():
                if text is None:
                    self._files.pop(file, None)
                    self._recent.pop(file, None)
                    self.db.drop_file(file)
                else:
                    old = self._files.get(file)
                    tree = self._parser.parse(text)
                    self._files[file] = FileState(text, tree, self.db.revision, old.options if old else None)
                    self._touch(file)
            for file, edits in change.edits.items():
                self._apply_edits(file, edits)
                self._touch(file)
            for file, opts in change.options.items():
                if file in self._files:
                    self._files[file] = self._files[file].advanced(self.db.revision, options=opts)
            self._evict()

    def rehearse(self, file: FileId) -> bool:
        """A keystroke rehearsed on `file` and taken back: a space typed just inside a body
        (IncrementalLinter.rehearsal_point), linted, deleted, linted, then the file's state
        and last lint put back as they were;
        what an edit's runs read and keep (the view moved rather than built, its macro states,
        the call pattern over the function names, each body's scan, the queries over byte
        ranges, the heads' memos) is then filled, not left to the first real keystroke after
        an open (issue 32: 28 against 11 ms of CPU on darktable's basic.cl). Only right after a
        lint of the file as it stands; False when not done. The language server calls it once
        typing pauses after an open."""
        state = self._files.get(file)
        memo = self._lint_memos.get(file)
        if state is None or memo is None or memo.revision != state.revision:
            return False
        at = IncrementalLinter.rehearsal_point(memo)
        if at is None:
            return False
        self.apply_change(Change(edits={file: [TextEdit(at, at, b" ")]}))
        self.snapshot().diagnostics(file)
        self.apply_change(Change(edits={file: [TextEdit(at, at + 1, b"")]}))
        self.snapshot().diagnostics(file)
        # The file's history and last lint go back to the open's: the next edit is measured
        # and merged against them alone, as without a rehearsal (an edit's run of a body may
        # drop a finding the whole file decides, such as the fp64 program note at a head, and
        # the rehearsed body's merge would carry that on). What stays is what the memos keyed
        # by content hold.
        with self._lock:
            if self._files.get(file) is not None:
                self._files[file] = state
                self._lint_memos[file] = memo
        return True

    def _apply_edits(self, file: FileId, edits: list[TextEdit]) -> None:
        state = self._files.get(file)
        if state is None:
            raise KeyError(f"edit to unknown file {file!r}")
        # Edit a copy: the old tree may still be read through an earlier snapshot.
        text = state.text
        edited = state.tree.copy() if state.tree is not None else self._parser.parse(text)
        for e in edits:
            if not (0 <= e.start <= e.old_end <= len(text)):
                raise ValueError(f"edit range {e.start}..{e.old_end} outside file of {len(text)} bytes")
            new_text = text[: e.start] + e.new_text + text[e.old_end :]
            new_end = e.start + len(e.new_text)
            start = point_at(text, e.start)  # the same in both texts: the ends from it
            edited.edit(
                start_byte=e.start,
                old_end_byte=e.old_end,
                new_end_byte=new_end,
                start_point=start,
                old_end_point=point_after(text, e.start, start, e.old_end),
                new_end_point=point_after(new_text, e.start, start, new_end),
            )
            text = new_text
        tree = self._parser.parse(text, edited)
        changed = tuple((r.start_byte, r.end_byte) for r in edited.changed_ranges(tree))
        self._files[file] = state.advanced(self.db.revision, text=text, tree=tree, edits=tuple(edits),
                                           changed=changed, canonical=not tree.root_node.has_error)

    def _fresh(self, file: FileId, revision: int) -> FileState | None:
        """`file` at `revision` read from a fresh parse (reparse_broken), or None when the
        file moved on. Done when a snapshot first reads the tree, not on every edit: a burst
        of keystrokes pays one reparse of the damaged items (analysis/reparse.py), for the version
        analysed. The revision stays: every snapshot of it reads this tree."""
        with self._lock:
            state = self._files.get(file)
            if state is None or state.revision != revision:
                return None
            if state.canonical or state.tree is None:  # a dropped tree comes back from a fresh parse
                return state
            fresh = reparse_fresh(self._parser, state.tree, state.text)
            # What differs from the incremental tree joins the last step's changed ranges:
            # the linter re-analyses what reads otherwise than the previous revision's tree.
            extra = tuple((r.start_byte, r.end_byte) for r in state.tree.changed_ranges(fresh))
            steps = state.steps
            if steps and extra:
                steps = (*steps[:-1], replace(steps[-1], changed=(*steps[-1].changed, *extra)))
            state = replace(state, tree=fresh, canonical=True, steps=steps)
            self._files[file] = state
            return state

    def settle(self, file: FileId) -> bool:
        """Reparse `file` from scratch if its tree is not canonical; True if it did.

        Callers run this when the user pauses: a keystroke keeps the 0.1 ms incremental
        path, and the settled state always equals a from-scratch analysis."""
        with self._lock:
            state = self._files.get(file)
            if state is None or state.canonical or state.tree is None:
                return False
            self.db.revision += 1
            tree = self._parser.parse(state.text)
            changed = tuple((r.start_byte, r.end_byte) for r in state.tree.changed_ranges(tree))
            self._files[file] = state.advanced(self.db.revision, tree=tree, changed=changed, canonical=True)
            return True

    # -- tree memory ----------------------------------------------------------------

    def _touch(self, file: FileId) -> None:
        self._recent[file] = None
        self._recent.move_to_end(file)

    def _evict(self) -> None:
        if self._tree_capacity is None and self._tree_text_budget is None:
            return
        while self._over_tree_limits():
            file, _ = self._recent.popitem(last=False)
            state = self._files.get(file)
            if state is None or state.tree is None:
                continue
            if state.canonical:  # a fresh parse gives the same tree: the history holds
                self._files[file] = replace(state, tree=None)
            else:  # it may not: start a new history, so the next lint is a full one
                self.db.revision += 1
                self._files[file] = replace(state, tree=None, revision=self.db.revision, steps=(),
                                            canonical=True)

    def _over_tree_limits(self) -> bool:
        if self._tree_capacity is not None and len(self._recent) > self._tree_capacity:
            return True
        if self._tree_text_budget is None or len(self._recent) <= 2:
            return False
        held = 0
        for f in self._recent:
            state = self._files.get(f)
            if state is not None and state.tree is not None:
                held += len(state.text)
        return held > self._tree_text_budget

    def _restore(self, file: FileId, revision: int) -> Tree | None:
        """The tree of a file whose tree was dropped: a fresh parse, kept again (None when
        the file moved on from `revision`)."""
        with self._lock:
            state = self._files.get(file)
            if state is None or state.revision != revision:
                return None
            if state.tree is None:
                state = replace(state, tree=self._parser.parse(state.text))
                self._files[file] = state
                self._touch(file)
                self._evict()
            return state.tree

    # -- outputs --------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        with self._lock:
            return Snapshot(dict(self._files), self._default, self._resolver, self.db.revision,
                            self._lint_memos, self, self.db)


class Snapshot:
    """An immutable view of the inputs at one revision, with memoised derived data."""

    def __init__(self, files: dict[FileId, FileState], default: LintOptions,
                 resolver: IncludeResolver | None, revision: int,
                 lint_memos: dict[FileId, LintMemo] | None = None, host: Host | None = None,
                 db: Database | None = None):
        self._files = files
        self._host = host
        # The memo tables the analyses read (analysis/database.py): the Host's; without one,
        # the database of the thread that made the snapshot.
        self.db = db if db is not None else current()
        self._lint_memos = lint_memos if lint_memos is not None else {}
        self._default = default
        self.include_resolver = resolver
        self.revision = revision
        self._memo: dict[tuple[str, FileId], object] = {}
        self._unrecorded: set[FileId] = set()  # read from a parse the host's history does not know

    def files(self) -> Iterable[FileId]:
        return self._files.keys()

    def has_file(self, file: FileId) -> bool:
        return file in self._files

    def text(self, file: FileId) -> bytes:
        return self._files[file].text

    def _state(self, file: FileId) -> FileState:
        """The file's state; a revision with syntax errors read from a fresh parse where the
        host asks for that (`reparse_broken`), as `cllint check` reads the same text."""
        state = self._files[file]
        if state.canonical or (self._host is not None and not self._host.reparse_broken):
            return state
        fresh = self._host._fresh(file, state.revision) if self._host is not None else None
        if fresh is None:  # the host moved on, or there is none: its history cannot say what changed
            fresh = replace(state, tree=Parser(language()).parse(state.text), canonical=True)
            self._unrecorded.add(file)
        self._files[file] = fresh
        return fresh

    def tree(self, file: FileId) -> Tree:
        state = self._state(file)
        if state.tree is not None:
            return state.tree
        return self._cached("tree", file, lambda: self._reparse(file))  # type: ignore[return-value]

    def _reparse(self, file: FileId) -> Tree:
        state = self._files[file]
        tree = self._host._restore(file, state.revision) if self._host is not None else None
        return tree if tree is not None else Parser(language()).parse(state.text)

    def is_canonical(self, file: FileId) -> bool:
        return self._files[file].canonical

    def options(self, file: FileId) -> LintOptions:
        return self._files[file].options or self._default

    def _cached(self, kind: str, file: FileId, compute: Callable[[], object]) -> object:
        key = (kind, file)
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def preprocessor(self, file: FileId):
        key = ("preprocessor", file)
        if key in self._memo:
            return self._memo[key]
        state = self._files[file]
        options = self.options(file)
        with self.db.active():
            return self._cached("preprocessor", file, lambda: build_view(
                file, state.text, target=options.target, defines=dict(options.defines),
                include_resolver=program_resolver(self.include_resolver, options)))

    def diagnostics(self, file: FileId) -> list[Diagnostic]:
        key = ("diagnostics", file)
        if key in self._memo:
            return self._memo[key]  # type: ignore[return-value]
        with self.db.active():
            return self._cached("diagnostics", file, lambda: self._lint(file))  # type: ignore[return-value]

    def model(self, file: FileId):
        """The semantic model of `file` for its target, type macros expanded through the
        preprocessor view (IDE features: a hover, the inlay hints and the tokens of one
        revision build it once). Kept in the database by (revision, text object, file): the
        text object tells two snapshots at one revision apart, and the entry holds it."""
        from cllint.analysis.model import SemanticModel

        table = self.db.table("ide.model", 4)  # each holds its tree: what one request mix reads
        text = self.text(file)
        key = (self.revision, id(text), file)
        found = table.touch(key)
        if found is None:
            view = self.preprocessor(file)
            with self.db.active():
                found = table.put(key, SemanticModel(self.tree(file), text, self.options(file).target,
                                                     macro_expander=view.expand_type_macro))
        return found

    def _lint(self, file: FileId) -> list[Diagnostic]:
        """Only functions an edit touched are re-analysed (analysis/incremental.py);
        suppressions apply to the merged result, as in a full run."""
        state = self._state(file)
        options = self.options(file)
        view = self.preprocessor(file)

        cut: list[Diagnostic] = []  # CL091 of a run the budget cut short

        def run(source: bytes, tree: Tree, focus: list[tuple[int, int]] | None,
                local_focus: list[tuple[int, int]] | None, absent: frozenset[bytes] = frozenset()) -> list[Diagnostic]:
            found = lint_tree(file, source, tree, options, preprocessor=view, suppress=False, focus=focus,
                              edited=True, local_focus=local_focus, absent=absent)
            cut[:] = [d for d in found if d.code == BUDGET_CODE] or cut
            return found

        local_codes = frozenset(r.code for r in options.rules() if r.local)
        linter = IncrementalLinter(run, repr(options).encode() + view_key(view), local_codes, source_kind=True,
                                   file=file)
        memo = self._lint_memos.get(file)
        dirty = state.dirty_since(memo.revision) if memo is not None else None
        diags, memo = linter.lint(state.text, self.tree(file), memo, dirty)
        if cut and not any(d.code == BUDGET_CODE for d in diags):
            # A focused run's report sits at the file's start, which the merge takes from the
            # last lint: the cut is said all the same, as a whole-file run says it.
            diags = [*diags, *cut]
        if file in self._unrecorded:  # from a tree the next revision's changed ranges were not measured against
            self._lint_memos.pop(file, None)
        elif not cut:
            self._lint_memos[file] = replace(memo, revision=state.revision)
        # else cut short by the analysis budget: nothing of it may stand in for a full result;
        # the last complete lint's memo stays, so the next lint re-analyses what changed since
        # it, not the whole file (which, on a loaded machine, the budget would cut again).
        return suppress_all(file, state.text, diags, options)

    def lint_stats(self, file: FileId) -> dict[str, int]:
        memo = self._lint_memos.get(file)
        return dict(memo.stats) if memo else {}


def view_key(view) -> bytes:
    """Facts of the preprocessor view outside function bodies change the skeleton key;
    its diagnostics (include resolution, unbalanced groups) stand for them cheaply, the
    digest of its macros for the `#define`s of included headers, which the file's own text
    does not show (a macro may stand for a barrier in any function), and the digest of the
    headers' declarations for the names they declare."""
    diags = repr([(d.code, d.message) for d in getattr(view, "diagnostics", ())]).encode()
    state = getattr(view, "macro_state_at", None)
    if state is None:
        return diags
    # What the headers declare (any arm, any depth): the name checks read it in every body.
    from cllint.analysis.semantic.headers import key

    return diags + state(1 << 62) + key(view)
