"""Noise of the semantic family in corpus files whose `#include`s all resolve.

The corpus (bench/corpus.py) keeps only kernel files; their projects' headers are extracted here
beside them, whole folders, into bench/.cache/headers/<source>/ (darktable and hashcat from the
Debian packages bench/corpus.py downloaded, john and MIOpen from the GitHub snapshots it pins).
For every corpus file with an `#include`, cllint's include resolver (the file's folder, then the
project's include folders) reads the file's headers; where every include in every arm resolves
(`analysis/semantic/headers.py`: the names the headers declare then count, and the name checks
report) and clang-19 accepts the file (`-I` the same folders, OpenCL C 1.2, else 2.0), every
native report of the family is a false alarm. Host-macro reports (CL012) are counted apart.
clang's verdicts are cached in bench/.cache/header_clang.json by content and folders.

Most john and MIOpen kernels need the host's `-D` macros, so clang rejects them as they stand.
Those files get a second chance: every name clang calls undeclared that is spelled like a macro
(`PLAINTEXT_LENGTH`) is defined as 1, and every such unknown type name (MIOpen's `_FLOAT`) as
`float`, up to four rounds; a file clang then accepts is linted
with the same defines and counted as "clang-clean with -D". On the files clang still rejects,
the reports are listed apart with whether clang reports an error on the same line.

    .venv/bin/python bench/header_noise.py [--split tune|validate] [--list]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent.parent))
sys.path.insert(0, str(BENCH))

from corpus import CORPUS, DEBS, GITHUB, _snapshot, corpus_files, split_of, wider_files  # noqa: E402

from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.analysis.preprocessor.view import build_view  # noqa: E402
from cllint.analysis.rules.semantic import RULES  # noqa: E402
from cllint.analysis.semantic.headers import closure  # noqa: E402
from cllint.analysis.target import Target  # noqa: E402
from cllint.cli.engine import lint_source  # noqa: E402
from cllint.includes import FileIncludeResolver  # noqa: E402
from semantic_noise import clang_std  # noqa: E402

HEADERS = BENCH / ".cache" / "headers"
CACHE = BENCH / ".cache" / "header_clang.json"
STDS = ("CL1.2", "CL2.0")
CODES = tuple(r.code for r in RULES)
CLANG = shutil.which("clang-19")
# Sources whose kernels include headers: the Debian package or the GitHub folders to extract,
# and the include folders the project builds with (relative to the extracted tree).
PROJECTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "darktable": ("deb:darktable_", ()),
    "hashcat": ("deb:hashcat-data_", ("usr/share/hashcat/OpenCL",)),
    "john": ("git", ("run/opencl",)),
    "miopen": ("git", ("src/kernels",)),
}
_HEADER_EXTS = (".cl", ".clh", ".h", ".hpp", ".inc", ".ocl", ".opencl")
_MAX_BLOB = 4 << 20


def extract(source: str) -> Path:
    """The project's kernel folders with their headers, extracted once."""
    out = HEADERS / source
    if (out / ".done").exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    kind, _ = PROJECTS[source]
    if kind.startswith("deb:"):
        debs = sorted(DEBS.glob(kind[4:] + "*.deb"))
        with tempfile.TemporaryDirectory(dir=HEADERS) as tmp:
            subprocess.run(["dpkg-deb", "-x", str(debs[0]), tmp], check=True)
            for f in Path(tmp).rglob("*"):
                if f.is_file() and not f.is_symlink() and f.name.lower().endswith(_HEADER_EXTS):
                    target = out / f.relative_to(tmp)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(f, target)
    else:
        repo, commit, folders = GITHUB[source]
        git = ["git", f"--git-dir={_snapshot(repo)}"]
        listing = subprocess.run([*git, "ls-tree", "-r", "-l", "-z", commit, "--", *folders], check=True,
                                 capture_output=True).stdout
        for row in listing.split(b"\0"):
            if not row:
                continue
            meta, path = row.split(b"\t", 1)
            mode, kind_, sha, size = meta.split()
            name = path.decode()
            if kind_ != b"blob" or mode == b"120000" or not name.lower().endswith(_HEADER_EXTS) or \
                    ".." in Path(name).parts or (size.isdigit() and int(size) > _MAX_BLOB):
                continue
            blob = subprocess.run([*git, "cat-file", "blob", sha.decode()], capture_output=True)
            if blob.returncode == 0:  # a snapshot lacks its largest blobs
                target = out / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(blob.stdout)
    (out / ".done").write_text("ok\n")
    return out


def kernel_files(source: str) -> list[tuple[Path, str]]:
    """(file in the extracted tree, path relative to the source) of the corpus's kernels."""
    files = corpus_files(source) if source in ("darktable", "hashcat") else wider_files(source)
    root = extract(source)
    out = []
    for f in files:
        rel = f.relative_to(CORPUS / source).as_posix()
        if (root / rel).exists():
            out.append((root / rel, rel))
    return out


def clang_error_lines(path: Path, dirs: list[Path]) -> set[int]:
    run = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                          "-fsyntax-only", "-w", "-ferror-limit=0", *(f"-I{d}" for d in dirs), str(path)],
                         capture_output=True, text=True, timeout=120)
    prefix = f"{path}:"
    return {int(ln[len(prefix):].split(":", 1)[0]) for ln in run.stderr.splitlines()
            if ln.startswith(prefix) and ": error:" in ln}


