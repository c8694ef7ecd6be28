"""Instructions per keystroke on darktable's basic.cl, in process (issue 32): a deterministic
measure for a loaded machine. Opens the file (its headers beside it), runs the server's
rehearsal (`Host.rehearse`), then K keystrokes of bench/lsp_latency.py's statement at its typing
point, the statement deleted after each 39 (each keystroke and deletion linted). Run under
callgrind with K=0 and K=78 and divide the difference by 80 (78 keystrokes, 2 deletions):

    cd / && for k in 0 78; do XDG_CACHE_HOME=$(mktemp -d) valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        TREE/.venv/bin/python /work/main/bench/keystroke_instructions.py $k 2>&1 | grep Collected; done

Each tree with its own venv (/work/notes/lay.sh makes one): with main's python, `PYTHONPATH=TREE`
finds TREE's `cllint/` but main's editable finder then maps `cllint.analysis` (and `server`,
`grammar`) to main's folders, so both "trees" measure main (issue 32, session 20). A fresh
`XDG_CACHE_HOME` per run: a run that finds another's on-disk entries opens cheaper (K=0 moved by
~130M instructions), which the K=78 run of the other tree need not share.

`--no-gc` (after K): the collector frozen and off from the end of the rehearsal on, so that
the figure is the analyses' own. With it on, a change that allocates a little more or less
moves the collector's passes in or out of the typing: a tree measured 63.1M a keystroke with
it on and 62.4M off, the same with one analysis file changed 58.3M on, and with a second one
59.6M off (issue 32, session 19).
"""

from __future__ import annotations

import gc
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import lsp_latency as L  # noqa: E402

from cllint.analysis.db import Change, Host, TextEdit  # noqa: E402
from cllint.includes import FileIncludeResolver  # noqa: E402


def main() -> int:
    k = int(sys.argv[1])
    text, _, headers = L.corpus_file()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, data in headers.items():
            (folder / name).write_bytes(data)
        host = Host(include_resolver=FileIncludeResolver())
        f = str(folder / "main.cl")
        host.set_file(f, text.encode())
        host.snapshot().diagnostics(f)
        if hasattr(host, "rehearse"):
            host.rehearse(f)
        if "--no-gc" in sys.argv[2:]:
            gc.collect()
            gc.freeze()
            gc.disable()
        line, col = L.typing_point(text)
        offset = sum(len(x.encode()) + 1 for x in text.split("\n")[:line]) + col
        typed = L.TYPED.encode()
        done = 0
        while done < k:
            n = 0
            for i in range(len(typed)):
                if done == k:
                    break
                host.apply_change(Change(edits={f: [TextEdit(offset + i, offset + i, typed[i:i + 1])]}))
                host.snapshot().diagnostics(f)
                done += 1
                n = i + 1
            host.apply_change(Change(edits={f: [TextEdit(offset, offset + n, b"")]}))
            host.snapshot().diagnostics(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
