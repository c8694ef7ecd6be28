"""Data races between work-items of one work-group on __local and __global memory (CL21x).

Layers: `evaluate` (index and guard expressions as integers, given a work-item, loop
counters and samples for unknown uniform values), `definitions` (what a body defines
once), `frames` (what a pointer points into: arrays, pointers derived from them, a
helper's parameters bound to its arguments), `accesses` (each subscript or dereference
of shared memory with its guards), `fences` (barrier flags, through macros), `calls`
(accesses made inside helpers, at the call), `check` (barrier intervals and the search
for two work-items that touch one element). Built on the uniformity analysis
(analysis/uniformity/).
"""

from cllint.analysis.races.check import Race, analyse_races

__all__ = ["Race", "analyse_races"]
