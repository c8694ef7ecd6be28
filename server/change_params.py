"""A didChange's params read straight into lsprotocol's objects (issue 32, session 17).

Every keystroke is one didChange. Through pygls it is structured by cattrs (a generated
function per type, a union of two change kinds told apart by trial) and then dispatched
through a generator and two futures, each with a uuid4: about a third of the event loop's
CPU per keystroke, spent before the analysis thread may start. `change_params` reads the
params when they are exactly the schema's and returns None otherwise, so that pygls's path
answers or logs anything unusual as it always did.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from lsprotocol.validators import INTEGER_MAX_VALUE, INTEGER_MIN_VALUE, UINTEGER_MAX_VALUE

_PARAMS_KEYS = frozenset({"textDocument", "contentChanges"})
_DOC_KEYS = frozenset({"uri", "version"})
_WHOLE_KEYS = frozenset({"text"})
_PARTIAL_KEYS = frozenset({"range", "text"})
_PARTIAL_LENGTH_KEYS = frozenset({"range", "rangeLength", "text"})
_POSITION_KEYS = frozenset({"line", "character"})
_RANGE_KEYS = frozenset({"start", "end"})


def change_params(params: Any) -> types.DidChangeTextDocumentParams | None:
    """`params` as cattrs would structure them, or None when they are not plainly valid."""
    if type(params) is not dict or params.keys() != _PARAMS_KEYS:
        return None
    doc, changes = params["textDocument"], params["contentChanges"]
    if type(doc) is not dict or doc.keys() != _DOC_KEYS or type(changes) is not list:
        return None
    uri, version = doc["uri"], doc["version"]
    if type(uri) is not str or type(version) is not int or not INTEGER_MIN_VALUE <= version <= INTEGER_MAX_VALUE:
        return None
    out: list[types.TextDocumentContentChangeEvent] = []
    for change in changes:
        if type(change) is not dict or type(change.get("text")) is not str:
            return None
        keys = change.keys()
        if keys == _WHOLE_KEYS:
            out.append(types.TextDocumentContentChangeWholeDocument(text=change["text"]))
            continue
        if keys != _PARTIAL_KEYS and keys != _PARTIAL_LENGTH_KEYS:
            return None
        rng = _range(change["range"])
        length = change.get("rangeLength")
        if rng is None or (length is not None and not _uinteger(length)):
            return None
        out.append(types.TextDocumentContentChangePartial(range=rng, text=change["text"], range_length=length))
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=tuple(out))


def _uinteger(x: Any) -> bool:
    return type(x) is int and 0 <= x <= UINTEGER_MAX_VALUE


def _position(p: Any) -> types.Position | None:
    if type(p) is not dict or p.keys() != _POSITION_KEYS:
        return None
    line, character = p["line"], p["character"]
    return types.Position(line=line, character=character) if _uinteger(line) and _uinteger(character) else None


def _range(r: Any) -> types.Range | None:
    if type(r) is not dict or r.keys() != _RANGE_KEYS:
        return None
    start, end = _position(r["start"]), _position(r["end"])
    return types.Range(start=start, end=end) if start is not None and end is not None else None
