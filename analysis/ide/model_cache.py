"""The semantic model of one file in one snapshot, memoised by (snapshot revision, file).

Belongs in `Snapshot` as a query (`snap.model(file)`, next to `snap.preprocessor(file)`);
until analysis/db.py grows it, IDE features share this small cache so that a hover, the
inlay hints and the tokens of one revision build the model once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from cllint.analysis.diagnostics import FileId
from cllint.analysis.model import SemanticModel

MAX_ENTRIES = 4  # each holds its tree: a few files' worth is what one request mix reads
_lock = threading.Lock()
_cache: OrderedDict[tuple[int, int, FileId], SemanticModel] = OrderedDict()


def model(snap, file: FileId) -> SemanticModel:
    """`SemanticModel` of `file` for its target, type macros expanded through the preprocessor view."""
    # The text object tells two Hosts at the same revision apart; the cached model holds
    # that object, so its id cannot be reused while the entry lives.
    key = (snap.revision, id(snap.text(file)), file)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    view = snap.preprocessor(file)
    built = SemanticModel(snap.tree(file), snap.text(file), snap.options(file).target,
                          macro_expander=view.expand_type_macro)
    with _lock:
        _cache[key] = built
        while len(_cache) > MAX_ENTRIES:
            _cache.popitem(last=False)
    return built
