"""Parse quality and throughput of our OpenCL C grammar on the Debian corpus.

For every corpus source (bench/corpus.py) and every grammar (ours, the PyPI baseline
`tree-sitter-opencl` 0.0.2 built by bench/baseline.py, and PyPI `tree-sitter-c`) it reports
files, lines, the share of files that parse with zero ERROR and zero MISSING nodes, ERROR
nodes per 1,000 lines and parse throughput in MB/s (parse only; each file is parsed by
every grammar in turn, rotating the order, for --reps repetitions; the median repetition counts;
time is this thread's CPU time, so other processes on a shared machine disturb it less).

    .venv/bin/python bench/parse_bench.py                      # table to stdout
    .venv/bin/python bench/parse_bench.py --json out.json      # and machine-readable results
    .venv/bin/python bench/parse_bench.py --failures           # also bench/results/parse-failures.md
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import tree_sitter

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline
import corpus

RESULTS = Path(__file__).resolve().parent / "results"
FAILURES_MD = RESULTS / "parse-failures.md"
FAILURES_FULL = corpus.CACHE / "parse-failures-full.md"
GRAMMARS = ("ours", "baseline", "tree-sitter-c")
MAX_LINES = 300
# CPU time of this thread: on a shared machine, time spent preempted by other processes is not counted
clock = time.thread_time


def languages(names: tuple[str, ...] = GRAMMARS) -> dict[str, tree_sitter.Language]:
    out: dict[str, tree_sitter.Language] = {}
    for name in names:
        if name == "ours":
            from cllint import grammar

            out[name] = grammar.language()
        elif name == "baseline":
            out[name] = baseline.language()
        elif name == "tree-sitter-c":
            import tree_sitter_c

            out[name] = tree_sitter.Language(tree_sitter_c.language())
    return out


@dataclass
class Problem:
    kind: str  # "ERROR" or "MISSING <node>"
    row: int  # 0-based
    col: int
    parent: str
    end_row: int


@dataclass
class FileResult:
    errors: int = 0
    missing: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.errors == 0 and self.missing == 0


def inspect(tree: tree_sitter.Tree, keep: int = 0) -> FileResult:
    """Count ERROR and MISSING nodes; keep the first `keep` of them, in document order.

    Clean trees (`has_error` false) are not walked. Otherwise the whole tree is walked: pruning
    on `has_error` undercounts, since some nested ERROR nodes sit below nodes without the flag.
    """
    res = FileResult()
    if not tree.root_node.has_error:
        return res
    cursor = tree.walk()
    while True:
        node = cursor.node
        assert node is not None
        kind = ""
        if node.is_missing:
            res.missing += 1
            kind = f"MISSING {node.type}"
        elif node.is_error:
            res.errors += 1
            kind = "ERROR"
        if kind and len(res.problems) < keep:
            parent = node.parent.type if node.parent is not None else "-"
            res.problems.append(Problem(kind, node.start_point[0], node.start_point[1], parent, node.end_point[0]))
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            return res


def count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def source_files(label: str, include_invalid: bool = False) -> tuple[list[Path], Path, int]:
    """(files, root, files left out) of a source label: a Debian source, or `<wider source>/<split>`."""
    if "/" in label:
        name, split = label.split("/")
        files = corpus.wider_files(name, split)
        left_out = len(corpus.wider_files(name, split, include_not_opencl=True)) - len(files)
        return files, corpus.CORPUS / name, left_out
    files = corpus.corpus_files(label, include_invalid=include_invalid)
    return files, corpus.CORPUS / label, len(corpus.corpus_files(label, include_invalid=True)) - len(files)


def wider_labels() -> list[str]:
    return [f"{name}/{split}" for split in ("tune", "validate") for name in corpus.GITHUB]


def run(sources: list[str], reps: int, keep: int, include_invalid: bool = False) -> dict:
    langs = languages()
    parsers = {name: tree_sitter.Parser(lang) for name, lang in langs.items()}
    report: dict = {"sources": {}, "grammars": list(langs), "roots": {}}
    per_file: dict[str, dict[str, dict[str, FileResult]]] = {}
    for source in sources:
        files, root, skipped = source_files(source, include_invalid)
        report["roots"][source] = str(root)
        datas = [f.read_bytes() for f in files]
        rel = [f.relative_to(root).as_posix() for f in files]
        nbytes = sum(map(len, datas))
        nlines = sum(map(count_lines, datas))
        entry: dict = {
            "files": len(files),
            "lines": nlines,
            "bytes": nbytes,
            "skipped_invalid": skipped,
            "grammars": {},
        }
        per_file[source] = {}
        # quality: one parse per file per grammar
        for name, parser in parsers.items():
            results = {r: inspect(parser.parse(d), keep if name == "ours" else 0) for r, d in zip(rel, datas)}
            per_file[source][name] = results
            clean = sum(r.clean for r in results.values())
            errors = sum(r.errors for r in results.values())
            missing = sum(r.missing for r in results.values())
            entry["grammars"][name] = {
                "clean_files": clean,
                "clean_pct": 100.0 * clean / max(1, len(files)),
                "error_nodes": errors,
                "missing_nodes": missing,
                "errors_per_kloc": 1000.0 * errors / max(1, nlines),
                "failing": sorted(r for r, v in results.items() if not v.clean),
            }
        # throughput: same files, same process, interleaved, rotating grammar order per rep
        times: dict[str, list[float]] = {name: [] for name in parsers}
        names = list(parsers)
        file_best = {name: [0.0] * len(datas) for name in names}
        for rep in range(reps):
            order = names[rep % len(names) :] + names[: rep % len(names)]
            acc = dict.fromkeys(names, 0.0)
            for i, d in enumerate(datas):
                for name in order:
                    p = parsers[name]
                    t0 = clock()
                    p.parse(d)
                    dt = clock() - t0
                    acc[name] += dt
                    best = file_best[name]
                    best[i] = min(best[i], dt) if rep else dt
            for name in names:
                times[name].append(acc[name])
        for name in names:
            med = statistics.median(times[name])
            entry["grammars"][name]["seconds_median"] = med
            entry["grammars"][name]["seconds_all"] = times[name]
            entry["grammars"][name]["mb_per_s"] = nbytes / 1e6 / med if med else 0.0
        per_file[source]["_seconds"] = {  # type: ignore[assignment]
            name: dict(zip(rel, file_best[name], strict=True)) for name in names
        }
        per_file[source]["_bytes"] = dict(zip(rel, map(len, datas), strict=True))  # type: ignore[assignment]
        report["sources"][source] = entry
        print(f"[{source}: {len(files)} files done]", file=sys.stderr)
    report["overall"] = overall(report)
    report["_per_file"] = per_file
    return report


def overall(report: dict) -> dict:
    out: dict = {}
    srcs = report["sources"].values()
    for name in report["grammars"]:
        files = sum(s["files"] for s in srcs)
        lines = sum(s["lines"] for s in srcs)
        nbytes = sum(s["bytes"] for s in srcs)
        secs = sum(s["grammars"][name]["seconds_median"] for s in srcs)
        clean = sum(s["grammars"][name]["clean_files"] for s in srcs)
        app = [s for k, s in report["sources"].items() if k != "hashcat" and "/" not in k]
        app_files = sum(s["files"] for s in app)
        app_clean = sum(s["grammars"][name]["clean_files"] for s in app)
        out[name] = {
            "files": files,
            "lines": lines,
            "clean_pct": 100.0 * clean / max(1, files),
            "clean_pct_outside_hashcat": 100.0 * app_clean / max(1, app_files),
            "errors_per_kloc": 1000.0 * sum(s["grammars"][name]["error_nodes"] for s in srcs) / max(1, lines),
            "mb_per_s": nbytes / 1e6 / secs if secs else 0.0,
        }
    if "ours" in out and "baseline" in out and out["baseline"]["mb_per_s"]:
        out["throughput_ratio_ours_baseline"] = out["ours"]["mb_per_s"] / out["baseline"]["mb_per_s"]
    return out


def markdown(report: dict) -> str:
    names = report["grammars"]
    head = "| source | files | lines | " + " | ".join(f"{n} clean % | {n} ERR/kLOC | {n} MB/s" for n in names) + " |"
    sep = "|" + "---|" * (3 + 3 * len(names))
    rows = [head, sep]

    def cells(g: dict) -> str:
        return f"{g['clean_pct']:.1f} | {g['errors_per_kloc']:.2f} | {g['mb_per_s']:.2f}"

    for source, s in report["sources"].items():
        rows.append(
            f"| {source} | {s['files']} | {s['lines']} | " + " | ".join(cells(s["grammars"][n]) for n in names) + " |"
        )
    ov = report["overall"]
    rows.append(
        f"| **all** | {ov[names[0]]['files']} | {ov[names[0]]['lines']} | "
        + " | ".join(cells(ov[n]) for n in names)
        + " |"
    )
    lines = ["\n".join(rows), ""]
    skipped = sum(s.get("skipped_invalid", 0) for k, s in report["sources"].items() if "/" not in k)
    if skipped:
        lines.append(f"Left out: {skipped} files their project marks as not compiling (piglit `expect_build_fail`).")
    not_cl = sum(s.get("skipped_invalid", 0) for k, s in report["sources"].items() if "/" in k)
    if not_cl:
        lines.append(f"Left out of the wider corpus: {not_cl} files that are not OpenCL C (`bench/corpus.py --wider --list`).")
    for split in ("tune", "validate"):
        halves = [s for k, s in report["sources"].items() if k.endswith("/" + split)]
        if halves:
            n = sum(s["files"] for s in halves)
            lines.append(
                f"Wider corpus, {split} half ({n} files): "
                + ", ".join(f"{g} {100.0 * sum(s['grammars'][g]['clean_files'] for s in halves) / max(1, n):.1f}% clean" for g in names)
                + "."
            )
    lines.append(
        "Clean outside hashcat: "
        + ", ".join(f"{n} {ov[n]['clean_pct_outside_hashcat']:.1f}%" for n in names)
        + (
            ". Hashcat clean: "
            + ", ".join(f"{n} {report['sources']['hashcat']['grammars'][n]['clean_pct']:.1f}%" for n in names)
            if "hashcat" in report["sources"]
            else ""
        )
        + "."
    )
    if "throughput_ratio_ours_baseline" in ov:
        lines.append(f"Throughput ratio ours/baseline (all sources): **{ov['throughput_ratio_ours_baseline']:.2f}**")
    if "ours" in ov:
        checks = [("clean outside hashcat >= 98%", ov["ours"]["clean_pct_outside_hashcat"] >= 98.0)]
        if "hashcat" in report["sources"]:
            checks.append(
                ("hashcat clean >= 95%", report["sources"]["hashcat"]["grammars"]["ours"]["clean_pct"] >= 95.0)
            )
        if "throughput_ratio_ours_baseline" in ov:
            checks.append(("throughput ratio >= 1.00", ov["throughput_ratio_ours_baseline"] >= 1.0))
        lines.append("")
        lines.append("Targets: " + "; ".join(f"{name}: {'met' if ok else 'NOT met'}" for name, ok in checks) + ".")
    return "\n".join(lines) + "\n"


_TOKEN = re.compile(r"#\s*\w+|[A-Za-z_]\w*|\d[\w.]*|\"(?:[^\"\\]|\\.)*\"?|'(?:[^'\\]|\\.)*'?|\S")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def normalize(line: str, ntok: int = 2) -> str:
    toks = []
    for t in _TOKEN.findall(line.strip()):
        if t[0].isdigit():
            t = "N"
        elif t[0] in "\"'":
            t = "STR"
        elif t.startswith("#"):
            t = "#" + t[1:].strip()
        toks.append(t)
        if len(toks) == ntok:
            break
    return " ".join(toks) or "<blank line>"


def slowest(per_file: dict, n: int = 10) -> list[str]:
    """Markdown lines: the files where our grammar is slowest relative to the baseline."""
    rows = []
    for source, by_grammar in per_file.items():
        secs = by_grammar.get("_seconds", {})
        if "ours" not in secs or "baseline" not in secs:
            return []
        for rel, ours in secs["ours"].items():
            base = secs["baseline"][rel]
            if base >= 0.002 and ours > 0:  # ignore files too small to time reliably
                rows.append((base / ours, source, rel, by_grammar["_bytes"][rel], ours, base))
    rows.sort()
    out = [
        "## Slowest files relative to the baseline",
        "",
        (
            "Best-of-repetitions parse time per file (files the baseline parses in at least 2 ms). "
            "*speed ratio* = baseline time / our time (below 1: we are slower)."
        ),
        "",
        "| speed ratio | KB | ours ms | baseline ms | file |",
        "|---:|---:|---:|---:|---|",
    ]
    out += [f"| {r:.2f} | {b / 1e3:.0f} | {o * 1e3:.1f} | {t * 1e3:.1f} | {s}/{f} |" for r, s, f, b, o, t in rows[:n]]
    return [*out, ""]


def failures(report: dict, max_lines: int = MAX_LINES) -> tuple[str, str]:
    """(short report for bench/results, full report) of our grammar's failing files."""
    per_file = report["_per_file"]
    groups: Counter[tuple[str, str, str]] = Counter()
    group_files: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    example: dict[tuple[str, str, str], str] = {}
    sole: Counter[tuple[str, str, str]] = Counter()
    sections: list[tuple[str, list[str], list[list[str]]]] = []
    for source, by_grammar in per_file.items():
        if source.endswith("/validate"):
            continue  # the validate half is counted, never read: work comes from the tune half
        results = by_grammar["ours"]
        novel, repeated = [], []
        seen: set[tuple[str, str, str]] = set()
        for rel in sorted(results, key=lambda r: (results[r].errors + results[r].missing, r)):
            res = results[rel]
            if res.clean:
                continue
            text = (Path(report["roots"][source]) / rel).read_bytes().decode("utf-8", "replace").splitlines()
            block = [f"- `{rel}`: {res.errors} ERROR, {res.missing} MISSING"]
            keys = set()
            for i, p in enumerate(res.problems):
                line = text[p.row] if p.row < len(text) else ""
                key = (normalize(line), p.kind, p.parent)
                keys.add(key)
                groups[key] += 1
                group_files[key].add(f"{source}/{rel}")
                example.setdefault(key, f"{source}/{rel}:{p.row + 1}")
                if i < 3:
                    span = f"-{p.end_row + 1}" if p.end_row != p.row else ""
                    shown = line.strip()
                    shown = shown[:110] + "…" if len(shown) > 110 else shown
                    block.append(f"  - {p.row + 1}{span}:{p.col + 1} {p.kind} in `{p.parent}`: `{shown}`")
            if len(keys) == 1 and res.errors + res.missing <= len(res.problems):
                sole[next(iter(keys))] += 1
            # files showing a construct not seen yet in this source come first in the short report
            (repeated if keys <= seen else novel).append(block)
            seen |= keys
        entries = novel + repeated
        s = report["sources"][source]
        head = [
            f"## {source}: {len(entries)} of {s['files']} files fail ({s['grammars']['ours']['clean_pct']:.1f}% clean)",
            "",
            "Files with the fewest problems first; a file repeating only constructs listed above comes after the others.",
            "",
        ]
        sections.append((source, head, entries))

    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    intro = [
        "# Parse failures of the cllint grammar on the Debian corpus (and the wider corpus's tune half)",
        "",
        (
            f"Generated {date} by `.venv/bin/python bench/parse_bench.py --failures` "
            "(corpus: bench/corpus.py, Debian bookworm). A file fails when its tree has any ERROR or MISSING node."
        ),
        (
            "Locations are `line[-end line]:column` of the first ERROR/MISSING nodes (an ERROR node often starts "
            "before the construct that broke it), with the parent node kind and the text of the start line."
        ),
        "",
        "## Most frequent failing constructs",
        "",
        (
            "Grouped by the first two tokens of the line where the ERROR/MISSING node starts, the node and its parent "
            "(up to 20 problems per file counted). *sole*: files whose every problem is in this group "
            "(fixing it makes them clean)."
        ),
        "",
        "| count | files | sole | line starts with | node | parent | example |",
        "|---:|---:|---:|---|---|---|---|",
    ]
    top = groups.most_common(35)
    table = [
        f"| {n} | {len(group_files[k])} | {sole[k]} | `{_cell(k[0])}` | {k[1]} | {k[2]} | {example[k]} |"
        for k, n in top
    ]
    full = intro + table + [""]
    for _, head, entries in sections:
        full += head + [ln for b in entries for ln in b] + [""]

    # short version: share the remaining line budget between the sources, files with fewest errors first
    slow = slowest(per_file)
    full[len(intro) + len(table) + 1 : len(intro) + len(table) + 1] = slow
    short = intro + table + [""] + slow
    budget = max_lines - len(short) - 3 * len(sections)
    per_source = max(4, budget // max(1, len(sections)))
    for _, head, entries in sections:
        short += head
        used = 0
        shown = 0
        for b in entries:
            if used + len(b) > per_source:
                break
            short += b
            used += len(b)
            shown += 1
        if shown < len(entries):
            short.append(f"- … and {len(entries) - shown} more (full list: bench/.cache/parse-failures-full.md)")
        short.append("")
    return "\n".join(short) + "\n", "\n".join(full) + "\n"


def compare(old: dict, new: dict, grammar: str = "ours") -> str:
    """Files whose clean status changed for `grammar` since an earlier run's JSON."""
    out = [f"Changes for {grammar} since the earlier run:"]
    for source, entry in new["sources"].items():
        before = old.get("sources", {}).get(source, {}).get("grammars", {}).get(grammar)
        if before is None:
            continue
        was, now = set(before["failing"]), set(entry["grammars"][grammar]["failing"])
        fixed, broken = sorted(was - now), sorted(now - was)
        out.append(f"- {source}: {len(fixed)} fixed, {len(broken)} newly failing")
        out += [f"  - newly failing: {f}" for f in broken[:20]]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5, help="throughput repetitions (median counts; default 5)")
    ap.add_argument("--source", action="append", help="only these sources (Debian names, or <wider source>/<tune|validate>)")
    ap.add_argument("--wider", action="store_true", help="the GitHub snapshots' tune and validate halves, after the Debian sources")
    ap.add_argument("--wider-only", action="store_true", help="only the GitHub snapshots' halves")
    ap.add_argument("--include-invalid", action="store_true", help="keep files marked expect_build_fail")
    ap.add_argument("--compare", type=Path, help="list files newly failing or fixed against an earlier --json")
    ap.add_argument("--json", type=Path, help="also write the results as JSON")
    ap.add_argument("--failures", action="store_true", help=f"write {FAILURES_MD.relative_to(Path.cwd())}")
    ap.add_argument("--markdown", type=Path, help="also write the table with command, date and machine note")
    args = ap.parse_args(argv)
    sources = args.source or ([] if args.wider_only else list(corpus.SOURCES))
    if args.wider or args.wider_only:
        sources += wider_labels()
    report = run(sources, max(1, args.reps), keep=20 if args.failures else 0, include_invalid=args.include_invalid)
    table = markdown(report)
    print(table)
    if args.compare:
        print(compare(json.loads(args.compare.read_text()), report))
    per_file = report.pop("_per_file")
    report["meta"] = meta(args)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if args.markdown:
        m = report["meta"]
        args.markdown.write_text(
            f"# Parse benchmark\n\nCommand: `{m['command']}`  \nDate: {m['date']}  \n"
            f"Machine: {m['machine']}  \nCorpus: Debian bookworm ({', '.join(sorted(corpus.SOURCES))})"
            + ("; wider: GitHub snapshots, tune and validate halves (bench/corpus.py --wider)" if args.wider or args.wider_only else "")
            + "; "
            f"MB/s is the median of {args.reps} interleaved repetitions, parse only.\n\n{table}"
        )
    if args.failures:
        report["_per_file"] = per_file
        short, full = failures(report)
        RESULTS.mkdir(exist_ok=True)
        FAILURES_MD.write_text(short)
        FAILURES_FULL.write_text(full)
        print(f"wrote {FAILURES_MD} ({short.count(chr(10))} lines) and {FAILURES_FULL}", file=sys.stderr)
    return 0


def meta(args: argparse.Namespace) -> dict:
    import os

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "command": ".venv/bin/python bench/parse_bench.py " + " ".join(sys.argv[1:]),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"py-tree-sitter {getattr(tree_sitter, '__version__', '?')}",
        "reps": args.reps,
    }


if __name__ == "__main__":
    sys.exit(main())
