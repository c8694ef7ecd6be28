"""Cost of "did you mean" (analysis/semantic/suggest.py) per unknown name, pruned `closest`
against `closest_exhaustive` (every candidate's edit distance, the former way), in one run.

Candidates are what CL011 offers for an unknown call: the catalogue's functions plus the
names of a large public-corpus file; unknown names are that corpus's words no candidate
spells (host macros, names from other files) and typos of candidates. Prints the answers'
agreement and the per-name cost of each, and their ratio (not a timed assertion).

    .venv/bin/python bench/suggest_bench.py [--names N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from cllint.analysis.catalogue import catalogue  # noqa: E402
from cllint.analysis.semantic.suggest import closest, closest_exhaustive  # noqa: E402

_WORD = re.compile(rb"\b[A-Za-z_]\w*\b")
DEBIAN = ("hashcat", "darktable", "piglit", "pyopencl", "opencv")  # the Debian sources only


def _corpus_words() -> tuple[list[str], list[str]]:
    """(words of the largest Debian-corpus file, words of 39 other large ones)."""
    from corpus import corpus_files  # bench/corpus.py (fetches on first use)

    files = [f for s in DEBIAN for f in corpus_files(s)]
    files.sort(key=lambda f: f.stat().st_size, reverse=True)
    own = sorted({w.decode() for w in _WORD.findall(files[0].read_bytes())})
    other = sorted({w.decode() for f in files[1:40] for w in _WORD.findall(f.read_bytes())})
    return own, other


def _typo(rng: random.Random, word: str) -> str:
    w = list(word)
    i = rng.randrange(len(w))
    w[i] = rng.choice("abcdefghijklmnopqrstuvwxyz_")
    return "".join(w)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--names", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    own, other = _corpus_words()
    candidates = list(catalogue().functions) + own
    known = set(candidates)
    unknown = [w for w in other if w not in known]
    names = rng.sample(unknown, min(len(unknown), args.names * 2 // 3))
    names += [_typo(rng, rng.choice(candidates)) for _ in range(args.names - len(names))]
    print(f"candidates: {len(set(candidates))}  unknown names: {len(names)}")
    results = {}
    for label, fn in (("exhaustive", closest_exhaustive), ("pruned", closest)):
        start = time.perf_counter()
        results[label] = [fn(n, candidates) for n in names]
        results[label + "_s"] = time.perf_counter() - start
    same = sum(a == b for a, b in zip(results["exhaustive"], results["pruned"]))
    suggested = sum(a is not None for a in results["exhaustive"])
    per_old = results["exhaustive_s"] / len(names) * 1e3
    per_new = results["pruned_s"] / len(names) * 1e3
    print(f"same answers: {same}/{len(names)} ({suggested} suggestions)")
    print(f"per name: exhaustive {per_old:.3f} ms, pruned {per_new:.3f} ms, ratio {per_old / per_new:.1f}x")
    return 0 if same == len(names) else 1


if __name__ == "__main__":
    sys.exit(main())
