"""The workspace index cache (cllint/project/model.py `_cached_index`) is read back equal to a
fresh `index_source`, and without importing `pickle` (issue 32: the module costs every run on
a lone file ~1.5 ms to import). Sources written for these cases from the index's description
(project/index.py); TUNE were run while writing the cache code, HELD_OUT only once it was done."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cllint.project import model
from cllint.project.index import index_source

TUNE = {
    "one_line": b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n",
    "macros_and_types": b"#define N 16\ntypedef struct { float x; } P;\nfloat f(P p) { return p.x * N; }\n",
    "fragment_uses": b"__kernel void g(__global int *o) { o[0] = helper(WIDTH); }\n",
    "not_opencl": b"RUN: %clang_cc1 -x c++ %s\nint main() { return 0; }\n",
}
HELD_OUT = {
    "pastes_and_locals": b"#define NEW(T) T##_new()\nvoid h(int n) { int i = n; NEW(vec); }\n",
    "strings_and_comments": b"// a comment naming foo\nconstant char s[] = \"bar baz\";\nint q(void) { return 1; } /* qux */\n",
}


def _expected(data: bytes):
    from cllint.analysis.source_kind import not_opencl_reason

    return None if not_opencl_reason(data) is not None else index_source(data)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(model, "INDEX_CACHE", tmp_path / "index")
    return tmp_path / "index"


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune_cached_index_reads_back_what_index_source_finds(cache: Path, name: str) -> None:
    data = TUNE[name]
    first = model._cached_index(data)  # computed and written
    assert first == _expected(data)
    assert len(list(cache.iterdir())) == 1
    again = model._cached_index(data)  # read back
    assert again == first
    assert type(again) is type(first)


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_cached_index_reads_back_what_index_source_finds(cache: Path, name: str) -> None:
    data = HELD_OUT[name]
    first = model._cached_index(data)
    assert first == _expected(data)
    assert model._cached_index(data) == first


def test_a_damaged_entry_is_computed_again(cache: Path) -> None:
    data = TUNE["macros_and_types"]
    model._cached_index(data)
    (entry,) = cache.iterdir()
    entry.write_bytes(b"\x00garbage")
    assert model._cached_index(data) == index_source(data)
    entry.write_bytes(b"")
    assert model._cached_index(data) == index_source(data)


def test_an_entry_of_another_shape_is_computed_again(cache: Path) -> None:
    import marshal

    data = TUNE["one_line"]
    model._cached_index(data)
    (entry,) = cache.iterdir()
    entry.write_bytes(marshal.dumps(("not", "six")))
    assert model._cached_index(data) == index_source(data)


def test_a_lone_file_check_reads_its_index_without_pickle(tmp_path: Path) -> None:
    folder = tmp_path / "k"
    folder.mkdir()
    (folder / "one.cl").write_bytes(TUNE["one_line"])
    code = ("import sys, io, contextlib\n"
            "from cllint.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['check', '--no-cache', '--exit-zero', '--format', 'json', {str(folder / 'one.cl')!r}])\n"
            "print('pickle' in sys.modules)\n")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    for _ in range(2):  # the first run writes the entry, the second reads it
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "False"
