"""host_templates.py's readers: the words in a parameter's type position, and the names spelled
like a host's macros (issue 29, templates whose host is elsewhere)."""

from __future__ import annotations

from cllint.project.host_templates import _host_spelled, host_template, type_words


def test_type_words_are_the_word_before_each_parameters_name() -> None:
    src = (b"// IMAGE_x_TYPE in a comment\n"
           b"__kernel void k(IMAGE_src_TYPE src, const __global floatX *a, float b, struct s *p, uint n) {\n"
           b"  if (b) { f(a b); }\n}\n")
    got = type_words(src)
    assert [w for w, _ in got] == ["IMAGE_src_TYPE", "floatX"]
    assert src[got[0][1]:got[0][1] + len("IMAGE_src_TYPE")] == b"IMAGE_src_TYPE"


def test_heads_inside_bodies_are_not_read() -> None:
    assert type_words(b"void f() {\n  LOOP(int i, n) { }\n}\n") == []


def test_macro_spelling_may_embed_a_declared_name() -> None:
    declared = {"src", "label_map"}
    assert _host_spelled("READ_src_IMAGE", declared)
    assert _host_spelled("IMAGE_label_map_TYPE", declared)
    assert _host_spelled("BLOCK_SIZE", declared)
    assert not _host_spelled("READ_dst_IMAGE", declared)  # `dst` is not the file's
    assert not _host_spelled("load_tile", declared)


def test_no_template_without_evidence_or_with_a_foreign_header() -> None:
    def defined(n: str) -> bool:
        return n in {"float", "image2d_t"}

    plain = b"__kernel void k(image2d_t src) { READ_src_IMAGE(src); }\n"
    assert host_template(plain, {"READ_src_IMAGE", "src"}, {"src"}, defined, {"k.cl"}) is None
    foreign = b"#include <types.h>\n__kernel void k(real_t x) { }\n"
    assert host_template(foreign, {"real_t", "x"}, {"x"}, defined, {"k.cl"}) is None
    local = b"__kernel void k(real_t x) { x = SCALE; }\n"
    found = host_template(local, {"real_t", "x", "SCALE"}, {"x"}, defined, {"k.cl"})
    assert found is not None and found.names == ("SCALE", "real_t")
    assert found.note[1:] == (local.index(b"real_t"), local.index(b"real_t") + 6)


def test_heads_in_if_groups_are_not_read_but_guarded_files_are() -> None:
    cpp = b"#ifdef __cplusplus\ntemplate <typename T> T id(T x) { return x; }\n#endif\n"
    assert type_words(cpp) == []
    guarded = b"#ifndef K_CLH\n#define K_CLH\nvoid f(REAL x) { }\n#endif\n"
    assert [w for w, _ in type_words(guarded)] == ["REAL"]


def test_a_third_word_or_a_star_before_makes_no_evidence() -> None:
    # (a macro after the name, a qualifier macro before the type, `*` before the word)
    src = b"void f(DATA_T *bias POST_ARGS, GLOBAL_SIZE_2_DIMS image2d_t in, int *RESTRICT p, T x) { }\n"
    assert [w for w, _ in type_words(src)] == ["T"]


def test_a_computed_include_may_declare_the_types() -> None:
    src = b"#include M2S(INCLUDE_PATH/inc_types.h)\n__kernel void k(real_t x) { }\n"
    assert host_template(src, {"real_t", "x"}, {"x"}, lambda n: False, {"k.cl"}) is None
