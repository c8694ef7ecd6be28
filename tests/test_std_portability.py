"""Issue 30: `--std` is a language version, not a device; deprecations are hints; CL308 in
target mode without fp64. The CLI, the configuration file, `[[program]]` and the editor's
settings must read these the same way (cllint/config.py `lint_options` for all of them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lsprotocol import types

from cllint.analysis.diagnostics import Severity, Tag
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.config import ProgramSpec, Settings, lint_options
from cllint.grammar import parse
from cllint.project.model import apply_configured
from cllint.server import convert
from cllint.server.convert import LineIndex
from cllint.server.settings import EditorSettings
from cllint.server.settings import lint_options as editor_lint_options

FP64_UNDER_FP16 = b"""#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *h, global double *d) { d[0] = (double)vload_half(0, h); }
#endif
"""
LEGACY_ATOMIC = b"kernel void k(global int *o) { atomic_inc(o); }\n"
LITERAL = b"kernel void k(global float *o, float x) { o[0] = x * 0.5; }\n"


def codes(source: bytes, options: LintOptions) -> list[str]:
    return [d.code for d in lint_tree("k.cl", source, parse(source), options)]


# -- class 1: what selects the mode --------------------------------------------------------


def test_std_alone_is_portability_at_that_version() -> None:
    o = lint_options(Settings(std="CL2.0"))
    assert (o.mode, o.std, str(o.target.version)) == ("portability", "CL2.0", "2.0")


def test_a_device_selects_target_mode() -> None:
    for s in (Settings(target="CL2.0"), Settings(features="+cl_khr_fp64"),
              Settings(std="CL3.0", features="-all,+__opencl_c_fp64")):
        o = lint_options(s)
        assert o.mode == "target" and o.std is None, s


def test_std_alone_checks_code_under_another_features_guard() -> None:
    """`double` under `#ifdef cl_khr_fp16`: the old reading (a bare 2.0 device, the arm never
    compiled) said nothing; portability at 2.0 asks for the fp64 guard. `--target CL2.0` keeps
    the old reading."""
    assert codes(FP64_UNDER_FP16, lint_options(Settings(std="CL2.0", select=["CL3"]))) == ["CL301"]
    assert codes(FP64_UNDER_FP16, lint_options(Settings(target="CL2.0", select=["CL3"]))) == []


def test_std_alone_takes_the_versions_mandatory_features_as_present() -> None:
    src = b"kernel void k(global int *o) { int *p = o; generic int *q = o; *p = work_group_reduce_add(*q); }\n"
    assert codes(src, lint_options(Settings(std="CL2.0", select=["CL3"]))) == []
    assert set(codes(src, lint_options(Settings(std="CL3.0", select=["CL3"])))) == {"CL301"}
    assert set(codes(src, lint_options(Settings(std="CL1.2", select=["CL3"])))) == {"CL303"}


def test_no_target_only_rule_fires_for_std_alone() -> None:
    src = b"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nkernel void k(global long *l) { atom_add(l, 1L); }\n"
    got = codes(src, lint_options(Settings(std="CL2.0", select=["CL3"])))
    assert "CL302" not in got and "CL307" not in got and got == ["CL301"]
    assert set(codes(src, lint_options(Settings(target="CL2.0", select=["CL3"])))) == {"CL302", "CL307"}


def test_configuration_file_and_editor_agree(tmp_path: Path) -> None:
    (tmp_path / ".cllint.toml").write_text('std = "CL2.0"\n')
    path = tmp_path / "k.cl"
    path.write_bytes(FP64_UNDER_FP16)
    from cllint.config import find_config, load_config

    from_file = lint_options(load_config(find_config(path)))
    from_editor = editor_lint_options(path, EditorSettings())
    assert (from_file.mode, from_file.std) == (from_editor.mode, from_editor.std) == ("portability", "CL2.0")
    targeted = editor_lint_options(path, EditorSettings(target="CL2.0"))
    assert (targeted.mode, targeted.std) == ("target", None)


def test_a_programs_cl_std_is_the_language_version(tmp_path: Path) -> None:
    src = tmp_path / "k.cl"
    src.write_bytes(LITERAL)
    spec = ProgramSpec(sources=(src,), std="CL2.0")
    portable = apply_configured(spec, 0, lint_options(Settings()), Settings())
    assert (portable.mode, portable.std, str(portable.target.version)) == ("portability", "CL2.0", "2.0")
    device = Settings(features="+cl_khr_fp64")
    targeted = apply_configured(spec, 0, lint_options(device), device)
    assert targeted.mode == "target" and targeted.target.version.std == "CL2.0" and targeted.target.has("cl_khr_fp64")


# -- class 4: deprecations are hints ----------------------------------------------------------


def test_deprecation_is_a_hint_with_the_deprecated_tag() -> None:
    diags = lint_tree("k.cl", LEGACY_ATOMIC, parse(LEGACY_ATOMIC), lint_options(Settings(target="CL2.0")))
    d = next(d for d in diags if d.code == "CL304")
    assert d.severity is Severity.HINT and Tag.DEPRECATED in d.tags
    lsp = convert.to_lsp_diagnostic(d, LineIndex(LEGACY_ATOMIC))
    assert lsp.severity == types.DiagnosticSeverity.Hint and list(lsp.tags) == [types.DiagnosticTag.Deprecated]
    assert convert.to_lsp_json(d, LineIndex(LEGACY_ATOMIC))["severity"] == types.DiagnosticSeverity.Hint.value


def cllint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, timeout=120)


def test_cli_leaves_hints_out_unless_selected(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_bytes(LEGACY_ATOMIC)
    quiet = cllint("--target", "CL2.0", "k.cl", cwd=tmp_path)
    assert quiet.returncode == 0 and b"CL304" not in quiet.stdout, quiet.stdout
    for flag in ("--select", "--extend-select"):
        shown = cllint("--target", "CL2.0", flag, "CL304", "--format", "json", "k.cl", cwd=tmp_path)
        rows = json.loads(shown.stdout)
        assert shown.returncode == 1 and [(r["code"], r["severity"]) for r in rows] == [("CL304", "hint")], flag
    (tmp_path / ".cllint.toml").write_text('target = "CL2.0"\nextend-select = ["CL304"]\n')
    assert b"CL304" in cllint("k.cl", cwd=tmp_path).stdout


# -- class 5: CL308 in target mode without fp64 ---------------------------------------------------


def test_double_literal_without_fp64_is_reported_by_default(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_bytes(LITERAL)
    r = cllint("--target", "CL3.0", "--format", "json", "k.cl", cwd=tmp_path)
    rows = json.loads(r.stdout)
    assert r.returncode == 1 and [(x["code"], x["severity"]) for x in rows] == [("CL308", "warning")]
    assert "requires cl_khr_fp64 and __opencl_c_fp64" in rows[0]["message"]
    old = cllint("--target", "CL1.2", "--format", "json", "k.cl", cwd=tmp_path)
    assert "requires cl_khr_fp64, which" in json.loads(old.stdout)[0]["message"]


def test_double_literal_stays_a_preview_rule_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_bytes(LITERAL)
    for args in (["--std", "CL3.0"], ["--target", "CL3.0-all"], []):
        r = cllint(*args, "k.cl", cwd=tmp_path)
        assert r.returncode == 0 and b"CL308" not in r.stdout, args
    preview = cllint("--std", "CL3.0", "--preview", "--format", "json", "k.cl", cwd=tmp_path)
    assert [(x["code"], x["severity"]) for x in json.loads(preview.stdout)] == [("CL308", "info")]


def test_a_double_literal_spelled_through_a_macro_is_reported_where_it_is_used() -> None:
    src = b"#define HALF 0.5\n#define SCALE(x) ((x) * HALF)\nkernel void k(global float *o) { o[0] = SCALE(o[1]); }\n"
    diags = lint_tree("k.cl", src, parse(src), lint_options(Settings(target="CL3.0", select=["CL308"])))
    assert [(d.code, src[d.span.start:d.span.end]) for d in diags] == [("CL308", b"SCALE")]
    assert "'0.5' (from macro 'SCALE')" in diags[0].message
