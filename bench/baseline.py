"""Build the baseline grammar: PyPI `tree-sitter-opencl` 0.0.2, from its sdist.

The sdist ships `src/parser.c` (LANGUAGE_VERSION 13) but not `src/tree_sitter/parser.h`, so
it does not build as published. We supply the parser.h of the same ABI from the npm package
`tree-sitter-c` 0.20.2 (its parser.c is also LANGUAGE_VERSION 13; checked below) and compile
the extension with the same flags as our own grammar (setup.py: `-std=c11 -O2` on top of
Python's CFLAGS), so the throughput comparison is about the parse tables, not the compiler.

Everything lives in bench/.cache/baseline/; nothing is installed into the venv.

    .venv/bin/python bench/baseline.py     # build (idempotent) and parse a smoke test
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import re
import shutil
import subprocess
import sys
import tarfile
from functools import cache
from pathlib import Path

import tree_sitter

BENCH = Path(__file__).resolve().parent
ROOT = CACHE = BENCH / ".cache" / "baseline"
DL = CACHE / "dl"
SRC = CACHE / "tree-sitter-opencl-0.0.2"
BUILD = CACHE / "build"

SDIST = ("tree-sitter-opencl", "0.0.2", "tree_sitter_opencl-0.0.2.tar.gz",
         "03547fa72a559d2f3577234e7af04af047581dee2799e4c2508ed445ca83a04a")  # fmt: skip
HEADER_PKG = ("tree-sitter-c", "0.20.2", "tree-sitter-c-0.20.2.tgz",
              "1cccc6df133f6f1f3a5aa517c5b728f7974df283b8ee494221059b12790c5442")  # fmt: skip
COMPILE_ARGS = ["-std=c11", "-O2", "-Wno-unused"]  # same as cllint's setup.py


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fetch(cmd: list[str], name: str, sha: str) -> Path:
    DL.mkdir(parents=True, exist_ok=True)
    path = DL / name
    if not path.exists():
        subprocess.run(cmd, cwd=DL, check=True, stdout=subprocess.DEVNULL)
    got = _sha256(path)
    if got != sha:
        raise RuntimeError(f"{name}: sha256 {got} differs from the pinned {sha}")
    return path


def _language_version(parser_c: str) -> int:
    m = re.search(r"#define LANGUAGE_VERSION (\d+)", parser_c)
    if not m:
        raise RuntimeError("no LANGUAGE_VERSION in parser.c")
    return int(m.group(1))


def _built() -> Path | None:
    found = sorted(BUILD.glob("tree_sitter_opencl_baseline/_binding*.so"))
    return found[0] if found else None


def build() -> Path:
    """Download, patch and compile the baseline; return the extension's path (cached)."""
    if (so := _built()) is not None:
        return so
    name, ver, fname, sha = SDIST
    sdist = _fetch(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", f"{name}=={ver}"],
        fname, sha,
    )  # fmt: skip
    hname, hver, hfile, hsha = HEADER_PKG
    tgz = _fetch(["npm", "pack", "-q", f"{hname}@{hver}"], hfile, hsha)

    shutil.rmtree(SRC, ignore_errors=True)
    with tarfile.open(sdist) as tf:
        tf.extractall(CACHE, filter="data")
    with tarfile.open(tgz) as tf:
        header = tf.extractfile("package/src/tree_sitter/parser.h").read()  # type: ignore[union-attr]
        c_parser = tf.extractfile("package/src/parser.c").read().decode()  # type: ignore[union-attr]
    ours = _language_version((SRC / "src" / "parser.c").read_text())
    theirs = _language_version(c_parser)
    if ours != theirs:
        raise RuntimeError(f"ABI mismatch: baseline parser.c is v{ours}, parser.h source is v{theirs}")
    (SRC / "src" / "tree_sitter").mkdir(exist_ok=True)
    (SRC / "src" / "tree_sitter" / "parser.h").write_bytes(header)

    # Compile in a subprocess so setuptools' global state stays out of the caller.
    script = f"""
from setuptools import Extension, setup
setup(
    name="tree_sitter_opencl_baseline",
    script_args=["-q", "build_ext", "--build-lib", {str(BUILD)!r}, "--build-temp", {str(CACHE / "tmp")!r}],
    ext_modules=[Extension(
        "tree_sitter_opencl_baseline._binding",
        sources=["bindings/python/tree_sitter_opencl/binding.c", "src/parser.c"],
        include_dirs=["src"],
        extra_compile_args={COMPILE_ARGS!r},
        define_macros=[("Py_LIMITED_API", "0x03070000"), ("PY_SSIZE_T_CLEAN", None)],
        py_limited_api=True,
    )],
)
"""
    subprocess.run([sys.executable, "-c", script], cwd=SRC, check=True)
    so = _built()
    if so is None:
        raise RuntimeError("baseline build produced no extension")
    return so


@cache
def language() -> tree_sitter.Language:
    """The baseline's tree_sitter.Language, building it first if needed."""
    so = build()
    loader = importlib.machinery.ExtensionFileLoader("_binding", str(so))
    spec = importlib.util.spec_from_file_location("_binding", so, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return tree_sitter.Language(module.language())


if __name__ == "__main__":
    lang = language()
    tree = tree_sitter.Parser(lang).parse(b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }")
    print(f"{build()}\nABI {lang.abi_version}; has_error={tree.root_node.has_error}")
    print(tree.root_node)
