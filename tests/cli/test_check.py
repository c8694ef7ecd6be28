"""`cllint check` end to end, as a user runs it: a subprocess, real files, real exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BROKEN = b"kernel void k(global int *o, int v)\n{\n    o[get_global_id(0)] = v\n}\n"
CLEAN = b"kernel void k(global int *o, int v)\n{\n    o[get_global_id(0)] = v;\n}\n"


def cllint(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", *args], cwd=cwd, input=stdin,
                          capture_output=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bad.cl").write_bytes(BROKEN)
    (tmp_path / "src" / "good.clh").write_bytes(CLEAN)
    (tmp_path / "src" / "notes.txt").write_text("not a kernel")
    return tmp_path


def test_clean_file_exits_zero_and_is_quiet(project: Path) -> None:
    r = cllint("check", "--no-cache", "src/good.clh", cwd=project)
    assert r.returncode == 0
    assert r.stdout == b""


def test_text_output_points_at_the_error(project: Path) -> None:
    r = cllint("check", "--no-cache", "src", cwd=project)
    assert r.returncode == 1
    out = r.stdout.decode()
    assert "src/bad.cl:3:28: CL001 expected ';'" in out
    assert "3 |     o[get_global_id(0)] = v" in out and "^" in out
    assert "good.clh" not in out and "notes.txt" not in out
    assert "Found 1 problem in 2 files." in r.stderr.decode()


def test_json_contract(project: Path) -> None:
    r = cllint("check", "--no-cache", "--format", "json", "src", cwd=project)
    rows = json.loads(r.stdout)
    assert rows == [{
        "path": "src/bad.cl", "line": 3, "column": 28, "end_line": 3, "end_column": 28,
        "code": "CL001", "severity": "error", "message": "expected ';'",
    }]


def test_sarif_is_valid_2_1_0(project: Path) -> None:
    r = cllint("check", "--no-cache", "--format", "sarif", "src", cwd=project)
    doc = json.loads(r.stdout)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    res = run["results"][0]
    assert res["ruleId"] == "CL001" and ids[res["ruleIndex"]] == "CL001"
    assert res["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    assert res["partialFingerprints"]["primaryLocationLineHash"]


def test_github_annotations(project: Path) -> None:
    r = cllint("check", "--no-cache", "--format", "github", "src/bad.cl", cwd=project)
    assert r.stdout.decode().startswith("::error file=src/bad.cl,line=3,col=28,")


def test_select_and_ignore_by_prefix(project: Path) -> None:
    assert cllint("check", "--no-cache", "--ignore", "CL0", "src", cwd=project).returncode == 0
    assert cllint("check", "--no-cache", "--select", "CL001", "src", cwd=project).returncode == 1
    assert cllint("check", "--no-cache", "--exit-zero", "src", cwd=project).returncode == 0


def test_stdin_with_filename(project: Path) -> None:
    r = cllint("check", "--no-cache", "-", "--stdin-filename", "k.cl", cwd=project, stdin=BROKEN)
    assert r.returncode == 1 and b"k.cl:3:28: CL001" in r.stdout


def test_inline_and_file_suppressions(project: Path) -> None:
    (project / "s.cl").write_bytes(BROKEN.replace(b"= v\n", b"= v // cllint: ignore[CL001]\n"))
    assert cllint("check", "--no-cache", "s.cl", cwd=project).returncode == 0
    (project / "f.cl").write_bytes(b"// cllint: file-ignore[CL0]\n" + BROKEN)
    assert cllint("check", "--no-cache", "f.cl", cwd=project).returncode == 0
    (project / "u.cl").write_bytes(b"// cllint: ignore[CL201]\n" + CLEAN)
    r = cllint("check", "--no-cache", "--extend-select", "CL090", "u.cl", cwd=project)
    assert r.returncode == 1 and b"CL090 suppression of 'CL201' suppresses no diagnostic" in r.stdout
    # clang's CL099 and the device's CL9xx come from outside the lint: not judged unused here
    (project / "o.cl").write_bytes(CLEAN.replace(b"= v;", b"= v; // cllint: ignore[CL099, CL901]"))
    r = cllint("check", "--no-cache", "--extend-select", "CL090", "o.cl", cwd=project)
    assert r.returncode == 0, r.stdout


def test_config_file_is_found_upward_and_cli_wins(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.cllint]\nignore = ["CL001"]\n')
    assert cllint("check", "--no-cache", "src", cwd=project).returncode == 0
    assert cllint("check", "--no-cache", "--select", "CL001", "--ignore", "CL9", "src", cwd=project).returncode == 0
    (project / ".cllint.toml").write_text('select = ["CL001"]\n')
    assert cllint("check", "--no-cache", "src", cwd=project).returncode == 1


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ('[tool.cllint]\nselcet = ["CL2"]\n', "pyproject.toml:2: unknown option 'selcet'"),
        ('[tool.cllint]\nselect = ["XX9"]\n', "pyproject.toml:2:"),
        ("[tool.cllint\nselect = 1\n", "pyproject.toml:1:"),
    ],
)
def test_config_errors_name_file_and_line(project: Path, config: str, expected: str) -> None:
    (project / "pyproject.toml").write_text(config)
    r = cllint("check", "--no-cache", "src", cwd=project)
    assert r.returncode == 2
    err = r.stderr.decode()
    assert expected in err and "Traceback" not in err


def test_bad_inputs_are_reported_and_the_rest_linted(project: Path) -> None:
    (project / "src" / "blob.cl").write_bytes(b"\x00\x01\x02binary")
    (project / "src" / "latin1.cl").write_bytes(b"// caf\xe9\n" + CLEAN)
    (project / "src" / "empty.cl").write_bytes(b"")
    r = cllint("check", "--no-cache", "src", "missing.cl", cwd=project)
    assert r.returncode == 2 and b"missing.cl: no such file or directory" in r.stderr
    r = cllint("check", "--no-cache", "src", cwd=project)
    err = r.stderr.decode()
    assert r.returncode == 1 and "blob.cl: binary file, skipped" in err and "Traceback" not in err
    assert b"bad.cl:3:28" in r.stdout and b"latin1" not in r.stdout
    assert cllint("check", "--nope", cwd=project).returncode == 2
    assert cllint("check", "--select", "CL9999", "src", cwd=project).returncode == 2


def test_fix_applies_only_safe_fixes(project: Path) -> None:
    # CL001 has no fix: --fix must leave the file untouched and still report it.
    before = (project / "src" / "bad.cl").read_bytes()
    r = cllint("check", "--no-cache", "--fix", "src/bad.cl", cwd=project)
    assert r.returncode == 1 and (project / "src" / "bad.cl").read_bytes() == before


def test_cache_gives_the_same_results(project: Path, tmp_path: Path, monkeypatch) -> None:
    env_home = tmp_path / "cache"
    entries = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-m", "cllint", "check", "--format", "json", "src"], cwd=project,
                           capture_output=True, env={"XDG_CACHE_HOME": str(env_home), "PATH": "/usr/bin:/bin"})
        assert [row["code"] for row in json.loads(r.stdout)] == ["CL001"]
        entries.append(sorted(p.name for p in env_home.rglob("*") if p.is_file()))
    # the second run (another process, another string-hash seed) hits what the first wrote
    assert entries[0] and entries[1] == entries[0]


def test_cache_key_follows_the_installed_code(monkeypatch) -> None:
    """A reinstall under the same version (a newer checkout) must not reuse old results:
    the key covers the analysis code and the compiled parser as installed."""
    from cllint import results_cache
    from cllint.analysis.lint import LintOptions
    from cllint.cli import engine

    job = engine.Job("k.cl", b"kernel void k() {}\n", LintOptions(), True)
    before = engine._key(job)
    stamp = results_cache.code_stamp()
    assert stamp and before == engine._key(job)
    monkeypatch.setattr(results_cache, "code_stamp", lambda: stamp + b"changed")
    assert engine._key(job) != before


def test_rules_and_explain() -> None:
    r = cllint("rules", cwd=Path.cwd())
    assert r.returncode == 0 and b"CL001  syntax-error" in r.stdout
    r = cllint("explain", "CL001", cwd=Path.cwd())
    assert b"## What it does" in r.stdout and b"## OpenCL spec" in r.stdout
    assert cllint("explain", "CL999", cwd=Path.cwd()).returncode == 2


def _aged(path: Path, text: str) -> None:
    """Writes `text` and dates it 10 s back: the cache stores no result that read a file
    changed in the last 2 s (a second write within its timestamp's granularity)."""
    path.write_text(text)
    old = path.stat().st_mtime - 10
    os.utime(path, (old, old))


def test_cache_follows_what_includes_read(tmp_path: Path, monkeypatch) -> None:
    """An included `.cl` file changed, or a missing header created, is a miss; an untouched
    one a hit (hashcat includes `.cl` files; no folder listing can tell)."""
    from cllint.analysis.lint import LintOptions
    from cllint.cli import engine

    monkeypatch.setattr(engine, "CACHE_DIR", tmp_path / "cache")
    kernel = b'#include "space.cl"\n#include "later.h"\nkernel void k(global int *g) { AS int *p = g; }\n'
    main = tmp_path / "k.cl"
    main.write_bytes(kernel)
    _aged(tmp_path / "space.cl", "#define AS __local\n")
    job = engine.Job(str(main), kernel, LintOptions(), True)

    def codes() -> list[str]:
        return sorted(d.code for d in engine.run_job(job))

    assert codes() == ["CL002", "CL101"]  # later.h is missing; a __global pointer into __local
    assert engine._cached(job) is not None  # stored, and a hit while nothing changed
    _aged(tmp_path / "space.cl", "#define AS __global\n")
    assert engine._cached(job) is None
    assert codes() == ["CL002"]
    _aged(tmp_path / "later.h", "\n")
    assert engine._cached(job) is None  # a header that now exists
    assert codes() == []
    (tmp_path / "space.cl").write_text("#define AS __local\n")  # just now: not stored
    assert codes() == ["CL101"] and engine._cached(job) is None
