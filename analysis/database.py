"""The analysis database (issue 33): every memo of data derived from user input, in one place.

rust-analyzer's salsa model, as far as cllint needs it. A `Host` owns one `Database`; what
the analyses derive from their inputs (file texts, options, target, header contents) is
memoised in the database's tables, keyed by those inputs (a text, its digest, an options
key, a target), never by object identity, so that an entry can be read by any revision
whose inputs are the same. Each table is bounded, with one eviction policy (`Table`);
`clear()` empties them all. A table holding per-file "previous result" memos (a file's
last scan, items, view) is made with `per_file`: its keys are file ids, and `drop_file`
forgets a file in every such table at once.

Which database: the code that computes derived data is called from deep inside the
rules, so it is not handed the database; it asks `current()`. A `Host` makes its database
current while a snapshot computes (`Database.active()`, a context variable, so two Hosts
in one process never read each other's memos; a thread started inside an analysis starts
with no database, see below). A thread or process that runs no Host (`cllint check` in
process and in each of its pool workers, a library caller of `lint_tree`, a test) gets a
database of its own on its first `current()`, kept for that context: its analyses share
memos as one Host's do. The CLI's pool workers and the server's analysis thread each run
one Host or one such database, so the variable does not change in the middle of a run.

Not here: tables that depend on no input (compiled tree-sitter queries, the built-in
catalogue and what is read off it alone); they are immutable once made and stay with
their modules (scripts/structure_allow.txt names them with the reason).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_MISSING = object()


class Table(dict):
    """One memo family: a dict whose `put` keeps at most `limit` entries (None: no bound,
    for tables whose size follows an input already bounded, such as a Host's open files).

    Eviction, the same for every table: past the limit, the oldest quarter of the entries
    (in insertion order) goes. A hit costs a plain `dict.get`; tables whose recently read
    entries matter (a file's previous result, a header read by every lint) re-insert a hit
    with `touch`, which makes insertion order the order of use (least recently used first)."""

    __slots__ = ("name", "limit")

    def __init__(self, name: str, limit: int | None) -> None:
        super().__init__()
        self.name = name
        self.limit = limit

    def put(self, key: Any, value: Any) -> Any:
        self[key] = value
        if self.limit is not None and len(self) > self.limit:
            self.evict()
        return value

    def touch(self, key: Any, default: Any = None) -> Any:
        """The entry for `key`, now the most recently used (`default` if absent)."""
        value = self.pop(key, _MISSING)
        if value is _MISSING:
            return default
        self[key] = value
        return value

    def trim(self) -> None:
        """Evict as `put` does, for a caller that added entries itself (`setdefault` in a loop)."""
        while self.limit is not None and len(self) > self.limit:
            self.evict()

    def evict(self) -> None:
        """Drop the oldest quarter (at least one entry)."""
        drop = max(1, len(self) // 4)
        for key in [k for k, _ in zip(self, range(drop))]:
            del self[key]

    def __repr__(self) -> str:
        return f"Table({self.name!r}, {len(self)}/{self.limit})"


class Database:
    """The memo tables of one Host (or of one thread or process running no Host)."""

    __slots__ = ("revision", "_tables", "_per_file")

    def __init__(self) -> None:
        self.revision = 0  # the Host's input revision: one counter for every input change
        self._tables: dict[str, Table] = {}
        self._per_file: list[Table] = []

    def table(self, name: str, limit: int | None) -> Table:
        """The table `name`, made empty on first use. Callers in a loop fetch it once."""
        got = self._tables.get(name)
        if got is None:
            got = self._tables[name] = Table(name, limit)
        return got

    def per_file(self, name: str, limit: int | None) -> Table:
        """A table of per-file state carried from one revision of a file to the next,
        keyed by the file id; `drop_file` clears a file's entry in each."""
        got = self._tables.get(name)
        if got is None:
            got = self._tables[name] = Table(name, limit)
            self._per_file.append(got)
        return got

    def drop_file(self, file: Any) -> None:
        for t in self._per_file:
            t.pop(file, None)

    def clear(self) -> None:
        """Forget every derived result (the inputs, and the revision, stay with the Host)."""
        for t in self._tables.values():
            t.clear()

    def sizes(self) -> dict[str, int]:
        return {name: len(t) for name, t in self._tables.items()}

    @contextmanager
    def active(self) -> Iterator[Database]:
        """This database is `current()` inside the block (re-entrant; nested blocks of
        another database see theirs)."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)


# The database of the analysis running in this context (see the module's docstring). Its
# values live in each thread's context, not in this module.
_CURRENT: ContextVar[Database | None] = ContextVar("cllint_analysis_database", default=None)


def use(db: Database) -> None:
    """Make `db` current for the rest of this context: a thread that serves one Host (the
    language server's analysis thread) reads its database outside snapshot queries too."""
    _CURRENT.set(db)


def current() -> Database:
    """The database of the running analysis; a context running no Host gets one of its own."""
    db = _CURRENT.get()
    if db is None:
        db = Database()
        _CURRENT.set(db)
    return db
