"""analysis/ide/model_cache.py: one model per (revision, file)."""

from cllint.analysis.db import Host
from cllint.analysis.ide.model_cache import model


def test_model_is_memoised_per_revision():
    host = Host()
    host.set_file("a.cl", b"kernel void k(global float *p) { p[0] = 1.0f; }\n")
    snap = host.snapshot()
    m = model(snap, "a.cl")
    assert model(host.snapshot(), "a.cl") is m
    assert "k" in m.functions
    host.set_file("a.cl", b"void f(void) {}\n")
    m2 = model(host.snapshot(), "a.cl")
    assert m2 is not m and "f" in m2.functions
