"""File names in `cllint build` and `cllint run` output, in the form `cllint check` uses: as the
user gave them. The runner reports absolute paths (the worker needs them); here the main file
becomes the argument as typed, and a file beside or under it (an include) keeps the same prefix."""

from __future__ import annotations

import os
from pathlib import Path


def as_given(file: str, given: Path) -> str:
    """`file` (absolute, from the runner) written relative to how `given` was named."""
    main = given.resolve()
    path = Path(file)
    if path == main:
        return str(given)
    if path.is_relative_to(main.parent):
        return os.path.join(os.path.dirname(str(given)), str(path.relative_to(main.parent)))
    if not given.is_absolute() and path.is_relative_to(Path.cwd()):
        return os.path.relpath(path)
    return file
