"""The dataclass method cache (cllint/classcache.py): a hit builds the same class a compile
would, a new class is compiled and saved, and a damaged cache file only means compiling."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# A child process with its own cache folders (XDG and a package folder it cannot write to are
# not used: classcache.cache_dirs is pointed at one folder through the environment below).
CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from cllint import classcache
    folder = Path(sys.argv[1])
    classcache.cache_dirs = lambda: [folder]
    classcache._codes.clear()
    classcache._load()
    before = len(classcache._codes)
    import dataclasses
    classcache._installed = False
    classcache.install()

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 2

    p = Point(1)
    assert p == Point(1, 2) and hash(p) == hash(Point(1, 2)) and p != Point(1, 3)
    assert repr(p) == "Point(x=1, y=2)", repr(p)
    try:
        p.x = 5
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("frozen class accepted an assignment")
    print(before, int(classcache._missed))
""")


def _run(folder: Path) -> tuple[int, int]:
    env = {**os.environ}
    env.pop("CLLINT_NO_CLASS_CACHE", None)
    out = subprocess.run([sys.executable, "-c", CHILD, str(folder)], capture_output=True, text=True, env=env,
                         check=True).stdout.split()
    return int(out[0]), int(out[1])


def test_second_run_compiles_nothing_and_classes_behave(tmp_path: Path) -> None:
    loaded, missed = _run(tmp_path)
    assert missed == 1, "the first run had no cache and must have compiled"
    cache = list(tmp_path.glob("dataclass-methods.*.marshal"))
    assert len(cache) == 1 and sys.implementation.cache_tag in cache[0].name
    loaded, missed = _run(tmp_path)
    assert loaded > 0 and missed == 0, "the second run must find every generated method in the cache"


@pytest.mark.parametrize("damage", [b"", b"\x00garbage", b"\xe3\x01\x00"])
def test_damaged_cache_is_ignored_and_replaced(tmp_path: Path, damage: bytes) -> None:
    _run(tmp_path)
    cache = next(tmp_path.glob("dataclass-methods.*.marshal"))
    cache.write_bytes(damage)
    loaded, missed = _run(tmp_path)
    assert loaded == 0 and missed == 1
    assert _run(tmp_path)[1] == 0, "the damaged file was replaced by a good one"


def test_cli_runs_with_the_cache_off(tmp_path: Path) -> None:
    kernel = tmp_path / "k.cl"
    kernel.write_text("__kernel void k(__global float *a) { a[get_global_id(0)] = undeclared; }\n")
    env = {**os.environ, "CLLINT_NO_CLASS_CACHE": "1"}
    res = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", str(kernel)], capture_output=True,
                         text=True, env=env)
    assert res.returncode == 1 and "CL010" in res.stdout
