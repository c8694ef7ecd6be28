"""Files named alone on the command line bring their folders' OpenCL siblings into the
workspace; a folder is listed once however many of its files are named (a folder of 300
kernels named one by one was listed 300 times: 90,000 entries read, seconds before any lint)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.project.model import Project


def test_each_folder_is_listed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        for i in range(20):
            (tmp_path / folder / f"k{i}.cl").write_text(f"kernel void k{i}(global int *p) {{ p[0] = {i}; }}\n")
    (tmp_path / "a" / "notes.txt").write_text("not OpenCL\n")
    listed: list[Path] = []
    real = Path.iterdir

    def counting(self: Path):  # type: ignore[no-untyped-def]
        listed.append(self)
        return real(self)

    monkeypatch.setattr(Path, "iterdir", counting)
    named = sorted((tmp_path / "a").glob("k*.cl")) + [tmp_path / "b" / "k3.cl"]
    project = Project([], named)
    assert sorted(listed) == [(tmp_path / "a").resolve(), (tmp_path / "b").resolve()]
    # the files are the same as before: every OpenCL sibling of a named file, nothing else
    assert len(project.files) == 40 and not any(p.suffix == ".txt" for p in project.files)
