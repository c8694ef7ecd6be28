"""Names a host's text replacement rewrites in part (issue 29: filecoin's ec-gpu includes
`field.cl` into Rust with `include_str!` and builds it after `.replace("FIELD", &F::name())`,
so `FIELD_P`, `FIELD_ONE` and `EXPONENT_get_bits` become names the host generates). A string
replacement rewrites every name the replaced word is part of: those names are the host's, as
`-D` names are (no CL010, CL011 or CL012); a name without the word is still judged.

HELD_OUT cases were written beside the others and first run once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_includer_prelude import check, write

RUST_HOST = ('static FIELD_SRC: &str = include_str!("cl/field.cl");\n'
             'pub fn source(name: &str) -> String {\n'
             '    String::from(FIELD_SRC)\n        .replace("FIELD", name)\n        .replace("EXPONENT", "Fr")\n}\n')
FIELD_KERNEL = ("kernel void k(global uint *out, uint x)\n{\n"
                "    out[0] = FIELD_P + FIELD_ONE;\n    out[1] = EXPONENT_get_bits(x, 3);\n}\n")


def _codes(root: Path, name: str) -> list[tuple[str, str]]:
    return sorted((d["code"], d["message"].split("'")[1]) for d in check(".", cwd=root)
                  if Path(d["path"]).name == name and d["code"] in ("CL010", "CL011", "CL012"))


def test_a_rust_host_rewrites_names_with_the_word(tmp_path: Path) -> None:
    root = write(tmp_path, {"src/lib.rs": RUST_HOST, "src/cl/field.cl": FIELD_KERNEL})
    assert _codes(root, "field.cl") == []


def test_a_python_host_rewrites_names_with_the_word(tmp_path: Path) -> None:
    host = 'src = open("k.cl").read().replace("VALUE_T", "float")\nprg = cl.Program(ctx, src).build()\n'
    kernel = "kernel void k(global float *o) { o[0] = (VALUE_T)VALUE_T_MAX; }\n"
    assert _codes(write(tmp_path, {"run.py": host, "k.cl": kernel}), "k.cl") == []


def test_a_name_without_the_word_is_still_judged(tmp_path: Path) -> None:
    kernel = "kernel void k(global uint *out) { out[0] = FIELD_P + OTHER_P + other_q; }\n"
    root = write(tmp_path, {"src/lib.rs": RUST_HOST, "src/cl/field.cl": kernel})
    assert _codes(root, "field.cl") == [("CL010", "other_q"), ("CL012", "OTHER_P")]


def test_without_a_host_the_names_are_undeclared(tmp_path: Path) -> None:
    codes = _codes(write(tmp_path, {"src/cl/field.cl": FIELD_KERNEL}), "field.cl")
    assert ("CL011", "EXPONENT_get_bits") in codes


HELD_OUT = pytest.mark.parametrize("host", [
    ("Gen.java", 'String src = read("k.cl").replaceAll("POINT", curve).replace("LIMB", "uint");\n'),
    ("build.rs", 'let src = include_str!("k.cl").replace("POINT", "G1").replace("LIMB", "u32");\n'),
])


@HELD_OUT
def test_held_out(host: tuple[str, str], tmp_path: Path) -> None:
    name, text = host
    kernel = ("kernel void k(global uint *o)\n{\n    o[0] = POINT_ZERO + LIMB_BITS;\n"
              "    o[1] = POINT_double(o[0]);\n}\n")
    assert _codes(write(tmp_path, {name: text, "k.cl": kernel}), "k.cl") == []
