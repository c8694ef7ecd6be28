"""The semantic model of a rule context, built once per context and shared by the rules.

Temporary home: the lint driver will build the model itself and fill `ctx.model`.
"""

from __future__ import annotations

from functools import cache

from cllint.analysis.addrspace.declarations import FIELDS, TYPE_QUALIFIER
from cllint.analysis.gating.half_access import ACCESSES
from cllint.analysis.addrspace.expressions import VISITED
from cllint.analysis.gating.uses import VISIT_ALL
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.symbols import WALKED
from cllint.analysis.model.walk import KindIndex
from cllint.analysis.rules.base import RuleContext


# The kinds the restriction rules (restrictions.py) read: here, below the rules that import
# this module, so that the index knows them without importing the rules.
RESTRICTION_KINDS = frozenset({"function_declarator", "abstract_function_declarator", "bitfield_clause",
                               "storage_class_specifier", "array_declarator"})


@cache
def _indexed() -> frozenset[str]:
    """Every kind that the model's walks, the address-space checks, gating and the
    restriction rules read."""
    return WALKED | VISITED | TYPE_QUALIFIER | FIELDS | ACCESSES | VISIT_ALL | RESTRICTION_KINDS


# Past this size the index's node objects cost tens of MiB at once (a 2.4 MB hashcat file:
# +31 MiB peak) for a few percent of the time: queries per question instead.
_INDEX_MAX_BYTES = 1 << 20


def kind_index(ctx: RuleContext) -> KindIndex | None:
    """One walk of the whole tree for every analysis of a full lint (see `KindIndex`);
    None for a focused run (an edit's few functions: a whole-tree pass would cost more than
    it saves), for an editor's buffer (its first full run too: the index holds a node object
    per indexed node at once, a peak that stays in the server's memory as fragmentation, for 4%
    of one analysis) and for a tree with errors."""
    if ctx.focus is not None or ctx.options.get("edited") or len(ctx.source) > _INDEX_MAX_BYTES:
        return None
    found = getattr(ctx, "_kinds", False)
    if found is False:
        found = KindIndex.of(ctx.tree.root_node, _indexed())
        ctx._kinds = found  # type: ignore[attr-defined]
    return found


def model_for(ctx: RuleContext) -> SemanticModel:
    """`ctx.model`, built on first use from the tree, the source, the target and the macros."""
    if ctx.model is None:
        view = ctx.preprocessor
        expander = view.expand_type_macro if view is not None else None
        # Remembering function heads pays only when the file is linted again after edits.
        state = getattr(view, "macro_state_at", None) if ctx.options.get("edited") else None
        strict = ctx.options.get("mode") == "target"
        # The types the headers declare, where every include is read (else as without them); a
        # file without an `#include` has none (header_types.imported's answer, without its import).
        headers = None
        if view is not None and any(d.kind == "include" for d in getattr(view, "directives", None) or ()):
            from cllint.analysis.semantic.header_types import imported

            headers = imported(view, ctx.tree, ctx.target, strict)
        ctx.model = SemanticModel(ctx.tree, ctx.source, ctx.target, macro_expander=expander, macro_state=state,
                                  kinds=kind_index(ctx), strict_generic=strict, imported=headers)
    return ctx.model


def active(ctx: RuleContext, offset: int) -> bool:
    """False only where the preprocessor knows the code is compiled out."""
    view = ctx.preprocessor
    if view is None:
        return True
    try:
        return view.active_at(offset) is not False
    except Exception:  # noqa: BLE001 - someone else's code; never stop a rule over it
        return True
