"""Preview rules are opt-in (`--preview`, `preview = true`), and `--features` takes clang's
`-cl-ext` spelling, `-all`/`+all` included (issue 18)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cllint.analysis import registry
from cllint.analysis.rules.base import Group, Rule

# CL308 (double-literal) in portability mode is a preview rule: an unsuffixed literal in a float
# computation (issue 30: in target mode without fp64 it is on by default, as clang-19 warns).
KERNEL = b"kernel void k(global float *y) { y[0] = y[1] * 0.5; }\n"


def codes(*args: str, cwd: Path) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", *args, "k.cl"],
                         cwd=cwd, capture_output=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr.decode()
    return [d["code"] for d in json.loads(out.stdout)]


class _PreviewRule(Rule):
    """A stand-in preview rule (CL308, the last one, became stable in issue 30: on by default
    in target mode without fp64, its preview half reads `--preview` itself)."""

    code = "CL399"
    name = "stand-in-preview"
    group = Group.PREVIEW

    def check(self, ctx):  # noqa: ANN001, ANN201
        return iter(())


def test_preview_rules_are_not_in_the_default_selection(monkeypatch) -> None:  # noqa: ANN001
    rules = {**registry.all_rules(), "CL399": _PreviewRule}
    monkeypatch.setattr(registry, "all_rules", lambda: rules)
    # A selection that leaves families out imports only the others (`registry.FAMILY_CODES`):
    # the stand-in joins the features family there too.
    family = registry._family
    monkeypatch.setattr(registry, "_family",
                        lambda name: {**family(name), "CL399": _PreviewRule} if name == "features" else family(name))
    monkeypatch.setitem(registry.FAMILY_CODES, "features", (*registry.FAMILY_CODES["features"], "CL399"))
    previews = {c for c, r in registry.all_rules().items() if r.group is Group.PREVIEW}
    assert "CL399" in previews
    default = {r.code for r in registry.select()}
    assert not previews & default
    assert previews <= {r.code for r in registry.select(preview=True)}
    assert "CL399" not in {r.code for r in registry.select(["CL3"])}  # a prefix is not enough
    assert "CL399" in {r.code for r in registry.select(["CL3"], extend_select=["CL399"])}  # the full code is


def test_preview_flag_and_config_key(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_bytes(KERNEL)
    assert codes(cwd=tmp_path) == []
    assert codes("--preview", cwd=tmp_path) == ["CL308"]
    (tmp_path / ".cllint.toml").write_text("preview = true\n")
    assert codes(cwd=tmp_path) == ["CL308"]
    (tmp_path / ".cllint.toml").write_text('preview = "yes"\n')
    out = subprocess.run([sys.executable, "-m", "cllint", "check", "k.cl"], cwd=tmp_path, capture_output=True)
    assert out.returncode == 2
    assert b".cllint.toml:1: option 'preview' must be a boolean, not a string" in out.stderr


def test_features_minus_all_as_clang_writes_it(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_bytes(b"kernel void k(global double *d, global half *h) { half x = 1; d[0] = x; }\n")
    # clang: -cl-std=CL3.0 -cl-ext=-all,+__opencl_c_fp64 -> 'half' values are the problem, 'double' is not
    got = codes("--std", "CL3.0", "--features=-all,+__opencl_c_fp64", cwd=tmp_path)
    assert got == ["CL302"]
    (tmp_path / ".cllint.toml").write_text('std = "CL3.0"\nfeatures = ["-all", "+__opencl_c_fp64"]\n')
    assert codes(cwd=tmp_path) == ["CL302"]
