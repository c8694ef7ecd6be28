"""Which of several sources sharing a name a host means (issue 29): benchmark suites keep a
`kernel.cl` (and a `common.cl`) in each folder beside its host, which opens them by bare name.
The source meant is the one nearest the host by folders; two equally near, neither."""

from __future__ import annotations

from pathlib import Path


def nearest(host: Path, sources: list[Path]) -> Path | None:
    """The source nearest `host` by folders (up to a common folder, then down); None on a tie."""
    if len(sources) == 1:
        return sources[0]
    here = host.parent.parts
    steps = sorted((_distance(here, s.parent.parts), i) for i, s in enumerate(sources))
    if steps[0][0] == steps[1][0]:
        return None
    return sources[steps[0][1]]


def _distance(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return (len(a) - common) + (len(b) - common)
