"""A header's reading (`semantic.headers._read`) finds its declarations with one query in C,
not a Python walk of every node (issue 32: hashcat's 2.4 MB inc_common.cl cost ~1 s a process).

Labelled cases, written before the change, say what a reading holds: names declared at file
scope and inside function bodies, tags and enumerators, functions with their parameter
counts, and the words outside bodies and comments. Each is also read by the plain walk the
reader used before (kept here as the reference), and the two readings must be equal field by
field. HELD_OUT was scored once the code was done."""

from __future__ import annotations

import pytest
from tree_sitter import Node

from cllint.analysis.database import Database
from cllint.analysis.semantic import headers
from cllint.grammar import parse

# (name, header text, declared names, {function: arity}, words outside bodies and comments
# that must be quiet, words inside bodies or comments that must not be)
TUNE = [
    ("locals_in_body", "float add(float a, float b) { float tmp = a + b; return tmp * inner_only; }\n",
     {"add", "tmp"}, {"add": 2}, {"float", "add", "a", "b"}, {"inner_only", "return"}),
    ("tags_typedefs_enumerators",
     "typedef struct pt { int x; } pt_t;\nenum color { RED, GREEN };\nunion u { int i; float f; };\n",
     {"pt", "pt_t", "color", "RED", "GREEN", "u"}, {}, {"pt", "x", "RED", "u", "i"}, set()),
    ("comments_skipped", "/* hidden_word */ int visible; // also_hidden\n",
     {"visible"}, {}, {"int", "visible"}, {"hidden_word", "also_hidden"}),
    ("prototypes", "int proto(int, float);\nvoid none(void);\nint packed(ARGS);\n",
     {"proto", "none", "packed"}, {"proto": 2, "none": 0, "packed": None}, {"ARGS"}, set()),
]
HELD_OUT = [
    ("broken_header", "int good;\n@@@ $$ ;\nint after(int x) { int inner; }\n",
     {"good", "after", "inner"}, {"after": 1}, {"good", "after"}, set()),
    ("nested_in_body",
     "void f(void) { enum { LOCAL_A }; struct in { int q; } s; int g(int); }\n",
     {"f", "LOCAL_A", "in", "s", "g"}, {"f": 0, "g": 1}, {"f"}, {"LOCAL_A", "q"}),
]


class _PlainReader(headers._Reader):
    """The reader as it was: a stack walk of every node."""

    def read(self, root: Node) -> None:  # type: ignore[override]
        stack = [root]
        while stack:
            n = stack.pop()
            k = n.type
            if k == "comment":
                self.skipped.append((n.start_byte, n.end_byte))
                continue
            if k == "function_definition":
                self._function(n, n.child_by_field_name("body"))
            elif k == "declaration":
                for d in n.children_by_field_name("declarator"):
                    self._declarator(n, d)
            elif k == "type_definition":
                for d in n.children_by_field_name("declarator"):
                    name = self._name(d)
                    if name is not None:
                        self.declared.add(name)
            elif k in ("struct_specifier", "union_specifier", "enum_specifier"):
                tag = n.child_by_field_name("name")
                if tag is not None:
                    self.declared.add(self.text(tag))
            elif k == "enumerator":
                name = n.child_by_field_name("name")
                if name is not None:
                    self.declared.add(self.text(name))
            stack.extend(reversed(n.children))


def _readings(text: str) -> tuple[headers._Reader, headers._Reader]:
    source = text.encode()
    tree = parse(source)
    new, old = headers._Reader(source), _PlainReader(source)
    with Database().active():
        new.read(tree.root_node)
    old.read(tree.root_node)
    return new, old


def _check(case: tuple) -> None:
    _, text, declared, arities, quiet, loud = case
    new, old = _readings(text)
    assert new.declared == declared
    assert {name: f.arity for name, f in new.functions.items()} == arities
    words = new.words()
    assert quiet <= words and not (loud & words)
    # the same reading as the plain walk, field by field, functions in the same order
    assert new.declared == old.declared
    assert list(new.functions.items()) == list(old.functions.items())
    assert sorted(new.skipped) == sorted(old.skipped) and words == old.words()


@pytest.mark.parametrize("case", TUNE, ids=[c[0] for c in TUNE])
def test_tune(case: tuple) -> None:
    _check(case)


@pytest.mark.parametrize("case", HELD_OUT, ids=[c[0] for c in HELD_OUT])
def test_held_out(case: tuple) -> None:
    _check(case)


def test_large_header_same_as_walk() -> None:
    """Past the walk budget the reading runs a query (and past 32,000 descendants, split):
    the same reading as the plain walk on a header of many functions, locals and comments."""
    parts = []
    for i in range(600):
        parts.append(f"/* c{i} */ typedef int t{i};\nenum e{i} {{ E{i}_A, E{i}_B }};\n"
                     f"float f{i}(float a, int n) {{ float acc{i} = a; for (int j = 0; j < n; ++j) "
                     f"{{ acc{i} += j * body_word{i}; }} return acc{i}; }}\n")
    new, old = _readings("".join(parts))
    assert len(new.declared) > 3000
    assert new.declared == old.declared
    assert list(new.functions.items()) == list(old.functions.items())
    assert new.words() == old.words()
