"""Feature, extension and version gating: what a use of OpenCL C needs, and whether guards hold it.

`uses.collect_uses(tree, source)` lists every use of something optional or versioned;
`guards` decides whether the preprocessor guards around a use imply what it needs.
Rules in analysis/rules/features.py turn both into CL3xx diagnostics.
"""

from .guards import guard_text, is_guarded, is_target_mode, needs_text, preprocessor_view
from .uses import Use, collect_uses

__all__ = ["Use", "collect_uses", "guard_text", "is_guarded", "is_target_mode", "needs_text", "preprocessor_view"]
