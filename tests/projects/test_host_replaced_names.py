"""Names a host replaces in a kernel's text before building it (issue 29: scallion's C# host
does `builder.Replace("GENERATED__CONSTANTS", defines)`, and the kernel has the name alone on a
line; Python hosts write `src.replace("TYPE", "float")`): the host supplies them, as with `-D`,
so they are not undeclared (CL010/CL012), and a line the name stands alone on is the host's
text (no CL001).

Cases in HELD_OUT were written beside the others and first run once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_includer_prelude import check, write

KERNEL_LINE = ("#define N 4\n\nGENERATED__PARAMS\n\n// the hash: see http://example.org/#fnv\n"
               "#define PRIME 16777619u\nkernel void k(global uint *o) { o[0] = PRIME * N; }\n")
KERNEL_USE = "kernel void k(global float *o) { o[get_global_id(0)] = (VALUE_T)WIDTH; }\n"


def _codes(root: Path, name: str = "k.cl") -> list[str]:
    return sorted(d["code"] for d in check(".", cwd=root) if Path(d["path"]).name == name
                  and d["code"] in ("CL001", "CL010", "CL012"))


def test_a_csharp_host_replaces_a_line(tmp_path: Path) -> None:
    host = ('class Gen { string Make(string src) { var b = new StringBuilder(src);\n'
            '  b.Replace("GENERATED__PARAMS", Defines()); return b.ToString(); } }\n')
    assert _codes(write(tmp_path, {"Gen.cs": host, "k.cl": KERNEL_LINE})) == []


def test_a_python_host_replaces_names(tmp_path: Path) -> None:
    host = ('src = open("k.cl").read().replace("VALUE_T", "float").replace("WIDTH", str(w))\n'
            'prg = cl.Program(ctx, src).build()\n')
    assert _codes(write(tmp_path, {"run.py": host, "k.cl": KERNEL_USE})) == []


def test_without_a_host_the_line_is_an_error(tmp_path: Path) -> None:
    assert "CL001" in _codes(write(tmp_path, {"k.cl": KERNEL_LINE}))


HELD_OUT = pytest.mark.parametrize("host", [
    ("Make.java", 'String src = read("k.cl").replaceAll("VALUE_T", type).replace("WIDTH", "" + w);\n'),
    ("build.py", 'TEMPLATE = open("k.cl").read()\nsrc = TEMPLATE.replace(\'VALUE_T\', t).replace(\'WIDTH\', str(n))\n'),
])


@HELD_OUT
def test_held_out(host: tuple[str, str], tmp_path: Path) -> None:
    name, text = host
    assert _codes(write(tmp_path, {name: text, "k.cl": KERNEL_USE})) == []
