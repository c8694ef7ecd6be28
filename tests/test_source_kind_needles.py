"""`not_opencl_reason` runs on every keystroke: the words the printf-format and functional-cast
tests need are looked for in one scan each (a regex anchored on `%` or `(`), not one `in` per
word (12 scans of a 90 KB kernel file, ~0.5 ms; issue 32, session 15). The scan must say what
the words said: some of them is in the text."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis import source_kind as S

PIECES = [b"{", b"$", b"}", b"char", b"uchar", b"short", b"int", b"long", b"float", b"double", b"half", b"bool", b"(", b")",
          b"%", b"s", b"d", b"i", b"u", b"x", b" ", b"\n", b"=", b"-", b"*", b"/", b"%%"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_one_scan_says_what_the_words_say(parts: list[bytes]) -> None:
    data = b"".join(parts)
    big = data + b" " * S._SCAN_AT_ONCE  # past the size where one scan replaces the `in` tests
    assert S._has_cast_word(big) == any(w in data for w in S._CAST_NEEDS)
    assert S._has_printf_word(big) == any(w in data for w in S._PRINTF_NEEDS)
    assert S._has_template_marker(big) == any(w in data for w in (b"{%", b"{{", b"${"))
    assert S._has_cast_word(data) == any(w in data for w in S._CAST_NEEDS)
    assert S._has_printf_word(data) == any(w in data for w in S._PRINTF_NEEDS)


def test_cases() -> None:
    pad = b" " * S._SCAN_AT_ONCE
    assert S._has_cast_word(pad + b"x = -int(v >> 31);")
    assert not S._has_cast_word(pad + b"x = (int)(v); y = convert_int4(z);")
    assert S._has_printf_word(pad + b"  %s\n")
    assert not S._has_printf_word(pad + b"a % s; b %= 3;")
    assert S._has_template_marker(pad + b"x = {{ n }};")
    assert S._has_template_marker(pad + b"{% if a %}")
    assert S._has_template_marker(pad + b"${x}")
    assert not S._has_template_marker(pad + b"int a[] = { {1}, {2} }; $ {")
