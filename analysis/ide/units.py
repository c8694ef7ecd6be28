"""A file with what IDE features read of it: text, tree, semantic model, preprocessor view;
and the files it #includes (transitively), read through the snapshot when open and through
the snapshot's include resolver otherwise. Pure: the resolver is injected by the caller."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Parser, Tree

from cllint.analysis.diagnostics import FileId
from cllint.analysis.ide.model_cache import model as model_of
from cllint.analysis.model import SemanticModel
from cllint.analysis.preprocessor.view import PreprocessorView, build_view
from cllint.analysis.preprocessor.view_data import resolve_include
from cllint.grammar import language

MAX_FILES = 64  # files that are not open, kept in the snapshot's database by (file, text, options)


@dataclass(frozen=True, eq=False)
class Unit:
    file: FileId
    text: bytes
    tree: Tree
    model: SemanticModel
    view: PreprocessorView


def unit(snap, file: FileId, text: bytes | None = None, like: FileId | None = None) -> Unit | None:
    """`file` from the snapshot, or parsed from `text` with the options of the open file `like`."""
    if snap.has_file(file):
        return Unit(file, snap.text(file), snap.tree(file), model_of(snap, file), snap.preprocessor(file))
    if text is None or like is None or not snap.has_file(like):
        return None
    options = snap.options(like)
    closed = snap.db.table("ide.closed_units", MAX_FILES)
    key = (file, text, repr(options))
    if (found := closed.touch(key)) is not None:
        return found
    tree = Parser(language()).parse(text)
    with snap.db.active():
        view = build_view(file, text, target=options.target, defines=dict(options.defines),
                          include_resolver=snap.include_resolver)
        u = Unit(file, text, tree, SemanticModel(tree, text, options.target, view.expand_type_macro), view)
    return closed.put(key, u)


def includes(snap, u: Unit, like: FileId) -> list[Unit]:
    """The files `u` includes directly (active or undecided arms, resolved)."""
    out = []
    for ref in u.view.includes:
        if ref.resolved is None or ref.active is False:
            continue
        text = None
        if not snap.has_file(ref.resolved) and snap.include_resolver is not None:
            try:
                got = snap.include_resolver(ref.path, ref.angled, ref.span.file)
            except Exception:  # noqa: BLE001 - a resolver bug must not take the feature down
                got = None
            text = got[1] if got is not None and got[0] == ref.resolved else None
        if (inc := unit(snap, ref.resolved, text, like)) is not None:
            out.append(inc)
    # The sources the file's program reads before it (issue 29): definitions, references and
    # hover follow a name into them as into a header.
    for d in u.view.directives:
        if d.keyword != "prelude" or d.path is None or snap.include_resolver is None:
            continue
        # (an includer's head is a prefix of the includer: its offsets are the includer's own)
        got = resolve_include(snap.include_resolver, d.path, False, u.file)
        if got is not None and (inc := unit(snap, got[0], None if snap.has_file(got[0]) else got[1], like)):
            out.append(inc)
    return out


def closure(snap, file: FileId, limit: int = MAX_FILES) -> list[Unit]:
    """`file` first, then what it includes, breadth first, each file once."""
    first = unit(snap, file)
    if first is None:
        return []
    out, seen, i = [first], {file}, 0
    while i < len(out) and len(out) < limit:
        for inc in includes(snap, out[i], file):
            if inc.file not in seen:
                seen.add(inc.file)
                out.append(inc)
        i += 1
    return out
