"""`cllint check` as a program freezes the collector's objects as it ends, so the interpreter's
shutdown does not collect start-up's modules and tables again (issue 32); a caller of `main`
in-process keeps its collector as it was, and the program's output is the same."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from cllint.cli.main import main

KERNEL = "kernel void k(global int *a) { a[get_global_id(0)] = 1; }\n"


def test_in_process_check_leaves_the_collector_alone(tmp_path: Path, capsys) -> None:
    source = tmp_path / "one.cl"
    source.write_text(KERNEL)
    frozen = gc.get_freeze_count()
    assert main(["check", "--no-cache", "--exit-zero", "--format", "json", str(source)]) == 0
    assert gc.get_freeze_count() == frozen
    assert json.loads(capsys.readouterr().out) == []


def test_program_check_output_and_status(tmp_path: Path) -> None:
    source = tmp_path / "bad.cl"
    source.write_text("kernel void k(global int *a) { a[0] = undeclared; }\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    # As the console script runs it (`sys.exit(main())`), with a report of the freeze at exit.
    program = ("import atexit, gc, sys\n"
               "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0, file=sys.stderr))\n"
               "from cllint.cli.main import main\n"
               "sys.exit(main())\n")
    run = subprocess.run([sys.executable, "-c", program, "check", "--no-cache", "--format", "json", str(source)],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 1, run.stderr
    found = json.loads(run.stdout)
    assert [d["code"] for d in found] and all(d["line"] == 1 for d in found)
    # The frozen objects are still torn down: the program exits without a shutdown error.
    assert "frozen True" in run.stderr
    assert "Exception ignored" not in run.stderr and "Traceback" not in run.stderr
