"""Two Hosts in one process, with different options and different headers behind the same
include, edited in turn, each equal to the same Host alone in a process of its own (issue 33):
a server with two workspaces, a test or a library user must not get one host's facts in
the other's results through a module-level cache.

Both hosts hold the same file ids and, at every step, the same texts (the same seeded edits,
broken code included): a cache keyed by file id or text alone, not by options or headers,
hands one host the other's result. Halfway, each host's `-D` options change with no edit: a
cache keyed by the tree alone keeps the old macros' result. The reference is each step of
each host read from scratch (a new Host per step) in a fresh interpreter of its own
(`python tests/test_two_hosts.py HOST`), where nothing else was analysed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

from edit_fuzzer import EditFuzzer, to_bytes  # noqa: E402

from cllint.analysis.records import replace  # noqa: E402
from cllint.analysis.db import Change, Host, TextEdit  # noqa: E402
from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.analysis.target import Target  # noqa: E402

STEPS = 14
FIXTURES = TESTS / "rules" / "fixtures"
SOURCES = {
    # a kernel that reads the header: its macros, types and helpers differ between the hosts
    "main.cl": """#include "common.h"
kernel void scale(global real *out, global const real *in, local real *tile) {
    int lid = get_local_id(0);
    tile[lid] = in[get_global_id(0)] * SCALE;
    if (lid < TILE) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = helper(tile[(lid + 1) % TILE]) + only_in_a(lid);
}
#ifdef USE_D
#define T double
#else
#define T float
#endif
kernel void typed(global T *p) { T x = p[0]; p[1] = x; }
kernel void wide(global double *d) {
    half h;
    d[get_global_id(0)] = sub_group_reduce_add(1.0);
}
""",
    "barrier.cl": (FIXTURES / "barriers" / "pos_collective_divergent.cl").read_text(),
    "race.cl": (FIXTURES / "races" / "tune" / sorted(p.name for p in (FIXTURES / "races" / "tune").glob("*.cl"))[0]).read_text(),
    "features.cl": (FIXTURES / "features" / "portability_unguarded.cl").read_text(),
    "spaces.cl": (FIXTURES / "address_space" / "declarations.cl").read_text(),
}
HEADERS = {
    "a": """#define TILE 16
#define SCALE 2.0f
typedef float real;
real helper(real x) { return x * 0.5f; }
int only_in_a(int v);
""",
    "b": """#pragma once
#define TILE 8
#define SCALE 2.0
typedef double real;
double helper(double x, double y);
int only_in_b(int v);
""",
}


@dataclass(frozen=True)
class Config:
    options: LintOptions
    header: str
    later: LintOptions  # from the options-only version on (before edit OPTIONS_AT)


OPTIONS_AT = STEPS // 2

_A = LintOptions(target=Target.preset("CL1.2"))
_B = LintOptions(target=Target.preset("CL3.0"), mode="target", defines=(("TILE", "4"),), extend_select=("CL308",))
CONFIGS = {
    "a": Config(_A, HEADERS["a"], replace(_A, defines=(("USE_D", "1"),))),
    "b": Config(_B, HEADERS["b"], replace(_B, defines=(("TILE", "4"), ("USE_D", "1")))),
}


def _resolver(header: bytes):
    def resolve(name: str, angled: bool, including: str):
        # the same id for both hosts, another text: as one path read before and after a save
        return ("inc/common.h", header) if name == "common.h" else None
    return resolve


def _edits() -> list[tuple[str, TextEdit, bytes]]:
    """The seeded edit sequence both hosts apply: (file, edit in bytes, the text after)."""
    fuzz = EditFuzzer(33, scale=0.05, limit=6_000)
    texts = dict(SOURCES)
    out = []
    for step in range(STEPS):
        file = sorted(texts)[step % len(texts)]
        text = texts[file]
        e = fuzz.edit(text)
        after = e.apply(text)
        start, end = len(to_bytes(text[: e.start])), len(to_bytes(text[: e.end]))
        out.append((file, TextEdit(start, end, to_bytes(e.text)), to_bytes(after)))
        texts[file] = after
    return out


def _results(snap) -> dict[str, list[str]]:
    return {f: [repr(d) for d in snap.diagnostics(f)] for f in sorted(SOURCES)}


def _changes(config: Config) -> list[Change]:
    """The host's changes after its files are opened: the edits, and the options alone
    once, before edit OPTIONS_AT (no edit to make anything look new)."""
    out = [Change(edits={file: [edit]}) for file, edit, _ in _edits()]
    return [*out[:OPTIONS_AT], Change(default_options=config.later), *out[OPTIONS_AT:]]


class Run:
    """One host replaying its changes; `step(i)` applies change i and returns every file's
    result."""

    def __init__(self, name: str) -> None:
        self.config = config = CONFIGS[name]
        self.host = Host(config.options, include_resolver=_resolver(config.header.encode()))
        self.host.apply_change(Change(files={f: to_bytes(t) for f, t in SOURCES.items()}))
        self.changes = _changes(config)

    def first(self) -> dict[str, list[str]]:
        return _results(self.host.snapshot())

    def step(self, i: int) -> dict[str, list[str]]:
        self.host.apply_change(self.changes[i])
        return _results(self.host.snapshot())


def from_scratch(name: str) -> list[dict[str, list[str]]]:
    """Every version of host `name`'s files, each read by a Host of its own."""
    config = CONFIGS[name]
    texts = {f: to_bytes(t) for f, t in SOURCES.items()}
    options = config.options
    out = []
    for change in [Change(), *_changes(config)]:
        options = change.default_options or options
        for file, edits in change.edits.items():
            [e] = edits
            texts[file] = texts[file][:e.start] + e.new_text + texts[file][e.old_end:]
        host = Host(options, include_resolver=_resolver(config.header.encode()))
        host.apply_change(Change(files=dict(texts)))
        out.append(_results(host.snapshot()))
    return out


def test_options_alone_change_the_result() -> None:
    """`-D` options changed with no edit, the file read just before and after: the second
    read is that of the new options (a memo keyed on the tree alone kept the old one)."""
    source = SOURCES["main.cl"].encode()
    config = CONFIGS["a"]
    host = Host(config.options, include_resolver=_resolver(config.header.encode()))
    host.set_file("main.cl", source)
    before = host.snapshot().diagnostics("main.cl")
    host.apply_change(Change(default_options=config.later))
    after = host.snapshot().diagnostics("main.cl")
    fresh = Host(config.later, include_resolver=_resolver(config.header.encode()))
    fresh.set_file("main.cl", source)
    assert after == fresh.snapshot().diagnostics("main.cl")
    assert after != before  # USE_D makes 'typed' use double: a CL301 more


def test_two_hosts_interleaved_equal_each_alone() -> None:
    reference = {}
    for name in CONFIGS:
        r = subprocess.run([sys.executable, str(Path(__file__)), name], capture_output=True, text=True,
                           timeout=600, check=True)
        reference[name] = json.loads(r.stdout)
    runs = {name: Run(name) for name in CONFIGS}
    got = {name: [run.first()] for name, run in runs.items()}
    for i in range(STEPS + 1):
        for name, run in runs.items():  # in turn, on the same file ids and texts
            got[name].append(run.step(i))
    # the options matter: the hosts disagree somewhere, so equality below is not vacuous
    assert got["a"] != got["b"]
    for name in CONFIGS:
        for i, (mine, ref) in enumerate(zip(got[name], reference[name], strict=True)):
            for file in mine:
                assert mine[file] == ref[file], f"host {name}, version {i}, {file}"


if __name__ == "__main__":
    print(json.dumps(from_scratch(sys.argv[1])))
