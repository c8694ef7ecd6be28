"""CL1xx against clang-19 on clang's own OpenCL test files (clang/test/SemaOpenCL).

Fetches Debian's `llvm-toolchain-19` source package with the corpus's private apt state
(nothing installed system-wide), extracts `clang/test/SemaOpenCL/*.cl` into
bench/.cache/clang-tests/, and scores the CL1xx rules line by line against clang-19's
in-scope errors (tests/addrspace_eval.py) at OpenCL C 1.2, 2.0 and 3.0. Writes
bench/results/address_space_sema.md.

    .venv/bin/python bench/clang_tests.py            # fetch once (165 MB), score
    .venv/bin/python bench/clang_tests.py --list     # the misses and false positives too

The files are clang's `-verify` tests, run here as plain files: each `// RUN:` line's extra
flags (-D, -triple, -cl-ext) are not applied, so the oracle is clang-19 on the file as written.
"""

from __future__ import annotations

import argparse
import re
import sys
import tarfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from bench.corpus import CACHE, _download_source  # noqa: E402

OUT = CACHE / "clang-tests" / "SemaOpenCL"
RESULTS = BENCH / "results" / "address_space_sema.md"
STDS = ["CL1.2", "CL2.0", "CL3.0"]
_MEMBER = re.compile(r"^[^/]+/clang/test/SemaOpenCL/[^/]+\.cl$")


def fetch() -> list[Path]:
    """The SemaOpenCL test files, extracted once from the source package's tarball."""
    done = OUT / ".done"
    if not done.exists():
        tars = [t for t in _download_source("llvm-toolchain-19") if ".orig." in t.name]
        if not tars:
            raise SystemExit("llvm-toolchain-19: no .orig tarball downloaded")
        OUT.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tars[0]) as tf:
            for member in tf:
                if member.isfile() and _MEMBER.match(member.name):
                    src = tf.extractfile(member)
                    assert src is not None
                    (OUT / Path(member.name).name).write_bytes(src.read())
        done.write_text(tars[0].name + "\n")
    return sorted(OUT.glob("*.cl"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="print every miss and false positive")
    args = ap.parse_args(argv)
    import addrspace_eval

    if addrspace_eval.CLANG is None:
        print("clang-19 not found: apt-get install -y clang-19", file=sys.stderr)
        return 1
    files = fetch()
    r = addrspace_eval.agreement(files, STDS)
    lines = [
        "# CL1xx vs clang-19 on clang's SemaOpenCL tests",
        "",
        f"`.venv/bin/python bench/clang_tests.py`: {len(files)} files of `clang/test/SemaOpenCL` "
        f"(Debian `llvm-toolchain-19`), each at {', '.join(STDS)}; clang-19's address-space and "
        "restriction errors (the `IN_SCOPE` messages of `tests/addrspace_eval.py`) against cllint's "
        "CL1xx diagnostics, by line.",
        "",
        "| clang errors found (tp) | missed (fn) | cllint extra (fp) | recall | precision |",
        "|---:|---:|---:|---:|---:|",
        f"| {r['tp']} | {r['fn']} | {r['fp']} | **{r['recall']:.3f}** | **{r['precision']:.3f}** |",
        "",
        "## Missed (clang's message)",
        "",
        *(f"- `{Path(m.split(':')[0]).name}:{m.split(':', 1)[1]}`" for m in r["misses"]),  # type: ignore[union-attr]
        "",
        "## Reported by cllint only",
        "",
        *(f"- `{Path(m.split(':')[0]).name}:{m.split(':', 1)[1]}`" for m in r["extras"]),  # type: ignore[union-attr]
        "",
    ]
    RESULTS.write_text("\n".join(lines))
    print(f"files={len(files)} tp={r['tp']} fn={r['fn']} fp={r['fp']} "
          f"recall={r['recall']:.3f} precision={r['precision']:.3f} -> {RESULTS.relative_to(ROOT)}")
    if args.list:
        for m in (*r["misses"], *r["extras"]):  # type: ignore[misc]
            print(m)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
