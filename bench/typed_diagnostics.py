"""Diagnostics of every version while typing into a sample of files, to compare two trees (issue 32).

Two files of each tune project checked out under bench/.cache/projects (.cl, 0.5-150 KB) and 25
of bench/.cache/corpus; in each, bench/lsp_latency.py's statement typed a character at a time at
`typing_point` through a `Host` with a `FileIncludeResolver`, then it and 20 bytes after it
deleted and put back. Writes code, span, message and notes of each version as JSON; compare
two outputs with `--compare A B`. `--rehearse`: after the open, the server's rehearsal of an
edit (`Host.rehearse`, where the tree has it) before the first keystroke.

    cd / && PYTHONPATH=TREE .venv/bin/python bench/typed_diagnostics.py OUT.json [--rehearse]
    .venv/bin/python bench/typed_diagnostics.py --compare A.json B.json
"""
import json, os, sys
from pathlib import Path
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_latency as L
import projects as P
from cllint.analysis.db import Change, Host, TextEdit
from cllint.includes import FileIncludeResolver

def sample() -> list[Path]:
    out = []
    root = Path(__file__).resolve().parent / ".cache" / "projects"
    for name in sorted(P.PROJECTS):
        if P.split_of(name) != "tune" or not (root / name).is_dir():
            continue
        files = sorted(p for p in (root / name).rglob("*.cl") if 500 <= p.stat().st_size <= 150_000)
        if files:
            out += [files[0]] + ([files[len(files) // 2]] if len(files) > 1 else [])
    corpus = sorted(p for p in (Path(__file__).resolve().parent / ".cache" / "corpus").rglob("*.cl") if 500 <= p.stat().st_size <= 150_000)
    step = max(1, len(corpus) // 25)
    out += corpus[::step][:25]
    return out

def key(d):
    return [d.code, d.span.start, d.span.end, d.message, repr(getattr(d, "notes", None))]

def run(path: Path) -> list:
    text = path.read_bytes()
    try:
        line, col = L.typing_point(text.decode("utf-8", "replace"))
    except StopIteration:
        return []
    lines = text.split(b"\n")
    at = sum(len(x) + 1 for x in lines[:line]) + col
    host = Host(include_resolver=FileIncludeResolver())
    f = str(path)
    host.set_file(f, text)
    versions = [[key(d) for d in host.snapshot().diagnostics(f)]]
    if REHEARSE and hasattr(host, "rehearse"):
        host.rehearse(f)
    typed = L.TYPED.encode()
    for i in range(len(typed)):
        host.apply_change(Change(edits={f: [TextEdit(at + i, at + i, typed[i:i + 1])]}))
        versions.append([key(d) for d in host.snapshot().diagnostics(f)])
    cut = typed + text[at:at + 20]
    host.apply_change(Change(edits={f: [TextEdit(at, at + len(cut), b"")]}))
    versions.append([key(d) for d in host.snapshot().diagnostics(f)])
    host.apply_change(Change(edits={f: [TextEdit(at, at, cut)]}))
    versions.append([key(d) for d in host.snapshot().diagnostics(f)])
    return versions

def compare(a_path: str, b_path: str) -> int:
    a = json.load(open(a_path)); b = json.load(open(b_path))
    if a.keys() != b.keys():
        print("different file samples"); return 1
    eq = sum(1 for k in a if a[k] == b[k]); vers = sum(len(v) for v in a.values())
    diags = sum(len(x) for v in a.values() for x in v)
    cl001 = sum(1 for v in a.values() for x in v if any(d[0] == "CL001" for d in x))
    print(f"{eq}/{len(a)} files equal; {vers} versions, {cl001} with a CL001, {diags} diagnostics")
    for k in a:
        for i, (x, y) in enumerate(zip(a[k], b[k])):
            if x != y:
                print("differs:", k, "version", i, [d for d in x if d not in y][:3], [d for d in y if d not in x][:3])
                break
    return 0 if eq == len(a) else 1


REHEARSE = "--rehearse" in sys.argv


def main() -> int:
    if sys.argv[1] == "--compare":
        return compare(sys.argv[2], sys.argv[3])
    files = sample()
    out = {str(p): run(p) for p in files}
    json.dump(out, open(sys.argv[1], "w"))
    n = sum(len(v) for v in out.values()); d = sum(len(x) for v in out.values() for x in v)
    print(len(files), "files", n, "versions", d, "diagnostics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
