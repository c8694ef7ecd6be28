"""Navigation: definition, declaration, references, highlights, rename, workspace symbols,
within a file and across #included files."""

import pytest

from cllint.analysis.ide import navigation as nav
from ide_fixtures import FILE, snapshot

HEADER = """#define WIDTH 64
float scale(float x);
float scale(float x) { return x * 2.0f; }
struct Pair { float a; float b; };
"""


def resolver_for(files: dict[str, str]):
    def resolve(name: str, angled: bool, including: str):
        return (name, files[name].encode()) if name in files else None
    return resolve


def cursor(src: str) -> int:
    return src.encode().index(b"$0")


def texts(snap, locs):
    return [(loc.file, snap.text(loc.file)[loc.start:loc.end].decode()) for loc in locs]


def test_local_definition_references_and_highlights():
    src = "kernel void k(global float *out) {\n  float acc = 1.0f;\n  out[0] = ac$0c + acc;\n}\n"
    snap, at = snapshot(src)
    [d] = nav.definition(snap, FILE, at)
    assert d.start == snap.text(FILE).index(b"acc")
    refs = nav.references(snap, FILE, at)
    assert len(refs) == 3 and nav.highlights(snap, FILE, at) == refs
    assert len(nav.references(snap, FILE, at, include_declaration=False)) == 2


def test_declaration_prefers_the_prototype():
    src = "float f(float v);\nkernel void k() { f$0(1.0f); }\nfloat f(float v) { return v; }\n"
    snap, at = snapshot(src)
    data = snap.text(FILE)
    assert nav.declaration(snap, FILE, at)[0].start == data.index(b"f(float v);")
    assert nav.definition(snap, FILE, at)[0].start == data.rindex(b"f(float v)")


def test_definition_and_references_across_an_include():
    src = '#include "h.cl"\nkernel void k(global float *o) {\n  o[0] = sca$0le(WIDTH);\n  struct Pair p;\n}\n'
    snap, at = snapshot(src, resolver=resolver_for({"h.cl": HEADER}))
    [d] = nav.definition(snap, FILE, at)
    assert d.file == "h.cl" and d.start == HEADER.rindex("scale(float x)")
    assert nav.declaration(snap, FILE, at)[0].start == HEADER.index("scale")
    refs = nav.references(snap, FILE, at)
    assert [loc.file for loc in refs] == [FILE, "h.cl", "h.cl"]
    [m] = nav.definition(snap, FILE, src.replace("$0", "").index("WIDTH") + 1)
    assert (m.file, m.start) == ("h.cl", HEADER.index("WIDTH"))
    [t] = nav.definition(snap, FILE, src.replace("$0", "").index("Pair") + 1)
    assert (t.file, t.start) == ("h.cl", HEADER.index("Pair"))


def test_rename_reaches_other_open_files_including_the_header():
    src = '#include "h.cl"\nkernel void k(global float *o) { o[0] = sca$0le(1.0f) + WIDTH; }\n'
    other = '#include "h.cl"\nvoid g() { float y = scale(2.0f); int scale2 = 0; }\n'
    files = {"h.cl": HEADER}
    snap, at = snapshot(src, files={"other.cl": other}, resolver=resolver_for(files))
    assert texts(snap, [nav.prepare_rename(snap, FILE, at)]) == [(FILE, "scale")]
    edits = nav.rename(snap, FILE, at, "scaled")
    assert {f: len(v) for f, v in edits.items()} == {FILE: 1, "h.cl": 2, "other.cl": 1}
    with pytest.raises(ValueError):
        nav.rename(snap, FILE, at, "global")


def test_macro_rename_covers_uses_after_the_define_only():
    src = "int g(int N) { return N; }\n#define N 4\nkernel void k(global int *o) { o[0] = N$0; }\n#undef N\n"
    snap, at = snapshot(src)
    edits = nav.rename(snap, FILE, at, "M")
    assert [loc.start for loc in edits[FILE]] == [src.index("N 4"), src.index("N$0")]


def test_builtins_cannot_be_renamed():
    snap, at = snapshot("kernel void k() { size_t i = get_glo$0bal_id(0); }\n")
    assert nav.prepare_rename(snap, FILE, at) is None and nav.definition(snap, FILE, at) == []


def test_workspace_symbols_fuzzy_prefix_over_open_files():
    snap, _ = snapshot("#define TILE 16\nstruct Tile { int a; };\nkernel void tiled_copy() {}\nfloat t_helper(float x);\n",
                       files={"b.cl": "kernel void transpose() {}\nvoid helper() {}\n"})
    got = [(s.name, s.kind, s.file) for s in nav.workspace_symbols(snap, "ti")]
    assert got[:3] == [("TILE", "macro", FILE), ("Tile", "struct", FILE), ("tiled_copy", "kernel", FILE)]
    assert [s.name for s in nav.workspace_symbols(snap, "trans")] == ["transpose"]
    assert [s.name for s in nav.workspace_symbols(snap, "tp")] == ["t_helper", "tiled_copy", "transpose"]
