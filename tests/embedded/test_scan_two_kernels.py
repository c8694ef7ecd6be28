"""GenericScanKernel is two launches in pyopencl (the scan reads `input_expr`, the final
update runs `output_statement`), so the kernel cllint lints around the snippets is two
kernels too: an in-place scan is no race, and the snippets are still checked, once each."""

from __future__ import annotations

import textwrap

import pytest

from cllint.analysis.embedded import lint_host
from cllint.analysis.lint import LintOptions

from pocl_host import run_host

IN_PLACE = textwrap.dedent('''\
    import numpy as np
    import pyopencl as cl
    from pyopencl.scan import GenericScanKernel

    ctx = cl.create_some_context()
    knl = GenericScanKernel(ctx, np.int32, arguments="__global int *ary", input_expr="ary[i]",
                            scan_expr="a+b", neutral="0", output_statement="ary[i+1] = item;")
    ''')


def _codes(source: str) -> list[tuple[str, str]]:
    data = source.encode()
    return [(d.code, data[d.span.start:d.span.end].decode()) for d in lint_host("host.py", data, LintOptions())]


def test_in_place_scan_is_not_a_race() -> None:
    assert not [c for c, _ in _codes(IN_PLACE) if c.startswith("CL21")]


def test_both_snippets_and_the_arguments_are_checked_once() -> None:
    source = IN_PLACE.replace('output_statement="ary[i+1] = item;"', 'output_statement="ary[i+1] = item + q1;"') \
        .replace('input_expr="ary[i]"', 'input_expr="ary[i] + q2"') \
        .replace('arguments="__global int *ary"', 'arguments="__global int *ary, int ary"')
    found = _codes(source)
    assert ("CL010", "q1") in found and ("CL010", "q2") in found
    assert [c for c, _ in found if c == "CL018"] == ["CL018"], found  # the arguments' error, not twice


POCL_CONTEXT = textwrap.dedent('''\
    pocl = [d for p in cl.get_platforms() if "Portable" in p.name for d in p.get_devices()]
    if not pocl:
        raise SystemExit("no PoCL platform")
    ctx = cl.Context(pocl[:1])
    ''')


@pytest.mark.device
def test_pyopencl_runs_the_in_place_scan_correctly_on_pocl(tmp_path) -> None:
    """The oracle for 'no race': PoCL computes the in-place scan right, every time."""
    pytest.importorskip("pyopencl")
    host = tmp_path / "scan_host.py"
    host.write_text(IN_PLACE.replace("ctx = cl.create_some_context()\n", POCL_CONTEXT) + textwrap.dedent('''
        import pyopencl.array as cla
        q = cl.CommandQueue(ctx)
        for n in (1000, 4097):
            host = np.arange(1, n + 1, dtype=np.int32)
            a = cla.to_device(q, np.concatenate([host, [0]]).astype(np.int32))
            knl(a, size=n, queue=q)
            got = a.get()
            assert got[0] == 1 and (got[1:] == np.cumsum(host)).all(), got[:8]
        print("ok")
        '''))
    r = run_host(host)  # skips, saying how to install PoCL, where there is none
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]
