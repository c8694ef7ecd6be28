"""CPU of each analysis family in one `cllint check` of a file, in process (issue 32).

Imports and first-use costs are paid on a one-line kernel first; then the file is checked
once with `time.process_time` taken around each family's entry (the outermost call only),
so the machine's load, which wall time would count, counts little. Run it under each tree
to compare (`PYTHONPATH=DIR`, DIR laid out as bench/startup_bench.py's `--baseline` says),
alternating trees, several times: the figures vary by ~10% between runs on 2 shared cores.

    PYTHONPATH=DIR .venv/bin/python bench/family_cpu.py [FILE]   # default: the generated kernel
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup_bench import ONE_LINE, generated_kernel  # noqa: E402

FAMILIES = {
    "races": ("cllint.analysis.races.check", "analyse_races"),
    "uniformity": ("cllint.analysis.uniformity.summaries", "analyse_file"),
    "semantic": ("cllint.analysis.semantic", "findings"),
    "address spaces": ("cllint.analysis.addrspace.check", "analyse"),
    "nodes_of_kinds": ("cllint.analysis.model.walk", "nodes_of_kinds"),
}


def _check(path: Path) -> None:
    from cllint.cli.main import main

    with contextlib.redirect_stdout(io.StringIO()):
        main(["check", "--no-cache", "--exit-zero", "--format", "json", str(path)])


def _timed(fn: Callable, spent: dict[str, float], label: str) -> Callable:
    depth = [0]

    def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        if depth[0]:
            return fn(*args, **kwargs)
        depth[0] += 1
        t0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            depth[0] -= 1
            spent[label] = spent.get(label, 0.0) + time.process_time() - t0

    return wrapper


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp, "one_line.cl")
        one.write_text(ONE_LINE)
        target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp, "generated_1500.cl")
        if len(sys.argv) <= 1:
            target.write_text(generated_kernel(1500))
        _check(one)
        spent: dict[str, float] = {}
        for label, (module, name) in FAMILIES.items():
            fn = getattr(importlib.import_module(module), name)
            wrapped = _timed(fn, spent, label)
            for mod in list(sys.modules.values()):  # every module that imported the name
                names = getattr(mod, "__dict__", None)
                if names:
                    for key, value in list(names.items()):
                        if value is fn:
                            names[key] = wrapped
        t0 = time.process_time()
        _check(target)
        total = time.process_time() - t0
    print(f"lint CPU {total * 1000:.1f} ms: " + ", ".join(f"{k} {v * 1000:.1f}" for k, v in spent.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
