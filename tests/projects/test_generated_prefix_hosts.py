"""A host that builds a program from text it generates at run time, then appends the kernel
file (issue 29: kawpowminer's `std::string code = ProgPow::getKern(seed, KERNEL_CL); code +=
string(CLMiner_kernel);`): the generated text defines functions and macros the file uses
(`progPowLoop`), so names the file leaves undeclared are the generator's, not errors (CL011),
and its macros are not "pass it with -D" (CL012). A literal prefix is no such text.

Cases under HELD_OUT were written beside the others and first run once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_includer_prelude import check, write

KERNEL = ("kernel void search(global uint *out) {\n"
          "    uint mix = 0;\n"
          "    for (uint l = 0; l < LOOPS; l++)\n"
          "        mix = gen_loop(l, mix);\n"
          "    out[get_global_id(0)] = mix;\n"
          "}\n")


def _codes(root: Path) -> list[str]:
    return sorted(d["code"] for d in check(".", cwd=root) if Path(d["path"]).name == "search.cl"
                  and d["code"] in ("CL010", "CL011", "CL012"))


def test_generated_text_before_the_kernel(tmp_path: Path) -> None:
    host = ('#include <string>\nstd::string load(const char *);\n'
            'void build(unsigned seed) {\n'
            '    std::string code = Generator::kernelText(seed);\n'
            '    code += load("search.cl");\n'
            '    compile(code);\n}\n')
    assert _codes(write(tmp_path, {"miner.cpp": host, "search.cl": KERNEL})) == []


def test_a_literal_prefix_is_no_generated_text(tmp_path: Path) -> None:
    host = ('#include <string>\nstd::string load(const char *);\n'
            'void build() {\n'
            '    std::string code = "#define LOOPS 4\\n";\n'
            '    code += load("search.cl");\n'
            '    compile(code);\n}\n')
    assert "CL011" in _codes(write(tmp_path, {"miner.cpp": host, "search.cl": KERNEL}))


def test_another_variable_holds_the_generated_text(tmp_path: Path) -> None:
    host = ('#include <string>\nstd::string load(const char *);\n'
            'void build(unsigned seed) {\n'
            '    std::string other = Generator::kernelText(seed);\n'
            '    std::string code;\n'
            '    code += load("search.cl");\n'
            '    compile(code);\n}\n')
    assert "CL011" in _codes(write(tmp_path, {"miner.cpp": host, "search.cl": KERNEL}))


HELD_OUT = pytest.mark.parametrize("host", [
    ("gen.py", 'def build(cfg):\n    src = make_prefix(cfg)\n    src += open("search.cl").read()\n'
               '    return cl.Program(ctx, src).build()\n'),
    ("host.cpp", '#include <string>\nstd::string load(const char *);\nvoid b(int s) {\n'
                 '    auto text = emit_loop_code(s);\n    text.append(load("search.cl"));\n    compile(text);\n}\n'),
])


@HELD_OUT
def test_held_out(host: tuple[str, str], tmp_path: Path) -> None:
    name, text = host
    assert _codes(write(tmp_path, {name: text, "search.cl": KERNEL})) == []
