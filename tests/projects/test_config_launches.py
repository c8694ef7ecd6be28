"""Launches stated in the configuration (`[[launch]]`, issue 31): a kernel's work-group size
(`local`) and how many work-groups run (`groups`, or `global`), for projects whose host code
cllint cannot read (another language, a framework) or where a user wants to say it. A kernel
every declared launch of which is one work-group gets no race between work-groups (CL211 across
groups), as one the host launches so (test_host_launches.py); a declared work-group size is the
model the race check searches, as `reqd_work_group_size` is (`l[3]` read by item 40 races in a
64-wide work-group, not in an 8-wide one). Case folders under fixtures/config_launches/
{tune,heldout}: a `.cllint.toml` and the kernels; `heldout/` (a third, picked by crc32 and
written with the rest before any code) is only scored.

    .venv/bin/python tests/projects/test_config_launches.py    # figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from labelled_workspaces import case_id, cases, expected, reports  # noqa: E402

from cllint.config import ConfigError, load_config  # noqa: E402

CASES = cases("config_launches")
TUNE = [c for c in CASES if c.parent.name == "tune"]
HELDOUT = [c for c in CASES if c.parent.name == "heldout"]


def races(case: Path) -> list[tuple[str, str, int]]:
    return [r for r in reports(case) if r[1].startswith("CL21")]


def agrees(case: Path) -> bool:
    """Reported iff labelled racy, each report on one of the racing accesses' lines."""
    want, got = expected(case), races(case)
    return bool(got) == bool(want) and set(got) <= set(want)


@pytest.mark.parametrize("case", TUNE, ids=case_id)
def test_tune_case(case: Path) -> None:
    assert agrees(case), (races(case), expected(case))


def test_cases_are_labelled_both_ways() -> None:
    for half in (TUNE, HELDOUT):
        assert any(expected(c) for c in half) and any(not expected(c) for c in half)


@pytest.mark.parametrize("text, message", [
    ('[[launch]]\nlocal = "64"\n', "'local' of [[launch]] must be"),
    ('[[launch]]\nlocal = [64]\ngroups = [1]\nglobal = [64]\n', "either 'groups' or 'global'"),
    ('[[launch]]\nlocal = [0]\n', "'local' of [[launch]] must be"),
    ('[[launch]]\nlocal = [8, 8, 8, 8]\n', "'local' of [[launch]] must be"),
    ('[[launch]]\nlocal = [64]\nglobal = [100]\n', "not a multiple"),
    ('[[launch]]\nkernel = 3\nlocal = [64]\n', "'kernel' of [[launch]] must be"),
    ('[[launch]]\nsources = ["none.cl"]\nlocal = [64]\n', "not found"),
    ('[[launch]]\nlocal = [64]\nsize = 2\n', "unknown key 'size'"),
])
def test_bad_launches_are_config_errors(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / ".cllint.toml").write_text("# launches\n" + text)
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / ".cllint.toml")
    assert message in str(err.value) and err.value.line is not None and err.value.line >= 2


def test_launch_is_read(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text("kernel void k(global int *p) { p[0] = 1; }\n")
    (tmp_path / ".cllint.toml").write_text('[[launch]]\nsources = ["k.cl"]\nkernel = "k"\nlocal = [8, 8]\n'
                                           'global = [64, 16]\n')
    (launch,) = load_config(tmp_path / ".cllint.toml").launches
    assert launch.kernel == "k" and launch.local == (8, 8, 1) and launch.groups == (8, 2, 1)
    assert launch.sources == (tmp_path / "k.cl",)



def test_the_server_reads_launches_too(tmp_path: Path) -> None:
    from cllint.server.settings import EditorSettings, lint_options

    (tmp_path / "a.cl").write_text("kernel void k(global int *p) { p[get_local_id(0)] = get_group_id(0); }\n")
    (tmp_path / "b.cl").write_text("kernel void k(global int *p) { p[0] = 1; }\n")
    (tmp_path / ".cllint.toml").write_text('[[launch]]\nsources = ["a.cl"]\nkernel = "k"\nlocal = [32]\ngroups = [1]\n')
    assert lint_options(tmp_path / "a.cl", EditorSettings()).launches == (("k", (32, 1, 1), (1, 1, 1)),)
    assert lint_options(tmp_path / "b.cl", EditorSettings()).launches == ()


if __name__ == "__main__":
    for label, half in (("tune", TUNE), ("heldout", HELDOUT)):
        ok = [agrees(c) for c in half]
        racy = [c for c in half if expected(c)]
        print(f"{label}: {sum(ok)}/{len(half)} agree; racy found "
              f"{sum(agrees(c) for c in racy)}/{len(racy)}, race-free flagged "
              f"{sum(not agrees(c) for c in half if not expected(c))}/{len(half) - len(racy)}")
