"""Which host language a file name means, as plain string constants rather than an `Enum`
(issue 32, session 19: a `str` enum made at every start-up, ~0.5M instructions, for a lookup
compared by identity and used as dictionary keys only). Cases written before the change; the
last (held out) was run once it was done."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cllint.analysis.embedded.languages import HostLanguage, host_language, is_host_file


def test_suffixes_name_their_language_by_identity() -> None:
    assert host_language("a/b/host.py") is HostLanguage.PYTHON
    assert host_language("HOST.CPP") is HostLanguage.CPP
    assert host_language("x.pyw") is HostLanguage.PYTHON and host_language("y.hxx") is HostLanguage.CPP
    assert HostLanguage.PYTHON == "python" and HostLanguage.CPP == "cpp"


def test_kernel_files_and_headers_are_no_host_language() -> None:
    for name in ("k.cl", "kernels.h", "noext", "a.clh"):
        assert host_language(name) is None
        assert not is_host_file(name)


def test_a_pyopencl_host_file_is_still_linted_for_its_kernel(tmp_path: Path) -> None:
    # held out
    host = tmp_path / "run.py"
    host.write_text('import pyopencl as cl\n'
                    'SRC = """\n'
                    '__kernel void k(__global float *a) { a[get_global_id(0)] = undefined_name; }\n'
                    '"""\n'
                    'prg = cl.Program(ctx, SRC).build()\n')
    run = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--exit-zero", "--format", "json",
                          str(host)], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                         env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert any("undefined_name" in d["message"] and d["path"].endswith("run.py") for d in found), found
