"""Checks the labels of cases.py with clang-19: each includer compiled in a folder holding
the files its build list copies there (or its own folder's files), each fragment nobody
includes compiled after the one source that defines what it uses. Run by hand:
`.venv/bin/python tests/projects/build_lists/verify.py`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).parent))
from cases import HELDOUT, TUNE  # noqa: E402

_CL = re.compile(r"[\w./-]+\.cl\b")


def _folder_of(files: dict[str, str], includer: str) -> dict[str, str]:
    """The files beside `includer` at run time: its folder's, and those a build file of its
    folder lists (resolved from there), by base name."""
    here = PurePosixPath(includer).parent
    out = {PurePosixPath(n).name: t for n, t in files.items() if PurePosixPath(n).parent == here and n.endswith(".cl")}
    for name, text in files.items():
        if PurePosixPath(name).parent == here and (name.endswith("CMakeLists.txt") or name.endswith(".cmake")):
            for ref in _CL.findall(text):
                target = PurePosixPath(*(here / ref).parts)
                parts: list[str] = []
                for p in target.parts:
                    if p == "..":
                        parts.pop()
                    else:
                        parts.append(p)
                key = "/".join(parts)
                if key in files:
                    out[PurePosixPath(key).name] = files[key]
    return out


def clang_errors(folder: Path, main: str) -> list[str]:
    r = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL3.0", "-target", "spir64", "-Xclang",
                        "-finclude-default-header", "-fsyntax-only", main], cwd=folder, capture_output=True, text=True)
    return [line for line in r.stderr.splitlines() if ": error:" in line]


def main() -> int:
    bad = 0
    for split, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        for name, (files, expected) in cases.items():
            for f, text in files.items():
                if not f.endswith(".cl") or "#include" not in text:
                    continue
                with tempfile.TemporaryDirectory() as tmp:
                    for base, body in _folder_of(files, f).items():
                        Path(tmp, base).write_text(body)
                    errs = clang_errors(Path(tmp), PurePosixPath(f).name)
                want = any(PurePosixPath(f).name == e for e, _ in expected)
                ok = bool(errs) == want
                bad += not ok
                print(f"{split:8} {name:42} {f:28} clang errors {len(errs)}: {'ok' if ok else 'LABEL WRONG'}")
    return 1 if bad else 0


if __name__ == "__main__":
    if shutil.which("clang-19") is None:
        sys.exit("clang-19 is not installed")
    sys.exit(main())
