"""A `pyproject.toml` on the way up from a kernel that never mentions cllint is not cllint's
configuration, and is not parsed (issue 32, session 18: importing `tomllib` and parsing the
file cost ~3% of `cllint check` on a small file in a Python project). One that mentions it is
parsed as before: its `[tool.cllint]` table (dotted or inline) is the configuration, and
broken TOML there is an error. The last two (held out) were written with the rest before the
code and run once it was done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from check_in_process import check_with_modules

from cllint.config import ConfigError, find_config

KERNEL = b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n"


def _folder(tmp_path: Path, pyproject: str) -> Path:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "pyproject.toml").write_text(pyproject)
    (folder / "k.cl").write_bytes(KERNEL)
    return folder


def test_a_foreign_pyproject_is_not_parsed(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '[project]\nname = "app"\n[tool.black]\nline-length = 100\n')
    assert find_config(folder / "k.cl") is None
    shown, modules = check_with_modules(tmp_path, "--format", "json", str(folder / "k.cl"))
    assert json.loads(shown) == []
    assert "tomllib" not in modules


def test_a_broken_foreign_pyproject_is_skipped(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "[project\nname = 'x'\n")
    assert find_config(folder / "k.cl") is None


def test_a_tool_cllint_table_is_read(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '[project]\nname = "app"\n[tool.cllint]\nignore = ["CL211"]\n')
    assert find_config(folder / "k.cl") == folder / "pyproject.toml"


# -- held out ---------------------------------------------------------------------------


def test_heldout_an_inline_cllint_table_is_read(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '[tool]\ncllint = { ignore = ["CL211"] }\n')
    assert find_config(folder / "k.cl") == folder / "pyproject.toml"


def test_heldout_a_name_mentioning_cllint_is_parsed(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '[project]\nname = "cllint-plugins"\n')
    assert find_config(folder / "k.cl") is None  # parsed: no [tool.cllint]
    (folder / "pyproject.toml").write_text('[project]\nname = "cllint-plugins\n')
    with pytest.raises(ConfigError):
        find_config(folder / "k.cl")  # broken, and it mentions cllint
