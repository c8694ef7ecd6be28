"""Labels an address-space fixture from clang-19 (not a test module).

    .venv/bin/python tests/addrspace_label.py FILE.cl...           # check hints against clang
    .venv/bin/python tests/addrspace_label.py FILE.cl... --write   # and (re)write the labels

A fixture marks each line it means to be an error with a hint comment naming the rule,
`// !CL101`, or `// !CL101(CL2.0)` for some targets only; `// label-targets: CL2.0 CL3.0-all`
picks the targets (default CL1.2 and CL2.0). For every target, the lines clang-19 reports an
in-scope error on (`addrspace_eval.IN_SCOPE`) must be exactly the hinted ones; with --write
the `// targets:` and `// expect(TARGET): CODE line N` block is appended at the end of the
file, so the body's line numbers never move.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from addrspace_eval import IN_SCOPE, clang_errors  # noqa: E402

HINT = re.compile(r"!(CL\d+)(?:\(([\w. -]+)\))?")


def label(path: Path, write: bool) -> bool:
    text = re.sub(r"\n// targets:.*\Z", "\n", path.read_text(), flags=re.S).rstrip("\n") + "\n"
    path.write_text(text)
    m = re.search(r"^// label-targets: (.+)$", text, re.M)
    targets = m.group(1).split() if m else ["CL1.2", "CL2.0"]
    block = [f"// targets: {' '.join(targets)}"]
    ok = True
    for t in targets:
        errs = clang_errors(path, t) or []
        want = {ln for ln, msg in errs if IN_SCOPE.search(msg)}
        hints = {i: code for i, line in enumerate(text.splitlines(), 1)
                 for code, ts in HINT.findall(line) if not ts or t in ts.split()}
        if set(hints) != want:
            ok = False
            print(f"{path.name} [{t}] hinted, clang silent: {sorted(set(hints) - want)}; clang, not hinted: "
                  f"{[(ln, msg) for ln, msg in errs if ln in want - set(hints)]}")
        block += [f"// expect({t}): {hints[i]} line {i}" for i in sorted(want & set(hints))]
    if write:
        path.write_text(text + "\n".join(block) + "\n")
    print(path.name, "ok" if ok else "MISMATCH", len(block) - 1, "labels")
    return ok


if __name__ == "__main__":
    write = "--write" in sys.argv
    results = [label(Path(a), write) for a in sys.argv[1:] if not a.startswith("--")]
    sys.exit(0 if all(results) else 1)
