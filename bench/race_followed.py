"""How much of the public corpus the CL21x analysis follows through helper calls and
pointers derived from shared memory (issue 21): the accesses it checks that a kernel
makes inside a helper, or through a private pointer such as `tile + lid * W`. With
bench/race_noise.py's 0 reports, this says the silence is not from never looking. Also the
prefilter's soundness on real code (analysis/races/prefilter.py): every kernel it lets the
check skip is analysed anyway, and none may have a write to shared memory.

    .venv/bin/python bench/race_followed.py

Kernels are analysed without the preprocessor's view (no macro constants), per half.
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import corpus_files  # noqa: E402
from race_noise import half_of  # noqa: E402

from cllint.analysis.races import check  # noqa: E402
from cllint.analysis.races.prefilter import may_share, may_write  # noqa: E402
from cllint.analysis.uniformity.summaries import file_analysis  # noqa: E402
from cllint.grammar import parse  # noqa: E402


def main() -> int:
    counts = {h: {"kernels": 0, "through helpers": 0, "through derived pointers": 0, "files": 0, "skipped": 0}
              for h in ("tune", "validate")}
    unsound: list[str] = []
    for path in corpus_files(fetch_missing=False):
        src = path.read_bytes()
        if b"local" not in src and b"global" not in src:
            continue
        c = counts[half_of(path)]
        tree = parse(src)
        fa = file_analysis(tree, src, str(path), None, None)
        helpers: dict = {}
        followed = False
        for name in fa.functions:
            if not check._is_kernel(fa.functions[name]):
                continue
            try:
                kernel = check._Kernel(fa, name, None, src, (), helpers)
                accesses = kernel.accesses() if kernel.body is not None else []
            except RecursionError:
                continue
            c["kernels"] += 1
            func = fa.functions[name]
            if not (may_share(src, func.start_byte, func.end_byte) and may_write(func, fa.functions)):
                c["skipped"] += 1
                if any(a.write for a in accesses):
                    unsound.append(f"{path}: {name}")
            inside = sum(a.site is not None for a in accesses)
            derived = sum(bool(a.offset) and a.site is None for a in accesses)
            c["through helpers"] += inside
            c["through derived pointers"] += derived
            followed |= bool(inside or derived)
        c["files"] += followed
    for half, c in counts.items():
        print(f"{half}: {c['kernels']} kernels; accesses followed through helpers {c['through helpers']}, "
              f"through derived pointers {c['through derived pointers']}; files with either {c['files']}; "
              f"kernels the prefilter skips {c['skipped']}")
    for k in unsound:
        print(f"prefilter skipped a kernel that writes shared memory: {k}")
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())
