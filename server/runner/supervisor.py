"""Runs one worker request in a child process with a time and a memory limit.

A hang, a crash in the driver or a segfaulting kernel ends the child, never the caller:
the child gets its own process group (killed as a whole), an address-space cap on CPU
devices (set by the worker) and an RSS watchdog here for every device.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .results import RunnerError

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_MB = 4096
_POLL_S = 0.02
# -P: the current folder is not put on sys.path, so a `cllint/` directory there (a checkout,
# any user folder of that name) cannot shadow the installed package (PYTHONPATH still counts)
WORKER_COMMAND = (sys.executable, "-P", "-m", "cllint.server.runner.worker")
# Phases the worker writes before the OpenCL driver is loaded: a death there is not the driver's
_BEFORE_DRIVER = ("start", "load driver")
_ERROR_LINE = re.compile(r"^(Fatal Python error: .*|[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b.*)$")


@dataclass(frozen=True)
class Reply:
    data: dict
    stdout: str
    stderr: str
    seconds: float


class WorkerStopped(RunnerError):
    """The worker died or was killed; `stderr` still holds what it printed (Oclgrind reports)."""

    def __init__(self, message: str, hint: str, stderr: str = "") -> None:
        super().__init__(message, hint)
        self.stderr = stderr


def call(request: dict, *, timeout_s: float = DEFAULT_TIMEOUT_S, memory_mb: int = DEFAULT_MEMORY_MB,
         env: dict[str, str] | None = None, what: str = "the worker") -> Reply:
    with tempfile.TemporaryDirectory(prefix="cllint-run-") as tmp:
        req_path, res_path = Path(tmp, "request.json"), Path(tmp, "result.json")
        phase_path = Path(str(res_path) + ".phase")
        req_path.write_text(json.dumps({**request, "memory_limit_bytes": memory_mb << 20}))
        out_path, err_path = Path(tmp, "stdout"), Path(tmp, "stderr")
        t0 = time.monotonic()
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            proc = subprocess.Popen(
                [*WORKER_COMMAND, str(req_path), str(res_path)],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err, env={**os.environ, **(env or {})},
                start_new_session=True,  # own process group: driver threads and helpers die with it
            )
            stopped = _watch(proc, t0 + timeout_s, memory_mb << 20)
        seconds = time.monotonic() - t0
        stdout = out_path.read_text(errors="replace")
        stderr = err_path.read_text(errors="replace")
        step = phase_path.read_text() if phase_path.exists() else "start"
        if stopped == "timeout":
            raise WorkerStopped(f"{what} was stopped after {timeout_s:g} s during '{step}'",
                                "the kernel may loop forever; fix it or raise --timeout", stderr)
        if stopped == "memory":
            raise WorkerStopped(f"{what} was stopped at the {memory_mb} MiB memory limit during '{step}'",
                                "make the buffers smaller or raise --memory-limit", stderr)
        if not res_path.exists() and (step == "start" or _python_error(stderr, proc.returncode)):
            raise _not_started(what, step, stderr, proc.returncode)
        if not res_path.exists():
            raise WorkerStopped(f"{what} crashed during '{step}' ({_describe(proc.returncode)})",
                                "the kernel or the OpenCL driver crashed; try the 'oclgrind' device to "
                                "find invalid memory accesses", stderr)
        data = json.loads(res_path.read_text())
    return Reply(data, stdout, stderr, seconds)


def _python_error(stderr: str, rc: int | None) -> str | None:
    """The worker's own last error line when it exited (not killed) after a Python error."""
    if rc is None or rc <= 0:
        return None  # a signal: a crash in native code, the driver's or the kernel's
    lines = [x.strip() for x in stderr.splitlines() if x.strip()]
    return next((x for x in reversed(lines) if _ERROR_LINE.match(x)), None)


def _not_started(what: str, step: str, stderr: str, rc: int | None) -> WorkerStopped:
    """The worker died before or outside the driver: its own error, and how to repair the environment."""
    lines = [x.strip() for x in stderr.splitlines() if x.strip()]
    last = _python_error(stderr, rc) or (lines[-1] if lines else _describe(rc))
    where = "could not start" if step in _BEFORE_DRIVER else f"failed during '{step}'"
    hint = (f"the worker runs '{sys.executable} -P -m cllint.server.runner.worker'; check that this "
            "environment imports cllint (pip install --force-reinstall 'cllint[device]') and that "
            "PYTHONPATH and PYTHONHOME do not point elsewhere")
    return WorkerStopped(f"{what} {where}: {last}", hint, stderr)


def _watch(proc: subprocess.Popen, deadline: float, memory_bytes: int) -> str | None:
    while proc.poll() is None:
        if time.monotonic() > deadline:
            _kill(proc)
            return "timeout"
        if _rss(proc.pid) > memory_bytes:
            _kill(proc)
            return "memory"
        time.sleep(_POLL_S)
    return None


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _describe(rc: int | None) -> str:
    if rc is not None and rc < 0:
        try:
            sig = signal.Signals(-rc)
        except ValueError:
            return f"signal {-rc}"
        return {signal.SIGSEGV: "segmentation fault", signal.SIGBUS: "bus error",
                signal.SIGABRT: "aborted", signal.SIGKILL: "killed",
                signal.SIGFPE: "arithmetic exception"}.get(sig, sig.name)
    return f"exit status {rc}"
