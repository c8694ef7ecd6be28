"""Headers the build generates (issue 29): a checkout lacks them, the program as its build
compiles it has them, so an `#include` of one is no missing file (no CL002).

Two kinds of evidence, each a file of the workspace:
- a template of the header: `config.h.in` (CMake's `configure_file`, autoconf), `x.h.tmpl`,
  `ocl_math.tmpl.h`, `x.in.h` stand for `config.h`, `x.h`, `ocl_math.h`;
- a generator script whose stem a build file names as a word: beignet's CMake runs
  `script/${M}.sh > include/${M}.h` for each `M` of `set(... ocl_as ocl_convert)`, so
  `ocl_as.sh` makes `ocl_as.h`. A script no build file names (`tools/params.py` beside a
  missing `params.h`) is no evidence: the header is missing.
Only the header's file name is known, so the `#include` is matched by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from cllint.analysis.lazy_re import lazy

_TEMPLATE_MARKS = (".in", ".tmpl", ".template")
_HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".clh", ".inc")
_SCRIPT_SUFFIXES = frozenset({".sh", ".py", ".pl"})
_COMMENT = lazy(rb"#[^\n]*")
_WORD = lazy(rb"\w+")
_STANDALONE = lazy(rb"(?<![\w./-])(\w+)(?![\w.])")  # a word no path, file name or option holds


def generated_header_names(files: Iterable[Path], build_files: Mapping[Path, bytes]) -> frozenset[str]:
    """The header names the workspace's templates and build-run scripts generate."""
    out: set[str] = set()
    scripts: set[str] = set()
    for f in files:
        name = f.name
        for mark in _TEMPLATE_MARKS:
            if name.endswith(mark) and name[:-len(mark)].endswith(_HEADER_SUFFIXES):
                out.add(name[:-len(mark)])  # config.h.in
            stem, dot, ext = name.rpartition(".")
            if dot and f".{ext}" in _HEADER_SUFFIXES and stem.endswith(mark) and len(stem) > len(mark):
                out.add(f"{stem[:-len(mark)]}.{ext}")  # ocl_math.tmpl.h
        if f.suffix in _SCRIPT_SUFFIXES and f.stem:
            scripts.add(f.stem)
    if scripts:
        text = b"\n".join(_COMMENT.sub(b"", t) for t in build_files.values())
        # the build's standalone words, found once: a workspace of thousands of scripts (ITK's
        # wrapping) and megabytes of CMake must not be searched once per script
        words = set(_STANDALONE.findall(text))
        for stem in scripts:
            # the stem alone, a word of a list or a command (`ocl_as`), not `gen_vector.py`
            word = stem.encode()
            if word in words if _WORD.fullmatch(word) else \
                    word in text and re.search(rb"(?<![\w./-])" + re.escape(word) + rb"(?![\w.])", text):
                out.add(f"{stem}.h")
    return frozenset(out)
