"""`cllint check` as a program pauses the collector while it starts (its modules, classes and
tables, ~100,000 objects, all live to the end: collecting them is wasted work, issue 32),
then freezes what start-up made, the selected rule families included, and collects only
what the lint makes. In-process callers keep their collector as it was."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from cllint.cli.main import main

PROGRAM = ("import gc, sys\n"
           "import cllint.analysis.lint as lint\n"
           "seen = []\n"
           "run_rules = lint.run_rules\n"
           "def spy(*a, **k):\n"
           "    seen.append((gc.isenabled(), gc.get_freeze_count() > 1000,\n"
           "                 'cllint.analysis.rules.semantic' in sys.modules))\n"
           "    return run_rules(*a, **k)\n"
           "lint.run_rules = spy\n"
           "import atexit\n"
           "atexit.register(lambda: print('seen', seen, file=sys.stderr))\n"
           "from cllint.cli.main import main\n"
           "sys.exit(main())\n")

CASES = {  # kernel -> the codes reported
    "clean": ("__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n", []),
    "undeclared": ("__kernel void k(__global int *a) { a[0] = undeclared; }\n", ["CL010"]),
}


def _program(tmp_path: Path, source: str, *options: str) -> tuple[list[str], str]:
    path = tmp_path / "k" / "k.cl"
    path.parent.mkdir(exist_ok=True)
    path.write_text(source)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", PROGRAM, "check", "--no-cache", "--exit-zero", "--format", "json",
                          *options, str(path)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    return [d["code"] for d in json.loads(run.stdout)], run.stderr


def test_rules_run_with_the_collector_on_and_start_up_frozen(tmp_path: Path) -> None:
    for source, codes in CASES.values():
        found, err = _program(tmp_path, source)
        assert found == codes
        assert "seen [(True, True, True)]" in err, err


def test_a_narrow_selection_still_imports_only_its_families(tmp_path: Path) -> None:
    found, err = _program(tmp_path, CASES["undeclared"][0], "--select", "CL2")
    assert found == []
    assert "seen [(True, True, False)]" in err, err  # the semantic family was not imported


def test_in_process_the_collector_is_left_as_it_was(tmp_path: Path, capsys) -> None:
    path = tmp_path / "k.cl"
    path.write_text(CASES["undeclared"][0])
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    assert main(["check", "--no-cache", "--exit-zero", "--format", "json", str(path)]) == 0
    assert (gc.get_freeze_count(), gc.isenabled()) == (frozen, enabled)
    assert [d["code"] for d in json.loads(capsys.readouterr().out)] == ["CL010"]
