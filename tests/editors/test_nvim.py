"""End to end: headless Neovim (Debian's 0.7.2 or newer) with editors/nvim, against `cllint server`.

Opens a kernel whose barrier is inside a work-item-dependent branch, waits for CL201 from the
server, applies the first code action and checks that the buffer changed. Fails (does not skip)
when the server cannot start; skips only when `nvim` itself is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NVIM_PLUGIN = ROOT / "editors" / "nvim"
SCRIPT = Path(__file__).with_name("nvim_e2e.lua")
FIXTURE = Path(__file__).with_name("fixtures") / "divergent_barrier.cl"

pytestmark = pytest.mark.slow


def _cllint_dir() -> str:
    """The directory of the `cllint` that belongs to this interpreter (the venv's bin)."""
    return str(Path(sys.executable).parent)


def _run_nvim(tmp_path: Path, source: Path) -> dict:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (apt-get install neovim)")
    kernel = tmp_path / source.name
    kernel.write_text(source.read_text())
    out = tmp_path / "report.json"
    env = dict(os.environ)
    env["PATH"] = _cllint_dir() + os.pathsep + env.get("PATH", "")
    env["CLLINT_E2E_OUT"] = str(out)
    env["CLLINT_E2E_TIMEOUT"] = "20000"
    # keep the user's configuration and state out of it
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    env.pop("CLLINT_CMD", None)
    cmd = [nvim, "--headless", "-u", str(NVIM_PLUGIN / "minimal_init.lua"), str(kernel),
           "-c", f"luafile {SCRIPT}"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert out.exists(), (
        f"nvim wrote no report (rc={proc.returncode})\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    )
    report = json.loads(out.read_text())
    print(json.dumps(report, indent=1))
    report["_stderr"] = proc.stderr
    report["_original"] = source.read_text()
    return report


def test_divergent_barrier_diagnostic_and_fix(tmp_path: Path) -> None:
    report = _run_nvim(tmp_path, FIXTURE)
    assert report.get("filetype") == "opencl", report
    assert not report.get("error"), f"{report.get('error')}\n{json.dumps(report, indent=1)}"

    codes = [d["code"] for d in report["diagnostics"]]
    assert "CL201" in codes, report["diagnostics"]
    cl201 = next(d for d in report["diagnostics"] if d["code"] == "CL201")
    assert "barrier" in cl201["message"]
    assert cl201["lnum"] == 4, cl201  # 0-based: the line of 'barrier(CLK_LOCAL_MEM_FENCE);'

    assert report["actions"], "no code action offered at the CL201 diagnostic"
    text = report["text"]
    assert text != report["_original"], f"applying {report['applied']!r} left the buffer unchanged"
    barrier_line = text.splitlines()[4]
    if "cllint: ignore[CL201]" in barrier_line:
        return  # the suppression quick fix, on the diagnostic's line
    # a real fix (hoist or remove): no barrier is left inside the divergent branch
    if "if (lid < 32)" in text:
        branch = text.split("if (lid < 32)", 1)[1]
        body = branch[: branch.index("}")]
        assert "barrier(" not in body, text

def test_minimal_init_detects_opencl_filetypes(tmp_path: Path) -> None:
    """`.cl` is Lisp by default in Vim and Neovim; the plugin maps .cl/.clh/.ocl/.opencl to opencl."""
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (apt-get install neovim)")
    files = [tmp_path / n for n in ("a.cl", "b.clh", "c.ocl", "d.opencl")]
    for f in files:
        f.write_text("kernel void k(void) {}\n")
    out = tmp_path / "ft.json"
    lua = (
        "local r = {} "
        "for _, b in ipairs(vim.api.nvim_list_bufs()) do "
        "r[vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':t')] = vim.bo[b].filetype end "
        f"local f = io.open([[{out}]], 'w') f:write(vim.fn.json_encode(r)) f:close()"
    )
    env = dict(os.environ, PATH="/usr/bin:/bin", XDG_DATA_HOME=str(tmp_path / "data"))
    subprocess.run(
        [nvim, "--headless", "-u", str(NVIM_PLUGIN / "minimal_init.lua"), *map(str, files),
         "-c", "bufdo doautocmd BufRead", "-c", f"lua {lua}", "-c", "qa!"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert json.loads(out.read_text()) == {"a.cl": "opencl", "b.clh": "opencl", "c.ocl": "opencl", "d.opencl": "opencl"}


# -- kernels inside host code (issue 20, step 3) ------------------------------------------

EMBEDDED = Path(__file__).with_name("fixtures") / "embedded"


def _run_embedded(tmp_path: Path, names: list[str], settings: dict | None = None) -> dict:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (apt-get install neovim)")
    for name in names:
        shutil.copy(EMBEDDED / name, tmp_path / name)
    out = tmp_path / "report.json"
    env = dict(os.environ)
    env["PATH"] = _cllint_dir() + os.pathsep + env.get("PATH", "")
    env.update(CLLINT_E2E_OUT=str(out), CLLINT_E2E_TIMEOUT="20000", CLLINT_E2E_FILES=":".join(names),
               CLLINT_E2E_SETTINGS=json.dumps(settings or {}),
               CLLINT_E2E_STANDIN=f"{sys.executable} {Path(__file__).with_name('fixtures') / 'standin_lsp.py'}")
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[key] = str(tmp_path / key.lower())
    env.pop("CLLINT_CMD", None)
    proc = subprocess.run([nvim, "--headless", "-u", str(NVIM_PLUGIN / "minimal_init.lua"),
                           "-c", f"luafile {Path(__file__).with_name('nvim_embedded.lua')}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert out.exists(), f"nvim wrote no report (rc={proc.returncode})\n{proc.stdout}\n{proc.stderr}"
    report = json.loads(out.read_text())
    assert not report.get("error"), json.dumps(report, indent=1)
    return report["files"]


def test_python_buffer_gets_cllint_beside_its_own_server(tmp_path: Path) -> None:
    files = _run_embedded(tmp_path, ["app.py"])
    app = files["app.py"]
    assert app["filetype"] == "python"
    assert app["clients"] == ["cllint", "standin"], "cllint attaches beside the Python server, which stays"
    line = (EMBEDDED / "app.py").read_text().splitlines()[8]
    col = line.index("undefined_thing")
    assert app["diagnostics"] == [{"code": "CL010", "lnum": 8, "col": col, "end_col": col + len("undefined_thing")}]
    assert app["hover"] is None, "cllint answers no hover on Python code"


def test_cpp_buffer_only_with_embedded_cpp(tmp_path: Path) -> None:
    files = _run_embedded(tmp_path, ["host.cpp", "app.py"])
    assert files["host.cpp"]["clients"] == [] and files["host.cpp"]["diagnostics"] == []
    files = _run_embedded(tmp_path, ["app.py", "host.cpp"], {"embeddedCpp": True})
    col = (EMBEDDED / "host.cpp").read_text().index("bad")
    assert files["host.cpp"]["diagnostics"] == [{"code": "CL010", "lnum": 0, "col": col, "end_col": col + 3}]


def test_heldout_python_without_a_suffix_and_python_turned_off(tmp_path: Path) -> None:
    """A script with no `.py` (filetype from its #! line): the server would read it as OpenCL C,
    so cllint stays off it; `embeddedPython = false` keeps cllint off Python buffers."""
    files = _run_embedded(tmp_path, ["tool", "app.py"])
    assert files["tool"]["filetype"] == "python"
    assert files["tool"]["clients"] == ["standin"] and files["tool"]["diagnostics"] == []
    files = _run_embedded(tmp_path, ["app.py", "host.cpp"], {"embeddedPython": False, "embeddedCpp": True})
    assert files["app.py"]["clients"] == ["standin"] and files["app.py"]["diagnostics"] == []


# -- run on save and the run history (issue 34) ----------------------------------------------

RUN_KERNEL = """\
// cllint-run: global=1024 iterations=3 a=range:float b=fill(2) c=zeros:float:1024:show
__kernel void vadd(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
"""


@pytest.mark.device
def test_run_on_save_virtual_text_and_runs_list(tmp_path: Path) -> None:
    """Two saves with runOnSave on PoCL: each shows its result as virtual text at the kernel's
    line, the second with the output change (CL921's message); :CllintRuns lists both runs."""
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (apt-get install neovim)")
    from cllint.server.runner import list_devices

    if not any(d.type == "cpu" and not d.oclgrind for d in list_devices()):
        pytest.skip("no CPU OpenCL device (apt-get install pocl-opencl-icd)")
    (tmp_path / ".cllint.toml").write_text("")
    kernel = tmp_path / "vadd.cl"
    kernel.write_text(RUN_KERNEL)
    out = tmp_path / "report.json"
    env = dict(os.environ)
    env["PATH"] = _cllint_dir() + os.pathsep + env.get("PATH", "")
    env.update(CLLINT_E2E_OUT=str(out), CLLINT_E2E_TIMEOUT="60000")
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[key] = str(tmp_path / key.lower())
    env.pop("CLLINT_CMD", None)
    proc = subprocess.run([nvim, "--headless", "-u", str(NVIM_PLUGIN / "minimal_init.lua"), str(kernel),
                           "-c", f"luafile {Path(__file__).with_name('nvim_runs.lua')}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    assert out.exists(), f"nvim wrote no report (rc={proc.returncode})\n{proc.stdout}\n{proc.stderr}"
    report = json.loads(out.read_text())
    assert not report.get("error"), json.dumps(report, indent=1)
    first, second = report["virt_texts"]
    assert first["line"] == 1 and second["line"] == 1  # the kernel's line (0-based)
    assert first["text"].strip().endswith("· PoCL") and " ms" in first["text"], first
    assert second["text"].endswith(" · PoCL  ⚠ output 'c' changed since the previous run: c[0] is -2, was 2"), second
    assert second["hl"] == "DiagnosticWarn"
    lines = report["runs_lines"]
    assert lines[0].startswith("vadd.cl: vadd on ") and lines[0].endswith("(2 runs)"), lines
    assert len(lines[1].split()[0]) == 2 and "[CL921]" in lines[3], lines
    assert len((tmp_path / ".cllint" / "runs.jsonl").read_text().splitlines()) == 2
