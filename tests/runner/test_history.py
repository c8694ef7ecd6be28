"""The run history (.cllint/runs.jsonl) and the comparisons behind CL920 / CL921: the labelled
tune cases of history_cases.py, the file format, and bad input. No device needed.
Held-out cases: test_history_heldout.py."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cllint.server.runner import history
from cllint.server.runner.changes import output_change, timing_change
from cllint.server.runner.results import BufferSummary, DeviceInfo, RunResult, Timing
from cllint.server.runner.worker import SAMPLE_MAX, _summary
from history_cases import OUTPUT_CASES, TIMING_CASES, run


@pytest.mark.parametrize("name,prev,cur,slower", TIMING_CASES, ids=[c[0] for c in TIMING_CASES])
def test_timing_cases(name, prev, cur, slower):
    change = timing_change(run(prev), run(cur))
    assert (None if change is None else change.slower) == slower


@pytest.mark.parametrize("name,prev,cur,expected", OUTPUT_CASES, ids=[c[0] for c in OUTPUT_CASES])
def test_output_cases(name, prev, cur, expected):
    change = output_change(run(None, prev), run(None, cur))
    assert (None if change is None else (change.buffer, change.index)) == expected


def test_messages_name_both_sides():
    change = timing_change(run({"median_ms": 0.42, "min_ms": 0.41, "max_ms": 0.43}),
                           run({"median_ms": 0.47, "min_ms": 0.46, "max_ms": 0.48}))
    assert change is not None and change.slower
    assert (change.words(), change.short()) == ("12% slower", "+12%")
    faster = timing_change(run({"median_ms": 1.0, "min_ms": 0.9, "max_ms": 1.1}),
                           run({"median_ms": 0.97, "min_ms": 0.9, "max_ms": 1.0}))
    assert faster is not None and not faster.slower and faster.short() == "−3%"
    hundred = timing_change(run({"median_ms": 0.05, "min_ms": 0.05, "max_ms": 0.05}),
                            run({"median_ms": 5.0, "min_ms": 5.0, "max_ms": 5.0}))
    assert hundred is not None and hundred.words() == "100× slower"
    from history_cases import out
    diff = output_change(run(None, [out("c", [1.0, 2.5])]), run(None, [out("c", [1.0, 3.5])]))
    assert diff is not None and diff.message() == "output 'c' changed since the previous run: c[1] is 3.5, was 2.5"


# -- the worker's summary: never the whole buffer ---------------------------------------------


@pytest.mark.parametrize("n", [1, 1000, 1024, 1025, 1_000_000])
def test_sample_is_strided_and_bounded(n):
    arr = np.arange(n, dtype=np.float32)
    s = _summary(np, "c", arr, None)
    assert len(s["sample"]) <= SAMPLE_MAX and s["sample"][0] == 0.0
    assert s["sample"][1:2] == ([] if n == 1 else [float(s["stride"])])
    assert s["stride"] * (len(s["sample"]) - 1) < n <= s["stride"] * len(s["sample"])
    assert s["digest"].startswith("sha256:") and len(s["digest"]) == 7 + 64


def test_sample_of_ints_and_non_finite_values_is_json():
    ints = _summary(np, "n", np.array([2**40 + 1, -3], dtype=np.int64), None)
    assert ints["sample"] == [2**40 + 1, -3]
    odd = _summary(np, "c", np.array([np.nan, np.inf, -np.inf, 1.5], dtype=np.float32), None)
    assert odd["sample"] == ["nan", "inf", "-inf", 1.5]
    json.dumps({k: odd[k] for k in ("sample", "min", "max", "mean")}, allow_nan=False)  # raises on a bare NaN


# -- the file -------------------------------------------------------------------------------


DEV = DeviceInfo(0, "Portable Computing Language", "OpenCL 3.0", "cpu-x", "v", "cpu", "3.0", "3.1", "OpenCL C 1.2",
                 (), (), "", 2, 1, 1, 1, 64, (64,), False)


def _result(median: float, sample: tuple, ok: bool = True) -> RunResult:
    out = BufferSummary("c", "float32", len(sample), sample[:8], min(sample), max(sample), sum(sample) / len(sample),
                        0, 0, digest="sha256:" + str(hash(sample)), stride=1, sample=sample)
    return RunResult(ok, "k", DEV, (4,), None, ("c=zeros:float:4:show",), 0.01,
                     Timing(3, (median,) * 3, median, median, median, 0.0), (out,))


def test_entries_have_the_documented_fields(tmp_path):
    src = tmp_path / "sub" / "k.cl"
    src.parent.mkdir()
    src.write_text("kernel void k(global float *c) {}\n")
    (tmp_path / ".cllint.toml").write_text("")
    root = history.workspace_root(src)
    assert root == tmp_path  # the configuration's folder, not the file's
    e = history.entry(src, "k", root, "cli", result=_result(0.5, (1.0, 2.0, 3.0, 4.0)))
    assert e["file"] == "sub/k.cl" and e["device"] == "cpu-x (Portable Computing Language)"
    assert set(e) >= {"time", "file", "kernel", "device", "launch", "iterations", "median_ms", "min_ms", "max_ms",
                      "stdev_ms", "source_digest", "outputs", "ok"}
    assert e["launch"] == {"global": [4], "local": None, "args": ["c=zeros:float:4:show"]}
    assert set(e["outputs"][0]) == {"name", "dtype", "count", "min", "max", "mean", "nan", "inf", "digest", "stride",
                                    "sample"}
    rec = history.record(root, e)
    assert rec.previous is None and rec.path == tmp_path / ".cllint" / "runs.jsonl"
    assert (tmp_path / ".cllint" / ".gitignore").read_text().splitlines()[-1] == "*"
    again = history.record(root, history.entry(src, "k", root, "save", result=_result(0.5, (1.0, 2.0, 3.0, 5.0))))
    assert again.previous is not None and again.previous["via"] == "cli"
    assert again.output is not None and (again.output.index, again.output.current) == (3, "5")
    assert again.timing is not None and not again.timing.slower
    assert [e["via"] for e in history.read(root).entries] == ["cli", "save"]


def test_without_configuration_the_files_folder(tmp_path):
    src = tmp_path / "k.cl"
    src.write_text("")
    assert history.workspace_root(src) == tmp_path


def test_corrupt_and_hand_edited_lines_are_skipped_with_a_warning(tmp_path):
    src = tmp_path / "k.cl"
    src.write_text("kernel void k(global float *c) {}\n")
    good = history.entry(src, "k", tmp_path, "cli", result=_result(0.5, (1.0, 2.0)))
    history.append(tmp_path, good)
    path = tmp_path / ".cllint" / "runs.jsonl"
    with open(path, "a") as f:
        f.write('{"time": "x", "file": "k.cl"\n')  # cut short
        f.write(json.dumps({**good, "median_ms": "fast"}) + "\n")  # hand-edited
        f.write(json.dumps({**good, "v": 99}) + "\n")  # a newer format
        f.write('{"time": "no newline at the end"')
    h = history.read(tmp_path)
    assert len(h.entries) == 1 and len(h.warnings) == 4
    assert "runs.jsonl:2" in h.warnings[0] and "not JSON" in h.warnings[0]
    assert "'median_ms'" in h.warnings[1] and "newer" in h.warnings[2]
    rec = history.record(tmp_path, history.entry(src, "k", tmp_path, "cli", result=_result(0.5, (1.0, 2.0))))
    assert rec.previous is not None and len(rec.warnings) == 4  # the run still compares and records
    assert [w.split("runs.jsonl:")[1].split(":")[0] for w in rec.warnings] == ["5", "4", "3", "2"]
    assert len(history.read(tmp_path).entries) == 2  # the new line was not glued to the open one


def test_a_failure_records_no_time(tmp_path):
    src = tmp_path / "k.cl"
    src.write_text("")
    e = history.entry(src, "k", tmp_path, "save", error="running 'k' was stopped after 2 s during 'run'",
                      device=DEV)
    assert e["ok"] is False and e["median_ms"] is None and e["outputs"] == [] and "stopped" in e["error"]
    history.append(tmp_path, e)
    assert history.read(tmp_path).entries[0]["error"] == e["error"]
    ok = history.entry(src, "k", tmp_path, "save", result=_result(0.5, (1.0,)))
    assert history.previous([e], ok) is None  # a failure is no baseline


@pytest.mark.parametrize("block", [1, 3, 7, 1 << 16])
@pytest.mark.parametrize("text", ["a\nbb\n\nccc\n", "a\nbb\n\nccc", "only", ""])
def test_the_history_is_read_from_the_end_in_blocks(tmp_path, block, text):
    path = tmp_path / "runs.jsonl"
    path.write_text(text)
    got = list(history._reversed_lines(path, block))
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    assert got == [(k, line) for k, line in enumerate(reversed(lines if text else []), 1)]
