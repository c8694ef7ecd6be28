"""The harness of the labelled-workspace tests (issue 29): case folders under
`fixtures/<set>/{tune,heldout}/<case>`, each a small workspace with `EXPECT` (the reports wanted,
`file code line` a line, an optional fourth word; empty: none) and `BUILD` (`key: value` lines
saying how the host or build compiles it), checked as a user runs `cllint check .` in it."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
CLANG = shutil.which("clang-19")


def cases(name: str) -> list[Path]:
    return sorted(p for p in (FIXTURES / name).glob("*/*") if p.is_dir())


def case_id(case: Path) -> str:
    return f"{case.parent.name}/{case.name}"


def expect_lines(case: Path) -> list[list[str]]:
    return [line.split() for line in (case / "EXPECT").read_text().splitlines() if line.strip()]


def expected(case: Path) -> list[tuple[str, str, int]]:
    return sorted((name, code, int(at)) for name, code, at, *_ in expect_lines(case))


def build_fields(case: Path) -> dict[str, str]:
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in (case / "BUILD").read_text().splitlines()
                                              if ":" in line)}


def build(case: Path) -> tuple[list[str], list[str]]:
    """The build's options and its sources in order."""
    fields = build_fields(case)
    return shlex.split(fields.get("options", "")), fields.get("sources", "").split()


def reports(case: Path, keep: frozenset[str] = frozenset()) -> list[tuple[str, str, int]]:
    """What `cllint check .` reports in the case, notes left out but for the codes in `keep`."""
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", "."], cwd=case, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return sorted((Path(r["path"]).name, r["code"], r["line"]) for r in json.loads(done.stdout)
                  if r["severity"] != "info" or r["code"] in keep)


def clang_build(case: Path, tmp_path: Path, std: str, *flags: str) -> subprocess.CompletedProcess[str]:
    """clang-19 on the program as the case's `BUILD` says: its sources joined in order, its
    options after `flags`, run in the case's folder (relative `-include`/`-I` paths resolve)."""
    options, sources = build(case)
    program = tmp_path / "program.cl"
    program.write_bytes(b"".join((case / s).read_bytes() for s in sources))
    return subprocess.run([CLANG or "clang-19", "-x", "cl", f"-cl-std={std}", "-target", "spir64", "-fsyntax-only",
                           *flags, *options, str(program)], capture_output=True, text=True, timeout=60, cwd=case)


def write_workspace(root: Path, files: dict[str, str]) -> None:
    """A workspace written from `{relative path: text}`."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def check_json(root: Path, *args: str) -> list[dict]:
    """`cllint check --no-cache --format json --exit-zero ARGS` in `root` (`.` unless named)."""
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", *(args or (".",))], cwd=root, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)