_UNDECLARED = re.compile(r"error: use of undeclared identifier '(_*[A-Z][A-Z0-9_]*)'")
_UNKNOWN_TYPE = re.compile(r"error: unknown type name '(_*[A-Z][A-Z0-9_]*)'")


def clang_with_defines(path: Path, dirs: list[Path]) -> list[tuple[str, str]] | None:
    """Macro-like names that, defined as 1 (as `float` for types), make clang-19 accept the
    file (OpenCL C 1.2)."""
    defines: dict[str, str] = {}
    for _ in range(4):
        run = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                              "-fsyntax-only", "-w", "-ferror-limit=0", *(f"-I{d}" for d in dirs),
                              *(f"-D{n}={v}" for n, v in defines.items()), str(path)],
                             capture_output=True, text=True, timeout=120)
        if run.returncode == 0:
            return sorted(defines.items())
        more = {n: "1" for n in _UNDECLARED.findall(run.stderr) if n not in defines}
        more.update({n: "float" for n in _UNKNOWN_TYPE.findall(run.stderr) if n not in defines})
        if not more:
            return None
        defines.update(more)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "validate"))
    ap.add_argument("--list", action="store_true", help="print every report, CL012 included")
    args = ap.parse_args(argv)
    if CLANG is None:
        print("clang-19 is not installed", file=sys.stderr)
        return 2
    cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    counts: Counter[str] = Counter()
    by_code: Counter[str] = Counter()
    start = time.perf_counter()
    for source, (_, include) in PROJECTS.items():
        root = extract(source)
        dirs = [root / d for d in include]
        for f, rel in kernel_files(source):
            if args.split and split_of(source, rel) != args.split:
                continue
            data = f.read_bytes()
            if b"include" not in data:
                continue
            resolver = FileIncludeResolver(dirs)
            view = build_view(str(f), data, target=Target.preset("CL1.2"), include_resolver=resolver)
            if not any(d.kind == "include" for d in view.directives):
                continue
            counts[f"{source} with includes"] += 1
            if closure(view) is None:
                continue
            counts[f"{source} all resolve"] += 1
            key = hashlib.sha256(data + repr(sorted(str(d) for d in dirs)).encode() + str(f).encode()).hexdigest()
            if key not in cache:
                cache[key] = clang_std(f, dirs=dirs)
                CACHE.write_text(json.dumps(cache))
            std = cache[key]
            if std is None:
                if "D2:" + key not in cache:
                    cache["D2:" + key] = clang_with_defines(f, dirs)
                    CACHE.write_text(json.dumps(cache))
                defines = cache["D2:" + key]
                if defines is not None:
                    counts[f"{source} clang-clean with -D"] += 1
                    opts = LintOptions(target=Target.preset("CL1.2"), select=CODES, mode="target",
                                       include_paths=tuple(str(d) for d in dirs),
                                       defines=tuple((n, v) for n, v in defines))
                    for d in lint_source(str(f), data, opts, FileIncludeResolver(dirs)):
                        line = data.count(b"\n", 0, d.span.start) + 1
                        counts["CL012" if d.code == "CL012" else "errors"] += 1
                        if d.code != "CL012":
                            by_code[d.code] += 1
                        if args.list or d.code != "CL012":
                            print(f"{source}/{rel}:{line}: {d.code} {d.message} (with -D)")
                    continue
                opts = LintOptions(target=Target.preset("CL1.2"), select=CODES, mode="target",
                                   include_paths=tuple(str(d) for d in dirs))
                found = [d for d in lint_source(str(f), data, opts, FileIncludeResolver(dirs)) if d.code != "CL012"]
                lines = clang_error_lines(f, dirs) if found else set()
                for d in found:
                    line = data.count(b"\n", 0, d.span.start) + 1
                    shared = line in lines
                    counts["unclean: reports clang shares" if shared else "unclean: reports clang does not share"] += 1
                    print(f"  (clang rejects the file; {'same line' if shared else 'NOT on a clang error line'}) "
                          f"{source}/{rel}:{line}: {d.code} {d.message}")
                continue
            counts[f"{source} clang-clean"] += 1
            opts = LintOptions(target=Target.preset(std), select=CODES, mode="target",
                               include_paths=tuple(str(d) for d in dirs))
            for d in lint_source(str(f), data, opts, FileIncludeResolver(dirs)):
                line = data.count(b"\n", 0, d.span.start) + 1
                if d.code == "CL012":
                    counts["CL012"] += 1
                else:
                    counts["errors"] += 1
                    by_code[d.code] += 1
                if args.list or d.code != "CL012":
                    print(f"{source}/{rel}:{line}: {d.code} {d.message}")
    took = time.perf_counter() - start
    per = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()) if k not in ("errors", "CL012"))
    print(f"[{args.split or 'both halves'}] {per}")
    print(f"native semantic reports: {counts['errors']} {dict(by_code)}  host-macro reports (CL012): "
          f"{counts['CL012']}  time: {took:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
