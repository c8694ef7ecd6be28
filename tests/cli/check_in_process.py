"""`cllint check` run in a fresh interpreter that reports what the run imported: the modules a
file does not need must stay unimported (start-up cost, issue 32)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROGRAM = ("import sys, io, contextlib\n"
           "from cllint.cli.main import main\n"
           "out = io.StringIO()\n"
           "with contextlib.redirect_stdout(out):\n"
           "    main(sys.argv[1:])\n"
           "print(repr(out.getvalue()))\n"
           "print(sorted(m for m in sys.modules))\n")


def check_with_modules(tmp_path: Path, *args: str) -> tuple[str, set[str]]:
    """What `cllint check --no-cache --exit-zero ARGS` printed, and every module it imported."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", PROGRAM, "check", "--no-cache", "--exit-zero", *args],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    shown, modules = run.stdout.strip().splitlines()[-2:]
    return eval(shown), set(eval(modules))  # noqa: S307 - our own program's repr
