"""Symbols, scopes and references in the semantic model, and `cllint inspect`."""

from __future__ import annotations

from cllint.analysis.model import AddressSpace, ScopeKind, SemanticModel, Struct, SymbolKind
from cllint.analysis.syntax import parse, walk
from cllint.analysis.target import Target
from cllint.cli.main import main

CL20 = Target.preset("CL2.0")

SRC = """\
typedef struct { float a[3]; int b[2]; } foo_t;
struct node { int v; struct node *next; };
enum color { RED, GREEN = 3 };
constant int table[2] = {1, 2};
float helper(float x);
float helper(float x) { return x * table[0]; }
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void k(global foo_t *info, global struct node *list, int n) {
    int i = get_global_id(0);
    for (int i = 0; i < n; i++) {
        float y = helper(info[i].a[0]);
    }
    if (i < n) { local int shared; }
    list->next->v = RED + i;
    info->b[1] = helper(2.0f);
}
"""


def model(src: str = SRC, target: Target = CL20) -> SemanticModel:
    data = src.encode()
    return SemanticModel(parse(data), data, target)


def names(m: SemanticModel, text: str) -> list:
    return [n for n in walk(m.tree.root_node)
            if n.type in ("identifier", "field_identifier", "type_identifier") and m.source[n.start_byte:n.end_byte].decode() == text]


def test_file_index():
    m = model()
    assert set(m.functions) == {"helper", "k"}
    helper, k = m.functions["helper"], m.functions["k"]
    assert not helper.is_kernel and helper.definition is not None and len(helper.prototypes) == 1
    assert k.is_kernel and k.reqd_work_group_size == (64, 1, 1)
    assert [p.name for p in k.params] == ["info", "list", "n"]
    assert k.params[0].type.render() == "__global struct <anonymous> *"
    assert m.globals["table"].space is AddressSpace.CONSTANT
    assert m.typedefs["foo_t"].kind is SymbolKind.TYPEDEF
    assert m.tags["node"].kind is SymbolKind.STRUCT and m.tags["color"].kind is SymbolKind.ENUM
    assert m.index.enumerators["GREEN"].kind is SymbolKind.ENUMERATOR
    foo = m.typedefs["foo_t"].type
    assert isinstance(foo, Struct) and [f.name for f in foo.fields] == ["a", "b"]


def test_scopes_and_shadowing():
    m = model()
    k = m.function("k")
    assert [s.name for s in k.locals] == ["i", "i", "y", "shared"]
    outer_i, inner_i = k.locals[0], k.locals[1]
    uses = names(m, "i")
    # `i < n` in the for header and `info[i]` resolve to the loop variable; `if (i < n)` to the outer one
    resolved = [m.resolve(n) for n in uses]
    assert resolved[0] is outer_i and resolved[1] is inner_i
    assert resolved.count(inner_i) == 4  # declaration, condition, increment, info[i]
    assert m.references(outer_i)[-1].start_byte > SRC.index("RED + i")
    shared = k.locals[3]
    assert not shared.in_kernel_scope and k.locals[0].in_kernel_scope
    scope = m.scope_at(SRC.index("float y"))
    assert scope.kind is ScopeKind.BLOCK and "y" in scope.symbols and scope.lookup("i") is inner_i
    assert m.scope_at(0).kind is ScopeKind.FILE


def test_references_and_call_sites():
    m = model()
    helper = m.functions["helper"].symbol
    refs = m.references(helper)
    assert len(refs) == 4  # prototype, definition, two calls
    assert len(m.call_sites("helper")) == 2
    table = m.globals["table"]
    assert [r.start_byte for r in m.references(table)] == [SRC.index("table"), SRC.index("table[0]")]
    assert m.resolve(names(m, "get_global_id")[0]).kind is SymbolKind.BUILTIN


def test_field_resolution_and_types():
    m = model()
    v = names(m, "v")[-1]
    sym = m.resolve(v)
    assert sym.kind is SymbolKind.FIELD and sym.type.render() == "int"
    assert sym.node is not None and sym.node.start_byte == SRC.index("v;")
    assert m.symbol_at(SRC.index("helper(info")).kind is SymbolKind.FUNCTION
    for node in walk(m.tree.root_node):
        t = m.source[node.start_byte:node.end_byte].decode()
        if t == "info[i].a[0]":
            assert m.type_of(node).render() == "float"
        if t == "info->b":
            assert m.type_of(node).render() == "__global int [2]"  # elements live where the struct does
        if t == "list->next->v = RED + i":
            assert m.type_of(node).render() == "int"


def test_functions_are_analysed_lazily():
    m = model()
    assert m._functions == {}
    m.function("helper")
    assert len(m._functions) == 1
    assert m.function("nope") is None


def test_broken_code_keeps_intact_parts():
    src = """
    global int counter;
    kernel void good(global float *out) { out[0] = 1.0f; }
    void broken(int x) { int y = ;
        x + ;
        float z = x; }
    kernel void after(local float *tmp) { float v = tmp[0]; }
    """
    # One broken statement a line, as typing leaves them. (With all three on one line,
    # `int y = ; x + ; float z = x;`, error recovery since 91ed5f4 reads `float z = x` into the
    # first statement's initializer: a function's declarator is no longer one an initializer
    # may follow, which changed recovery's costs; kept for MNN's `M1(a) M2(b) T x = v;`.)
    m = model(src)
    assert "counter" in m.globals
    assert "good" in m.functions and m.functions["good"].is_kernel
    assert "after" in m.functions
    assert [s.type.render() for s in m.function("after").locals] == ["float"]
    broken = m.function("broken")
    assert broken is not None and "z" in [s.name for s in broken.locals]
    for node in walk(m.tree.root_node):  # typing every node never raises
        m.type_of(node)
        m.resolve(node)


def test_hostile_input_does_not_raise():
    for src in ["", "}}}{{{", "int", "kernel void k(", "x.y->z[1](2);", "struct { struct { int a; } ;",
                "typedef int;", "a ? : b;", "(" * 300 + "1" + ")" * 300 + ";"]:
        m = model(src)
        for node in walk(m.tree.root_node):
            m.type_of(node)
            m.resolve(node)
            m.scope_at(node.start_byte)


def test_inspect_command(tmp_path, capsys):
    f = tmp_path / "k.cl"
    f.write_text(SRC + "#ifdef cl_khr_fp64\nint f64;\n#endif\n")
    assert main(["inspect", str(f), "--std", "CL2.0"]) == 0
    out = capsys.readouterr().out
    assert "kernel k: void (__global struct <anonymous> *, __global struct node *, int)" in out
    assert "reqd_work_group_size(64, 1, 1)" in out
    assert "global table: __constant int [2] in __constant" in out
    assert "local shared: int in __local @" in out
    assert "expr `list->next->v = RED + i`: int" in out
    assert "conditions:" in out
    assert main(["inspect", str(f), "--symbols", "--std", "CL1.2"]) == 0
    only = capsys.readouterr().out
    assert "symbols:" in only and "types:" not in only
    assert main(["inspect", str(tmp_path / "missing.cl")]) == 2
