"""The catalogue's compiled form: loads the same catalogue as the JSON, and follows the JSON
when it changes (issue 19: start-up)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from cllint.analysis import catalogue as cat_module
from cllint.analysis.catalogue import DATA, catalogue, load, load_file

SMALL = {
    "functions": [
        {"name": "frob", "category": "misc", "summary": "Frobs.", "since": "1.0", "requires": [],
         "deprecated": None, "removed": None, "spec": "misc",
         "overloads": [{"returns": "int", "params": [{"name": "x", "type": "int"}]}]},
    ],
    "types": [{"name": "frob_t", "since": None, "requires": []}],
    "constants": [{"name": "FROB_MAX", "type": "int", "value": "3", "since": "1.0", "requires": [], "spec": "misc"}],
}


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")


def test_compiled_equals_json_for_every_entry(tmp_path: Path) -> None:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    plain = load(data)
    first = load_file(DATA, [tmp_path])  # compiles
    assert list(tmp_path.iterdir()), "the compiled form was not written"
    second = load_file(DATA, [tmp_path])  # reads the compiled form
    for got in (first, second):
        assert list(got.functions) == list(plain.functions)
        assert all(got.function(n) == plain.function(n) for n in plain.functions)
        assert dict(got.types) == dict(plain.types)
        assert dict(got.constants) == dict(plain.constants)


def test_compiled_form_follows_a_changed_json(tmp_path: Path) -> None:
    src = tmp_path / "builtins.json"
    cache = tmp_path / "cache"
    _write(src, SMALL)
    assert load_file(src, [cache]).function("frob").summary == "Frobs."
    changed = json.loads(json.dumps(SMALL))
    changed["functions"][0]["summary"] = "Frobs twice."
    changed["constants"][0]["value"] = "4"
    _write(src, changed)
    st = src.stat()
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # coarse clocks: a visible change
    got = load_file(src, [cache])
    assert got.function("frob").summary == "Frobs twice."
    assert got.constant("FROB_MAX").value == "4"


def test_same_size_same_mtime_edit_is_still_seen(tmp_path: Path) -> None:
    """A regenerated file may keep its size and, on a coarse clock, its mtime."""
    src = tmp_path / "builtins.json"
    cache = tmp_path / "cache"
    _write(src, SMALL)
    st = src.stat()
    load_file(src, [cache])
    changed = json.loads(json.dumps(SMALL))
    changed["functions"][0]["summary"] = "Frobz."  # same length
    _write(src, changed)
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert src.stat().st_size == st.st_size
    assert load_file(src, [cache]).function("frob").summary == "Frobz."


def test_corrupt_compiled_form_is_rebuilt(tmp_path: Path) -> None:
    src = tmp_path / "builtins.json"
    cache = tmp_path / "cache"
    _write(src, SMALL)
    load_file(src, [cache])
    for f in cache.iterdir():
        f.write_bytes(b"\x00garbage")
    assert load_file(src, [cache]).function("frob").overloads[0].signature == "int (int)"


def test_unwritable_cache_still_loads(tmp_path: Path) -> None:
    src = tmp_path / "builtins.json"
    _write(src, SMALL)
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("")
    got = load_file(src, [blocker / "cache"])  # mkdir fails: NotADirectoryError
    assert "frob" in got.functions and got.type("frob_t") is not None


def test_packaged_catalogue_is_the_json(tmp_path: Path) -> None:
    assert DATA.is_file()
    assert catalogue().function("sin") == load(json.loads(DATA.read_text(encoding="utf-8"))).function("sin")


@pytest.mark.parametrize("name", ["read_imagef", "atomic_fetch_add_explicit", "vload_half4", "FLT_MAX"])
def test_heldout_lookups_agree(name: str, tmp_path: Path) -> None:
    """Held out: names from families the other tests do not look at."""
    shutil.copy(DATA, tmp_path / "builtins.json")
    plain = load(json.loads(DATA.read_text(encoding="utf-8")))
    load_file(tmp_path / "builtins.json", [tmp_path / "c"])
    got = load_file(tmp_path / "builtins.json", [tmp_path / "c"])
    assert got.function(name) == plain.function(name)
    assert got.constant(name) == plain.constant(name)
    assert cat_module.catalogue() is catalogue()


def test_a_compiled_form_of_the_old_layout_is_rebuilt(tmp_path: Path) -> None:
    """Format 1 was one marshal of everything; a cache left by an older cllint is replaced."""
    import marshal

    src = tmp_path / "builtins.json"
    cache = tmp_path / "cache"
    _write(src, SMALL)
    load_file(src, [cache])
    (compiled,) = cache.iterdir()
    st = src.stat()
    old = marshal.dumps(((1, marshal.version, st.st_size, st.st_mtime_ns, st.st_mtime_ns + 3_000_000_000, 0),
                         ([], [], {"frob": marshal.dumps({"name": "stale"})})))
    compiled.write_bytes(old)
    assert load_file(src, [cache]).function("frob").summary == "Frobs."
    assert compiled.read_bytes() != old


def test_entries_are_read_when_asked_for_and_pickle_whole(tmp_path: Path) -> None:
    """The compiled form's functions stay in the file until asked for (start-up, issue 32); the
    functions, pickled, carry every entry, not the open file."""
    import pickle

    src = tmp_path / "builtins.json"
    _write(src, SMALL)
    st = src.stat()
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns - 10_000_000_000))  # no racy stamp: no CRC read
    load_file(src, [tmp_path / "c"])
    got = load_file(src, [tmp_path / "c"])
    raw = got.functions._raw  # type: ignore[attr-defined]
    assert not isinstance(raw, dict) and list(raw) == ["frob"]
    copy = pickle.loads(pickle.dumps(got.functions))
    assert copy["frob"] == got.function("frob") and copy._raw == {"frob": raw["frob"]}
