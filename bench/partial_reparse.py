"""Does reparsing only the damaged items read a broken revision as a fresh parse does? (issue 33)

For corpus files that parse cleanly, two kinds of edit sequences: a statement typed one
character at a time at a line start (most versions broken until it is complete), and
tests/edit_fuzzer.py's hostile edits. Every broken revision is read three ways: the incremental
tree (what the editor had before issue 33), `analysis/reparse.reparse_fresh` on it, and a fresh
parse (what `cllint check` reads). The host keeps what `reparse_fresh` returned, as
`Host._fresh` does, and the next edit starts from it. Counts the revisions whose syntax tree
differs from the fresh parse's, and the parse CPU of each way.

    .venv/bin/python bench/partial_reparse.py [--files 40] [--half tune|validate|both]

Files come from bench/corpus.py's corpus, by its fixed tune/validate split, in a seeded order.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from tree_sitter import Parser, Tree  # noqa: E402

from corpus import CORPUS, corpus_files, split_of  # noqa: E402
from edit_fuzzer import EditFuzzer, to_bytes  # noqa: E402

from cllint.analysis.reparse import point_at, reparse_fresh  # noqa: E402
from cllint.grammar import language  # noqa: E402

STATEMENTS = ["f(a, b);", "int x = y[2] + 1;", "if (x) { y = 1; }", "for (int i = 0; i < n; i++) s += a[i];"]


class Tally:
    def __init__(self) -> None:
        self.broken = self.incremental_differs = self.partial_differs = 0
        self.fresh_s = self.partial_s = 0.0

    def read(self, parser: Parser, tree: Tree, text: bytes) -> Tree:
        """Reads a broken revision the three ways; returns what the host would keep."""
        self.broken += 1
        t = time.process_time()
        fresh = parser.parse(text)
        self.fresh_s += time.process_time() - t
        t = time.process_time()
        partial = reparse_fresh(parser, tree, text)
        self.partial_s += time.process_time() - t
        want = str(fresh.root_node)
        self.incremental_differs += str(tree.root_node) != want
        self.partial_differs += str(partial.root_node) != want
        return partial


def _step(parser: Parser, tree: Tree, text: bytes, start: int, end: int, new: bytes) -> tuple[Tree, bytes]:
    after = text[:start] + new + text[end:]
    tree.edit(start_byte=start, old_end_byte=end, new_end_byte=start + len(new), start_point=point_at(text, start),
              old_end_point=point_at(text, end), new_end_point=point_at(after, start + len(new)))
    return parser.parse(after, tree), after


def typed(parser: Parser, data: bytes, rng: random.Random, tally: Tally, places: int) -> None:
    starts = [i + 1 for i in range(len(data)) if data[i:i + 1] == b"\n"]
    for _ in range(places):
        pos, text, tree = rng.choice(starts), data, parser.parse(data)
        for ch in rng.choice(STATEMENTS).encode():
            tree, text = _step(parser, tree, text, pos, pos, bytes([ch]))
            pos += 1
            if tree.root_node.has_error:
                tree = tally.read(parser, tree, text)


def hostile(parser: Parser, data: bytes, seed: int, tally: Tally, count: int) -> None:
    text_s = data.decode("utf-8", "surrogateescape")
    text, tree = data, parser.parse(data)
    for e, after_s in EditFuzzer(seed).edits(text_s, count):
        start = len(to_bytes(text_s[:e.start]))
        end = len(to_bytes(text_s[:e.end]))
        tree, text = _step(parser, tree, text, start, end, to_bytes(e.text))
        text_s = after_s
        if tree.root_node.has_error:
            tree = tally.read(parser, tree, text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=40, help="files per half")
    ap.add_argument("--half", choices=["tune", "validate", "both"], default="both")
    ap.add_argument("--places", type=int, default=6, help="statements typed per file")
    ap.add_argument("--fuzz", type=int, default=30, help="hostile edits per file")
    args = ap.parse_args()
    parser = Parser(language())
    halves = ["tune", "validate"] if args.half == "both" else [args.half]
    for half in halves:
        files = []
        for f in corpus_files():
            rel = f.relative_to(CORPUS)
            source, relpath = rel.parts[0], "/".join(rel.parts[1:])
            if split_of(source, relpath) == half and 2_000 <= f.stat().st_size <= 400_000:
                data = f.read_bytes()
                if not parser.parse(data).root_node.has_error:
                    files.append((f, data))
        random.Random(f"partial_reparse:{half}").shuffle(files)
        files = files[: args.files]
        for kind in ("typed", "hostile"):
            tally = Tally()
            for i, (_, data) in enumerate(files):
                if kind == "typed":
                    typed(parser, data, random.Random(i), tally, args.places)
                else:
                    hostile(parser, data, i, tally, args.fuzz)
            n = max(1, tally.broken)
            print(f"{half:8} {kind:7} {len(files)} files, {tally.broken} broken revisions: differ from a fresh parse: "
                  f"incremental {tally.incremental_differs}, damaged items reparsed {tally.partial_differs}; "
                  f"parse CPU per revision: fresh {tally.fresh_s * 1000 / n:.2f} ms, "
                  f"damaged items {tally.partial_s * 1000 / n:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
