"""The semantic model on real kernels: darktable's OpenCL kernels and headers, taken from
Debian's `darktable` package (fetched with `apt-get download`, nothing installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.types import Pointer
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.grammar import parse
from cllint.includes import FileIncludeResolver

KERNEL = re.compile(rb"^\s*(?:__)?kernel\s+void\s+(\w+)\s*\(", re.M)


@pytest.fixture(scope="module")
def darktable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("darktable")
    cached = Path(__file__).parents[2] / "bench/.cache/debs"
    debs = sorted(cached.glob("darktable_*.deb"))
    if not debs:
        if not shutil.which("apt-get"):
            pytest.skip("needs apt-get to fetch Debian's darktable package")
        r = subprocess.run(["apt-get", "download", "-o", "APT::Sandbox::User=root", "darktable"],
                           cwd=root, capture_output=True, text=True, timeout=600)
        debs = sorted(root.glob("darktable_*.deb"))
        if r.returncode != 0 or not debs:
            pytest.skip(f"Debian's archive did not provide darktable: {r.stderr.strip()[-200:]}")
    subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(root / "x")], check=True)
    kernels = root / "x/usr/share/darktable/kernels"
    assert kernels.is_dir()
    return kernels


def test_every_kernel_parses_resolves_its_includes_and_is_indexed(darktable: Path) -> None:
    files = sorted(darktable.glob("*.cl"))
    assert len(files) >= 30
    target = Target.preset("CL1.2")
    resolver = FileIncludeResolver([darktable])
    kernels_seen = 0
    for f in files:
        src = f.read_bytes()
        tree = parse(src)
        view = build_view(str(f), src, target=target, include_resolver=resolver)
        diags = lint_tree(str(f), src, tree, LintOptions(target=target), preprocessor=view,
                          include_resolver=resolver)
        assert not [d for d in diags if d.code in ("CL001", "CL002", "CL003", "CL004")], f.name
        model = SemanticModel(tree, src, target, macro_expander=view.expand_type_macro)
        expected = {m.decode() for m in KERNEL.findall(src)}
        indexed = {name for name, info in model.index.functions.items() if info.is_kernel}
        # kernels under #if branches are still indexed (the model reads every branch it can)
        assert expected <= indexed, (f.name, expected - indexed)
        for name in expected:
            for p in model.index.functions[name].params:
                if isinstance(p.type, Pointer):
                    # darktable qualifies every kernel pointer (global/local/constant)
                    assert p.type.space.spelling in ("__global", "__local", "__constant"), (f.name, name)
        kernels_seen += len(expected)
    assert kernels_seen >= 250  # 286 in darktable 4.2
