"""Public kernels with their headers, from Debian bookworm packages: darktable's kernels
(`darktable`) and Random123's generators as pyopencl ships them (`python3-pyopencl`).

The .deb comes from bench/.cache/debs (bench/corpus.py fetches it) or `apt-get download`;
it is extracted with `dpkg-deb -x`, nothing is installed. Without either, the caller skips:
the files are GPL/BSD code we do not copy into the repository."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

DEBS = Path(__file__).resolve().parents[1] / "bench" / ".cache" / "debs"


def extracted(package: str, into: Path) -> Path:
    """The package's files under `into` (the root of its file system tree)."""
    debs = sorted(DEBS.glob(f"{package}_*.deb"))
    if not debs:
        if not shutil.which("apt-get"):
            pytest.skip(f"needs apt-get to fetch Debian's {package} package")
        r = subprocess.run(["apt-get", "download", "-o", "APT::Sandbox::User=root", package],
                           cwd=into, capture_output=True, text=True, timeout=600)
        debs = sorted(into.glob(f"{package}_*.deb"))
        if r.returncode != 0 or not debs:
            pytest.skip(f"Debian's archive did not provide {package}: {r.stderr.strip()[-200:]}")
    root = into / package
    subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(root)], check=True)
    return root


def kernel_folder(package: str, folder: str, files: list[str], into: Path) -> Path:
    """`files` of the package's `folder` copied alone into a folder of their own (a workspace
    holding just the kernel and the headers it reads)."""
    src = extracted(package, into) / folder
    out = into / f"{package}-kernels"
    out.mkdir()
    for name in files:
        shutil.copy(src / name, out / name)
    return out


def darktable_basic(into: Path) -> Path:
    """darktable's basic.cl (3,054 lines) and the headers it includes."""
    return kernel_folder("darktable", "usr/share/darktable/kernels",
                         ["basic.cl", "colorspace.h", "color_conversion.h", "common.h", "rgb_norms.h",
                          "diffuse.cl", "noise_generator.h"], into) / "basic.cl"


def random123_philox(into: Path) -> Path:
    """Random123's philox.cl (486 lines) with openclfeatures.h and array.h, from pyopencl."""
    return kernel_folder("python3-pyopencl", "usr/lib/python3/dist-packages/pyopencl/cl/pyopencl-random123",
                         ["philox.cl", "openclfeatures.h", "array.h"], into) / "philox.cl"
