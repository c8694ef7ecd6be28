"""CL301 on programs written in double (issue 29): a program whose every kernel takes or returns
double data (or a fragment whose helpers do, with no kernel) cannot be built without fp64, and a
guard only removes its kernels: its host decides (CL_DEVICE_DOUBLE_FP_CONFIG). In portability
mode fp64 is then the program's requirement: no CL301 for it, one information note at the first
kernel. A program with a kernel whose head has no double (float data computed in double, an
integer kernel) reports per function as before, and so does an explicitly chosen target.

Fixtures in tests/rules/fixtures/fp64_programs/{tune,heldout}/, written before the change, in
the format of tests/test_image_programs.py (`// expect: CODE line N`, `// note: line N`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cllint.analysis.diagnostics import Severity
from cllint.analysis.lint import run_rules
from cllint.analysis.registry import all_rules
from cllint.analysis.rules.base import RuleContext
from cllint.analysis.target import Target
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "fp64_programs"
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
NOTE = re.compile(r"^// note: line (\d+)\s*$", re.M)
CL3 = [r for code, r in all_rules().items() if code.startswith("CL3") and r.group.value != "preview"]


def lint(source: bytes, target: str = "CL1.2"):
    options: dict[str, object] = {"mode": "target" if target != "CL1.2" else "portability"}
    ctx = RuleContext(file="t.cl", source=source, tree=parse(source), target=Target.preset(target), options=options)
    return sorted(run_rules(ctx, CL3), key=lambda d: (d.span.start, d.code))


def _line(source: bytes, offset: int) -> int:
    return source.count(b"\n", 0, offset) + 1


def _check(path: Path) -> None:
    source = path.read_bytes()
    text = source.decode()
    diags = lint(source)
    reports = {(d.code, _line(source, d.span.start)) for d in diags if d.severity != Severity.INFO}
    notes = [_line(source, d.span.start) for d in diags if d.severity == Severity.INFO]
    assert reports == {(c, int(n)) for c, n in EXPECT.findall(text)}, [(d.code, d.message) for d in diags]
    assert notes == [int(n) for n in NOTE.findall(text)], [(d.code, d.message) for d in diags]


@pytest.mark.parametrize("path", sorted((FIXTURES / "tune").glob("*.cl")), ids=lambda p: p.stem)
def test_tune(path: Path) -> None:
    _check(path)


@pytest.mark.parametrize("path", sorted((FIXTURES / "heldout").glob("*.cl")), ids=lambda p: p.stem)
def test_heldout(path: Path) -> None:
    _check(path)


def test_the_note_names_the_feature_and_the_host_check_at_the_kernel_name() -> None:
    src = (FIXTURES / "tune" / "all_double.cl").read_bytes()
    (note,) = [d for d in lint(src) if d.severity == Severity.INFO]
    assert note.code == "CL301" and note.fix is None
    assert src[note.span.start:note.span.end] == b"scale"
    assert "'__opencl_c_fp64'" in note.message and "CL_DEVICE_DOUBLE_FP_CONFIG" in note.message


def test_an_explicit_target_without_fp64_still_reports_and_gives_no_note() -> None:
    src = (FIXTURES / "tune" / "all_double.cl").read_bytes()
    diags = lint(src, "CL3.0")
    assert "CL302" in {d.code for d in diags}
    assert not [d for d in diags if d.severity == Severity.INFO and d.code == "CL301"]


def _check_cli(folder: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--format", "json", "--exit-zero", "--no-cache", "."],
                       cwd=folder, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _cl301(found: list[dict]) -> list[tuple[str, str, int]]:
    return sorted((Path(d["path"]).name, d["severity"], d["line"]) for d in found if d["code"] == "CL301")


BASE = "typedef double T;\ntypedef double2 T2;\nT2 twice(T2 a) { return a * (T)2; }\n"


def test_tune_a_kernel_file_including_a_double_base_gets_one_note(tmp_path: Path) -> None:
    (tmp_path / "base.cl").write_text(BASE)
    (tmp_path / "k.cl").write_text('#include "base.cl"\n'
                                   "kernel void go(global T2 *io) { io[0] = twice(io[0]); }\n")
    # k.cl itself writes no double: nothing there (its program's note is base.cl's)
    assert _cl301(_check_cli(tmp_path)) == [("base.cl", "info", 3)]


def test_heldout_an_includer_with_an_integer_kernel_keeps_the_warning(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text("kernel void zero(global int *n) { n[0] = 0; }\n"
                                   "kernel void go(global double *io) { io[0] *= 2.0; }\n")
    assert _cl301(_check_cli(tmp_path)) == [("k.cl", "warning", 2)]


def test_tune_a_fragment_reads_the_typedefs_its_includer_and_itself_include(tmp_path: Path) -> None:
    """The includer's text before the fragment (the prelude) and the fragment's own include name
    one header by two spellings: read once, its typedefs known (they were dropped as declared
    twice, and the prelude's as uncertain)."""
    (tmp_path / "cl").mkdir()
    (tmp_path / "cl" / "base.cl").write_text("#pragma once\n" + BASE)
    (tmp_path / "cl" / "frag.cl").write_text('#pragma once\n#include "base.cl"\n'
                                             "T2 swap(T2 a) { return (T2)(a.y, as_double(1L)); }\n")
    (tmp_path / "cl" / "util.cl").write_text('#include "base.cl"\n#include "frag.cl"\n')
    assert _cl301(_check_cli(tmp_path)) == [("base.cl", "info", 4), ("frag.cl", "info", 3)]
