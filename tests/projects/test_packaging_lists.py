"""A packaging script's file lists (`setup.py`'s `package_data`, `data_files`) say which files
install, not which program a host builds: two kernel headers listed there side by side are no
program joined in that order. (clpy lists `carray.clh` then `fp16.clh`; `carray.clh` includes
`fp16.clh` itself, so reading it whole before `fp16.clh` defined every function twice for the
editor's clang layer.) Cases written before the change; `heldout` scored once after it."""
from __future__ import annotations

from pathlib import Path

import pytest
from labelled_workspaces import check_json, write_workspace

_CASES = {
    "tune": {
        "setup.py": "from setuptools import setup\nsetup(name='p', package_data={'p': [\n"
                    "    'include/p/array.clh',\n    'include/p/convert.clh',\n]})\n",
        "include/p/array.clh": "typedef struct { ushort v; } half_t;\n"
                               "static float widen(half_t h) { return (float)h.v; }\n#include \"convert.clh\"\n",
        "include/p/convert.clh": "static ushort narrow_bits(float f) { return (ushort)f; }\n",
        "k.cl": "#include \"include/p/array.clh\"\n"
                "kernel void k(global ushort *o, float f) { o[0] = narrow_bits(f); }\n",
    },
    "heldout": {
        "setup.py": "import setuptools\nsetuptools.setup(name='q', data_files=[('share/q', ['kern/base.cl', "
                    "'kern/extra.cl'])])\n",
        "kern/base.cl": "float twice(float x) { return 2.0f * x; }\n#include \"extra.cl\"\n",
        "kern/extra.cl": "float thrice(float x) { return 3.0f * x; }\n",
        "main.cl": "#include \"kern/base.cl\"\nkernel void m(global float *o) { o[0] = twice(o[0]) + thrice(o[1]); }\n",
    },
}


@pytest.mark.parametrize("case", sorted(_CASES))
def test_no_program_joined_from_an_install_list(case: str, tmp_path: Path) -> None:
    from cllint.project.model import Project

    write_workspace(tmp_path, _CASES[case])
    project = Project([tmp_path])
    listed_second = next(p for p in project.files if p.name in ("convert.clh", "extra.cl"))
    context = project.context(listed_second)
    whole = [p for p in context.prelude if "\x00" not in p]  # a whole file read first (not a head)
    assert whole == [], context.prelude


@pytest.mark.parametrize("case", sorted(_CASES))
def test_the_clang_layer_sees_one_definition(case: str, tmp_path: Path) -> None:
    write_workspace(tmp_path, _CASES[case])
    assert [r for r in check_json(tmp_path, "--compiler", "clang", ".") if r["severity"] == "error"] == []
