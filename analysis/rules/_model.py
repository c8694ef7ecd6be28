"""The semantic model of a rule context, built once per context and shared by the rules.

Temporary home: the lint driver will build the model itself and fill `ctx.model`.
"""

from __future__ import annotations

from cllint.analysis.model import SemanticModel
from cllint.analysis.rules.base import RuleContext


def model_for(ctx: RuleContext) -> SemanticModel:
    """`ctx.model`, built on first use from the tree, the source, the target and the macros."""
    if ctx.model is None:
        view = ctx.preprocessor
        expander = view.expand_type_macro if view is not None else None
        # Remembering function heads pays only when the file is linted again after edits.
        state = getattr(view, "macro_state_at", None) if ctx.options.get("edited") else None
        ctx.model = SemanticModel(ctx.tree, ctx.source, ctx.target, macro_expander=expander, macro_state=state)
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
