"""Work-group and sub-group uniformity analysis over a per-function control-flow graph.

Layers: `names` (light name resolution, to be replaced by the semantic model),
`cfg` (control-flow graph, post-dominators, control dependence), `dataflow`
(which values and branches vary between work-items), `summaries` (per-function
facts and the per-file driver the CL2xx rules read).
"""

from cllint.analysis.uniformity.summaries import FileUniformity, analyse_file

__all__ = ["FileUniformity", "analyse_file"]
