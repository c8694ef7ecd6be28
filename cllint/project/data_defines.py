"""Macro names a host's data files list (issue 29, aquagpusph): a host that composes `-D`
options at run time (`valstr << "-D" << definitions.names.at(i)`) often takes the names from
its configuration, an XML preset (`<Define name="SUPPORT" value="2.f"/>`), a JSON or YAML file
(`"defines": {"TILE_W": 16}`). Those names are the program's, as the names a composing host
writes as string literals are (`hosts.name_literals`).

Only data files that speak of defines or macros count (a word `defin` or `macro` in them), and
only in a workspace whose host composes `-D` names (the caller's check): elsewhere a data file
defines nothing, and a misspelt name no data file lists is still reported."""

from __future__ import annotations

import re
from collections.abc import Iterable

from cllint.analysis.lazy_re import lazy

MAX_DATA_BYTES = 1 << 20  # a larger file is data of another kind (a mesh, a dataset), not a preset

_SPEAKS = lazy(rb"defin|macro", re.I)
_MACRO = rb"[A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*"
# a whole quoted value (`name="SUPPORT"`, `'CUTOFF_R'`, JSON's `"TILE_W"`), an element's whole
# text (`<name>SCALE_FACTOR</name>`), a YAML key or list item (`BLOCK_SIZE: 64`, `- RADIUS`)
_QUOTED = lazy(rb"""(?<![\w\\])["'](""" + _MACRO + rb""")["']""")
_ELEMENT_TEXT = lazy(rb">\s*(" + _MACRO + rb")\s*</")
_YAML_WORD = lazy(rb"(?m)^[ \t]*(?:-[ \t]+)?(" + _MACRO + rb")[ \t]*(?::|$)")


def data_file_names(texts: Iterable[bytes]) -> frozenset[str]:
    """The macro-style names data files that speak of defines or macros list."""
    out: set[bytes] = set()
    for text in texts:
        if len(text) > MAX_DATA_BYTES or not _SPEAKS.search(text):
            continue
        for pattern in (_QUOTED, _ELEMENT_TEXT, _YAML_WORD):
            out.update(m.group(1) for m in pattern.finditer(text))
    return frozenset(n.decode() for n in out)
