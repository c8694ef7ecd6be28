"""cllint/results_cache.py: an entry holds while every file its result read stamps the same;
a result that read a file written a moment ago, or one a budget cut short, is not kept."""

from __future__ import annotations

import os
import time
from pathlib import Path

from cllint.analysis.diagnostics import Diagnostic, Severity, Span
from cllint.analysis.lint import LintOptions
from cllint.includes import stamp_of
from cllint.results_cache import entry_key, load, store

D = Diagnostic("CL012", Severity.WARNING, "m", Span("f", 0, 1))


def _aged(path: Path, text: str, seconds: float = 60) -> None:
    path.write_text(text)
    past = time.time_ns() - int(seconds * 1e9)
    os.utime(path, ns=(past, past))


def test_an_entry_holds_until_a_file_it_read_changes_or_appears(tmp_path: Path) -> None:
    header, absent = tmp_path / "a.h", tmp_path / "b.h"
    _aged(header, "#define A 1\n")
    key = entry_key("f", b"text", LintOptions())
    store(tmp_path / "kept", key, [D], {str(header): stamp_of(header), str(absent): None})
    assert load(tmp_path / "kept", key) == ([D], {str(header): stamp_of(header), str(absent): None})
    _aged(absent, "")  # a header that now exists where the result found none
    assert load(tmp_path / "kept", key) is None
    absent.unlink()
    assert load(tmp_path / "kept", key) is not None
    _aged(header, "#define A 2\n", 30)
    assert load(tmp_path / "kept", key) is None


def test_racy_or_budget_cut_results_are_not_kept(tmp_path: Path) -> None:
    fresh = tmp_path / "a.h"
    fresh.write_text("#define A 1\n")  # written now: a second write might not change its stamp
    key = entry_key("f", b"text", LintOptions())
    store(tmp_path / "kept", key, [D], {str(fresh): stamp_of(fresh)})
    assert load(tmp_path / "kept", key) is None
    store(tmp_path / "kept", key, [Diagnostic("CL091", Severity.INFO, "budget", Span("f", 0, 0))], {})
    assert load(tmp_path / "kept", key) is None


def test_the_key_covers_text_name_and_options() -> None:
    base = entry_key("f", b"text", LintOptions())
    assert base == entry_key("f", b"text", LintOptions())
    assert len({base, entry_key("g", b"text", LintOptions()), entry_key("f", b"text2", LintOptions()),
                entry_key("f", b"text", LintOptions(defines=(("A", "1"),)))}) == 4
