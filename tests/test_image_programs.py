"""CL301 on programs that need images (issue 29): a program whose every kernel takes an image
(or a fragment of helpers taking images, with no kernel) cannot be built without image support,
and no guard inside it helps: its host decides (CL_DEVICE_IMAGE_SUPPORT). In portability mode
the base image feature is then the program's declared requirement: no CL301 for it, one
information note at the first image-taking kernel. The extra image features (3D image writes,
`read_write`, depth, mipmaps) stay reported; a program with a kernel that takes no image, and an
explicitly chosen target, report as before.

Fixtures in tests/rules/fixtures/image_programs/{tune,heldout}/: `// expect: CODE line N`
(warnings and errors), `// note: line N` (the information note), `// target: PRESET` (target
mode), `// std: CL3.0` (portability at that version). Written before the change."""

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

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "image_programs"
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
NOTE = re.compile(r"^// note: line (\d+)\s*$", re.M)
CL3 = [r for code, r in all_rules().items() if code.startswith("CL3") and r.group.value != "preview"]


def lint(source: bytes, target: str = "CL1.2", std: str | None = None):
    options: dict[str, object] = {"mode": "target" if target != "CL1.2" else "portability"}
    if std is not None:
        options["std"] = std
    ctx = RuleContext(file="t.cl", source=source, tree=parse(source),
                      target=Target.preset(std or target), options=options)
    return sorted(run_rules(ctx, CL3), key=lambda d: (d.span.start, d.code))


def _line(source: bytes, offset: int) -> int:
    return source.count(b"\n", 0, offset) + 1


def _check(path: Path) -> None:
    text = path.read_text()
    target = re.search(r"^// target: (\S+)", text, re.M)
    std = re.search(r"^// std: (\S+)", text, re.M)
    source = path.read_bytes()
    diags = lint(source, target.group(1) if target else "CL1.2", std.group(1) if std else None)
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
    src = (FIXTURES / "tune" / "all_image.cl").read_bytes()
    (note,) = [d for d in lint(src) if d.severity == Severity.INFO]
    assert note.code == "CL301"
    assert src[note.span.start:note.span.end] == b"invert"
    assert "'__opencl_c_images'" in note.message and "CL_DEVICE_IMAGE_SUPPORT" in note.message
    assert note.fix is None


def test_a_buffer_kernel_under_a_false_arm_is_not_a_kernel_of_the_program() -> None:
    src = b"""#if 0
kernel void add(global float *a) { a[0] += 1.0f; }
#endif
kernel void flip(read_only image2d_t in, write_only image2d_t out) {
    write_imagef(out, (int2)(0, 0), read_imagef(in, (int2)(1, 1)));
}
"""
    diags = lint(src)
    assert [d.code for d in diags if d.severity != Severity.INFO] == []
    assert [_line(src, d.span.start) for d in diags if d.severity == Severity.INFO] == [4]


def _check_cli(folder: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--format", "json", "--exit-zero", "--no-cache", "."],
                       cwd=folder, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


KERNELS = b"""kernel void invert(read_only image2d_t in, write_only image2d_t out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(out, p, (float4)(1.0f) - read_imagef(in, p));
}
"""


def test_cli_default_settings_give_one_note_and_no_warning(tmp_path: Path) -> None:
    (tmp_path / "invert.cl").write_bytes(KERNELS)
    found = _check_cli(tmp_path)
    assert [(d["code"], d["severity"], d["line"]) for d in found] == [("CL301", "info", 1)]


def test_cli_configured_target_without_images_still_reports(tmp_path: Path) -> None:
    (tmp_path / "invert.cl").write_bytes(KERNELS)
    (tmp_path / ".cllint.toml").write_text('target = "CL3.0"\n')
    found = _check_cli(tmp_path)
    assert ("CL302", "error", 1) in {(d["code"], d["severity"], d["line"]) for d in found}
    assert not [d for d in found if d["severity"] == "info" and d["code"] == "CL301"]


# -- programs of several sources (the project model's prelude) --------------------------------

IMAGE_A = "kernel void blur(read_only image2d_t in, write_only image2d_t out) {\n" \
          "    write_imagef(out, (int2)(0, 0), read_imagef(in, (int2)(1, 1)));\n}\n"
IMAGE_B = "kernel void edge(read_only image2d_t in, global float *out) {\n" \
          "    out[0] = read_imagef(in, (int2)(0, 0)).x;\n}\n"
BUFFER_A = "kernel void zero(global float *out) { out[get_global_id(0)] = 0.0f; }\n"
JOIN = 'auto k = getKernel("edge", {{blur_cl_src, edge_cl_src}}, args);\n'


def _cl301(found: list[dict]) -> list[tuple[str, str, int]]:
    return sorted((Path(d["path"]).name, d["severity"], d["line"]) for d in found if d["code"] == "CL301")


def test_tune_a_host_joined_image_program_gets_one_note(tmp_path: Path) -> None:
    for name, text in {"kernel/blur.cl": IMAGE_A, "kernel/edge.cl": IMAGE_B, "src/host.cpp": JOIN}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _cl301(_check_cli(tmp_path)) == [("blur.cl", "info", 1)]


def test_tune_an_image_source_joined_after_a_buffer_kernel_reports(tmp_path: Path) -> None:
    for name, text in {"kernel/blur.cl": BUFFER_A, "kernel/edge.cl": IMAGE_B, "src/host.cpp": JOIN}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _cl301(_check_cli(tmp_path)) == [("edge.cl", "warning", 1)]


def test_heldout_a_fragment_included_after_its_includers_buffer_kernel_reports(tmp_path: Path) -> None:
    main = "#define GAIN 2.0f\n" + BUFFER_A + '#include "img.cl"\n'
    img = "kernel void boost(read_only image2d_t in, global float *out) {\n" \
          "    out[0] = GAIN * read_imagef(in, (int2)(0, 0)).x;\n}\n"
    (tmp_path / "main.cl").write_text(main)
    (tmp_path / "img.cl").write_text(img)
    assert _cl301(_check_cli(tmp_path)) == [("img.cl", "warning", 1)]
