"""Data races between work-items of one work-group on __local and __global memory (CL21x).

Layers: `evaluate` (index and guard expressions as integers, given a work-item, loop
counters and samples for unknown uniform values), `accesses` (each subscript of shared
memory with its guards), `check` (barrier intervals and the search for two work-items
that touch one element). Built on the uniformity analysis (analysis/uniformity/).
"""

from cllint.analysis.races.check import Race, analyse_races

__all__ = ["Race", "analyse_races"]
