"""Which of the header names a build supplies (host_headers.py, generated_headers.py) a source
includes: read for every source, with or without host files, so apart from the host readers."""

from __future__ import annotations

import re
from collections.abc import Iterable

# A host builds with an include folder outside the workspace: any missing header may be there.
EXTERNAL = "*"


def included_of(names: Iterable[str], text: bytes) -> tuple[str, ...]:
    """The names among `names` that `text` includes (`#include "x.h"` or `<x.h>`), sorted;
    `EXTERNAL` kept as it is."""
    out = []
    for name in names:
        if name == EXTERNAL:
            out.append(name)
            continue
        raw = name.encode()
        if raw in text and re.search(rb'#[ \t]*include[ \t]*["<]' + re.escape(raw) + rb'[">]', text):
            out.append(name)
    return tuple(sorted(out))
