"""Real-world OpenCL C corpora.

The *public corpus*: a few Debian bookworm packages fetched with a private apt state (nothing
installed or configured system-wide). The *wider corpus*: GitHub snapshots of projects nothing
was tuned on, read from git directories that the search tool's `fetch` brought onto the machine
(CI has no fetch: nothing in the tests needs them). Only OpenCL sources (.cl/.clh/.ocl/.opencl)
are extracted into bench/.cache/corpus/<source>/; bench/.cache/corpus/manifest.json records where
each file comes from (package or repository and commit), its size, sha256 and split.

    .venv/bin/python bench/corpus.py            # fetch (idempotent) and print a summary
    .venv/bin/python bench/corpus.py --wider    # also extract the GitHub snapshots
    .venv/bin/python bench/corpus.py --list     # print every file
    .venv/bin/python bench/corpus.py --refresh  # re-extract from the cached downloads

Other benchmarks import `corpus_files(source=None)` (the public corpus) and `wider_files()`.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CACHE = BENCH / ".cache"
APT = CACHE / "apt"
DEBS = CACHE / "debs"
SRCS = CACHE / "src"
CORPUS = CACHE / "corpus"
MANIFEST = CORPUS / "manifest.json"

MIRROR_SOURCES = Path("/etc/apt/sources.list.d/debian.sources")
SUITE = "bookworm"
EXTS = (".cl", ".clh", ".ocl", ".opencl")
# piglit marks its intentionally invalid programs in the config header (build/fail/*.cl)
_EXPECT_FAIL = re.compile(rb"^[ \t]*expect_build_fail:[ \t]*true", re.MULTILINE)

# source name -> Debian binary packages holding its kernels ("src:" marks a source package)
SOURCES: dict[str, list[str]] = {
    "hashcat": ["hashcat-data"],
    "darktable": ["darktable"],
    "piglit": ["piglit"],
    "pyopencl": ["python3-pyopencl"],
    "opencv": ["src:opencv"],
}

# The wider corpus: source name -> (GitHub repository, commit, folders holding its kernels).
# The commit pins what was measured; a snapshot at another commit is refused.
GITHUB: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "ggml": ("ggml-org/ggml", "d99724f2b141fed9e1a9f402213506c081433465", ("src/ggml-opencl/kernels",)),
    "miopen": ("ROCm/MIOpen", "2d1fd997a6fcf801ac4ca7a63e0656ef1cb9f488", ("src/kernels",)),
    "john": ("openwall/john", "3c2e19c0dbe0bb6172780018b1d5a6097250dad1", ("run/opencl",)),
    "clblas": ("clMathLibraries/clBLAS", "cf9113982fdfc994297d372785ce76eb80911af2", ("src/library",)),
    "arrayfire": ("arrayfire/arrayfire", "492718b5a256d4a9d5198fdce89d8fd21772bfda", ("src/backend/opencl",)),
    "clblast": ("CNugteren/CLBlast", "eeff251463434753470bccc16f2879437c220808", ("src/kernels",)),
}
# Where fetched snapshots live: $CLLINT_MIRRORS/<owner>+<name>/repo (the search tool's layout).
MIRRORS = Path(os.environ.get("CLLINT_MIRRORS", "/work/.mirror"))

# Files that share an extension with OpenCL C but are not OpenCL C (CUDA, C++, templates,
# string wrappers): the analysis's own test, so that the corpus leaves out what cllint skips.
from cllint.analysis.source_kind import not_opencl_reason  # noqa: E402


def _mirror() -> tuple[str, str]:
    """The Debian mirror URI and keyring named in the system sources (fallback: deb.debian.org)."""
    uri, keyring = "http://deb.debian.org/debian", "/usr/share/keyrings/debian-archive-keyring.gpg"
    if MIRROR_SOURCES.exists():
        for stanza in MIRROR_SOURCES.read_text().split("\n\n"):
            fields = dict(
                line.split(":", 1) for line in stanza.splitlines() if ":" in line and not line.startswith("#")
            )
            suites = fields.get("Suites", "").split()
            if SUITE in suites:
                uri = fields.get("URIs", uri).split()[0].strip()
                keyring = fields.get("Signed-By", keyring).strip()
                break
    return uri, keyring


def _apt_opts() -> list[str]:
    return [
        "-o", f"Dir::Etc::SourceList={APT / 'sources.list'}",
        "-o", "Dir::Etc::SourceParts=/dev/null",
        "-o", f"Dir::State::Lists={APT / 'lists'}",
        "-o", f"Dir::State::Status={APT / 'status'}",
        "-o", f"Dir::Cache={APT / 'cache'}",
        "-o", "Dir::Etc::Preferences=/dev/null",
        "-o", "Dir::Etc::PreferencesParts=/dev/null",
        "-o", "APT::Sandbox::User=root",
        "-o", "Debug::NoLocking=1",
    ]  # fmt: skip


def _apt_setup() -> None:
    (APT / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (APT / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    (APT / "status").touch()
    uri, keyring = _mirror()
    text = f"deb [signed-by={keyring}] {uri} {SUITE} main\ndeb-src [signed-by={keyring}] {uri} {SUITE} main\n"
    src = APT / "sources.list"
    changed = not src.exists() or src.read_text() != text
    src.write_text(text)
    if changed or not any((APT / "lists").glob("*Packages*")) or not any((APT / "lists").glob("*Sources*")):
        _run(["apt-get", *_apt_opts(), "update", "-q"])


def _run(cmd: list[str], cwd: Path | None = None) -> str:
    print("+", " ".join(c for c in cmd if not c.startswith("Dir::") and c != "-o"), file=sys.stderr)
    res = subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True)
    return res.stdout


def _download_binary(pkg: str) -> Path:
    DEBS.mkdir(parents=True, exist_ok=True)
    found = sorted(DEBS.glob(f"{pkg}_*.deb"))
    if found:
        return found[-1]
    _apt_setup()
    _run(["apt-get", *_apt_opts(), "download", "-q", pkg], cwd=DEBS)
    found = sorted(DEBS.glob(f"{pkg}_*.deb"))
    if not found:
        raise RuntimeError(f"apt-get download {pkg} produced no .deb")
    return found[-1]


def _download_source(pkg: str) -> list[Path]:
    dest = SRCS / pkg
    dest.mkdir(parents=True, exist_ok=True)
    if not any(dest.glob("*.dsc")):
        _apt_setup()
        _run(["apt-get", *_apt_opts(), "source", "--download-only", "-q", pkg], cwd=dest)
    tars = sorted(p for p in dest.iterdir() if re.search(r"\.orig(-[\w-]+)?\.tar\.\w+$", p.name))
    if not tars:  # native package
        tars = sorted(p for p in dest.iterdir() if ".tar." in p.name and ".debian." not in p.name)
    return tars


def _keep(name: str) -> bool:
    return name.lower().endswith(EXTS)


def _extract_deb(deb: Path, out: Path) -> None:
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        _run(["dpkg-deb", "-x", str(deb), tmp])
        root = Path(tmp)
        for f in sorted(root.rglob("*")):
            if f.is_file() and not f.is_symlink() and _keep(f.name):
                target = out / f.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, target)


def _extract_tar(tar: Path, out: Path) -> None:
    with tarfile.open(tar) as tf:
        for member in tf:
            if not member.isfile() or not _keep(member.name):
                continue
            parts = Path(member.name).parts
            if ".." in parts or Path(member.name).is_absolute():
                continue
            m = re.search(r"\.orig-([\w-]+)\.tar", tar.name)
            target = out / (m.group(1) if m else "main") / Path(*parts[1:])
            target.parent.mkdir(parents=True, exist_ok=True)
            src = tf.extractfile(member)
            assert src is not None
            target.write_bytes(src.read())


def fetch(refresh: bool = False) -> dict:
    """Download (cached) and extract every source; write and return the manifest."""
    CACHE.mkdir(parents=True, exist_ok=True)
    entries = []
    for source, pkgs in SOURCES.items():
        out = CORPUS / source
        stamp = out / ".done"
        if refresh or not stamp.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            for pkg in pkgs:
                if pkg.startswith("src:"):
                    for tar in _download_source(pkg[4:]):
                        _extract_tar(tar, out)
                else:
                    _extract_deb(_download_binary(pkg), out)
            stamp.write_text(" ".join(pkgs) + "\n")
        for f in _walk(out):
            data = f.read_bytes()
            entries.append(
                {
                    "source": source,
                    "path": f.relative_to(out).as_posix(),
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "expect_build_fail": expected_invalid(data),
                }
            )
    downloads = sorted(p.name for p in DEBS.glob("*.deb")) + sorted(
        p.name for p in SRCS.glob("*/*") if p.name.endswith(".dsc") or ".orig" in p.name
    )
    manifest = {"suite": SUITE, "packages": SOURCES, "downloads": downloads, "files": entries}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _snapshot(repo: str) -> Path:
    return MIRRORS / repo.replace("/", "+") / "repo"


def _git_files(git_dir: Path, commit: str, folders: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """(path, content) of the OpenCL sources under `folders` at `commit`."""
    git = ["git", f"--git-dir={git_dir}"]
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", commit, "--", *folders], check=True, capture_output=True).stdout
    blobs = []
    for row in listing.split(b"\0"):
        if not row:
            continue
        meta, path = row.split(b"\t", 1)
        mode, kind, sha = meta.split()
        name = path.decode()
        if kind == b"blob" and mode != b"120000" and _keep(name) and ".." not in Path(name).parts:
            blobs.append((name, sha.decode()))
    batch = subprocess.run(
        [*git, "cat-file", "--batch"], input="".join(f"{sha}\n" for _, sha in blobs).encode(), check=True, capture_output=True
    ).stdout
    out, pos = [], 0
    for name, _ in blobs:
        header_end = batch.index(b"\n", pos)
        size = int(batch[pos:header_end].split()[2])
        out.append((name, batch[header_end + 1 : header_end + 1 + size]))
        pos = header_end + 1 + size + 1
    return out


def fetch_wider(refresh: bool = False) -> list[dict]:
    """Extract the GitHub snapshots that are on this machine; list what is missing."""
    entries = []
    for source, (repo, commit, folders) in GITHUB.items():
        out = CORPUS / source
        stamp = out / ".done"
        if refresh or not stamp.exists():
            git_dir = _snapshot(repo)
            if not git_dir.exists():
                print(f"{source}: no snapshot of {repo} at {git_dir} (fetch github:{repo} with the search tool)", file=sys.stderr)
                continue
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            # File by file: a snapshot lacks its largest blobs, so `git archive` of a folder fails.
            for rel, data in _git_files(git_dir, commit, folders):
                target = out / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            stamp.write_text(f"{repo} {commit}\n")
        for f in _walk(out):
            data = f.read_bytes()
            rel = f.relative_to(out).as_posix()
            entries.append(
                {
                    "source": source,
                    "repository": repo,
                    "commit": commit,
                    "path": rel,
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "split": split_of(source, rel),
                    "not_opencl": not_opencl_reason(data),
                }
            )
    (CORPUS / "wider-manifest.json").write_text(json.dumps({"repositories": GITHUB, "files": entries}, indent=1) + "\n")
    return entries


def wider_files(
    source: str | None = None, split: str | None = None, include_not_opencl: bool = False
) -> list[Path]:
    """Absolute paths of the wider corpus (extracted snapshots only), optionally one split."""
    names = [source] if source else list(GITHUB)
    for name in names:
        if name not in GITHUB:
            raise KeyError(f"unknown wider source {name!r}; known: {', '.join(GITHUB)}")
        if not (CORPUS / name / ".done").exists():
            fetch_wider()
            break
    out = []
    for name in names:
        for f in _walk(CORPUS / name):
            if split and split_of(name, f.relative_to(CORPUS / name).as_posix()) != split:
                continue
            if not include_not_opencl and not_opencl_reason(f.read_bytes()):
                continue
            out.append(f)
    return out


def _walk(out: Path) -> list[Path]:
    return sorted(f for f in out.rglob("*") if f.is_file() and _keep(f.name))


def expected_invalid(data: bytes) -> bool:
    """True for files that their project marks as not compiling (piglit `expect_build_fail: true`)."""
    return _EXPECT_FAIL.search(data) is not None


def split_of(source: str, relpath: str) -> str:
    """'tune' or 'validate': the fixed rule that halves every source before anyone looks at results.

    By the first byte of sha256("<source>/<relative path>"): even is tune, odd is validate. Work
    (grammar forms, rule fixes) is driven by failures in the tune half only; both halves are reported.
    """
    digest = hashlib.sha256(f"{source}/{relpath}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "validate"


def corpus_files(source: str | None = None, fetch_missing: bool = True, include_invalid: bool = False) -> list[Path]:
    """Absolute paths of the corpus files (of one source, or all), fetching the corpus if needed.

    Files marked as expected to fail to build are left out unless `include_invalid`.
    """
    names = [source] if source else list(SOURCES)
    for name in names:
        if name not in SOURCES:
            raise KeyError(f"unknown corpus source {name!r}; known: {', '.join(SOURCES)}")
    if fetch_missing and (not MANIFEST.exists() or any(not (CORPUS / n / ".done").exists() for n in names)):
        fetch()
    files = [f for n in names for f in _walk(CORPUS / n)]
    return files if include_invalid else [f for f in files if not expected_invalid(f.read_bytes())]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="print the corpus files")
    ap.add_argument("--refresh", action="store_true", help="re-extract from the cached downloads")
    ap.add_argument("--source", choices=list(SOURCES), help="restrict --list to one source")
    ap.add_argument("--include-invalid", action="store_true", help="also list files marked expect_build_fail")
    ap.add_argument("--wider", action="store_true", help="extract and summarise the GitHub snapshots too")
    args = ap.parse_args(argv)
    manifest = fetch(refresh=args.refresh) if args.refresh or not MANIFEST.exists() else None
    if args.wider:
        wider = fetch_wider(refresh=args.refresh)
        if args.list:
            for e in wider:
                print(f"{e['source']}/{e['path']}  {e['split']}" + (f"  (not OpenCL C: {e['not_opencl']})" if e["not_opencl"] else ""))
            return 0
        for source, (repo, commit, _) in GITHUB.items():
            rows = [e for e in wider if e["source"] == source]
            left = [e for e in rows if e["not_opencl"]]
            tune = sum(e["split"] == "tune" for e in rows if not e["not_opencl"])
            print(
                f"{source:10} {len(rows):5} files {sum(e['size'] for e in rows) / 1e6:8.2f} MB"
                f"  tune {tune} / validate {len(rows) - len(left) - tune}  {repo}@{commit[:10]}"
                + (f"  ({len(left)} not OpenCL C, left out: {left[0]['not_opencl']})" if left else "")
            )
    files = corpus_files(args.source, include_invalid=args.include_invalid)
    if args.list:
        for f in files:
            print(f.relative_to(CORPUS))
        return 0
    manifest = manifest or json.loads(MANIFEST.read_text())
    for source in SOURCES:
        rows = [e for e in manifest["files"] if e["source"] == source]
        bad = sum(e.get("expect_build_fail", False) for e in rows)
        print(
            f"{source:10} {len(rows):5} files {sum(e['size'] for e in rows) / 1e6:8.2f} MB"
            + (f"  ({bad} marked expect_build_fail, left out by default)" if bad else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
