"""Checks the CL3xx labels of gating fixtures against clang-19 (not a test module).

    .venv/bin/python tests/gating_label.py FILE.cl...

clang-19 compiles each fixture for a non-SPIR triple (nvptx64): for SPIR, clang's default
header defines some optional feature macros itself (`__opencl_c_read_write_images`, the
work-group collectives, the atomic orders and scopes), whatever `-cl-ext` says, so it would
not gate them; where a configuration has one of those, it is passed as `-D` instead. A
fixture's `// define: NAME=VALUE` header is passed as `-D` to every run, as a host would. With
every feature (`-cl-std=CL3.0 -cl-ext=+all`) clang must accept the file.
Then as the fixture's mode says. Portability mode: a line is unportable when some OpenCL C
3.0 device rejects it, so its errors are the union over devices with no optional feature
(`-cl-ext=-all`) and with exactly one (`-all,+X`, with what X needs), for every X the file
names (a use guarded by one feature and needing another shows only there). Target mode: the
fixture's target spelled for clang (`-cl-std=CLx.y -cl-ext=-all,+each name it has`). The
lines clang rejects must be exactly the lines labelled CL301/CL302/CL303 (or CL309: a `half`
value without the fp16 pragma, rejected whatever the target); in target mode,
the lines where it warns of an unsupported extension pragma exactly those labelled CL307, and
those where it warns "double precision constant requires cl_khr_fp64" exactly those labelled CL308.
A fixture with `// std: CLx.y` is portability mode at that version: its devices are that
version's with no optional feature and with each one the file names.
A label the spec requires and clang-19 does not check (`memory_scope_device`, which clang
declares unconditionally) carries `// spec-only` before its mark; clang must be silent there.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gating_eval import defines_for, header, options_for  # noqa: E402

from cllint.analysis.features import EXTENSIONS, FEATURES, SPEC_FEATURES, V2_0  # noqa: E402
from cllint.analysis.target import Target  # noqa: E402

CLANG = shutil.which("clang-19") or "clang-19"
_DIAG = re.compile(r"^[^:\n]+:(\d+):\d+: (error|warning): (.*)$", re.M)
_MARK = re.compile(r"//\s*expect((?:\s+CL\d{3})+)\s*$")


# Feature macros clang-19 leaves to its header (opencl-c-base.h defines them for SPIR only):
# `-cl-ext` cannot turn them on for another triple, a -D does.
HEADER_ONLY = ("__opencl_c_work_group_collective_functions", "__opencl_c_atomic_scope_device",
               "__opencl_c_atomic_scope_all_devices")
EVERY_FEATURE = ["-cl-std=CL3.0", "-Xclang", "-cl-ext=+all", *(f"-D{n}=1" for n in HEADER_ONLY)]


def _flags(t: Target) -> list[str]:
    names = ",".join(f"+{n}" for n in sorted(t.features | t.extensions) if n not in HEADER_ONLY)
    defines = [f"-D{n}=1" for n in HEADER_ONLY if n in t.features and t.version >= V2_0]
    return [f"-cl-std={t.version.std}", "-Xclang", f"-cl-ext=-all{',' + names if names else ''}", *defines]


# Issue 30: `CL3.0-all` and `+all` are what clang-19's spir64 target accepts at CL3.0 (its header
# declares the sub-group, mipmap and MSAA built-ins there only): that target is their oracle.
SPIR64_ALL = ["-target", "spir64", "-cl-std=CL3.0"]


def _all_of_clang(text: str) -> bool:
    """`CL3.0-all` as it is, or `CL3.0 +all`: nothing removed (a removal is spelled for nvptx64)."""
    target, features = (header(text, "target") or "").lower(), (header(text, "features") or "").replace(" ", "")
    return (target == "cl3.0-all" and not features) or (target == "cl3.0" and features == "+all")


def clang_configurations(text: str) -> list[list[str]]:
    """The -cl-std/-cl-ext pairs that stand for the fixture's mode and target."""
    if (header(text, "mode") or "portability") == "target":
        return [SPIR64_ALL if _all_of_clang(text) else _flags(options_for(text).target)]
    # `// std: CLx.y` (issue 30): portability at that version, its devices with no optional feature
    # and with one; without it, at 3.0, where the most is optional.
    bare = Target.preset(header(text, "std") or "CL3.0").apply_overrides("-all")
    named = sorted(n for n in (*SPEC_FEATURES, *EXTENSIONS) if re.search(rf"\b{n}\b", text)
                   and FEATURES.get(n, EXTENSIONS.get(n)).since <= bare.version)
    return [_flags(bare), *(_flags(bare.apply_overrides(f"+{n}")) for n in named)]


def clang_diagnostics(path: Path, flags: list[str]) -> list[tuple[int, str, str]]:
    defines = [f"-D{name}={value}" for name, value in defines_for(path.read_text())]  # the `// define:` header
    cmd = [CLANG, "-x", "cl", "-target", "nvptx64", "-Xclang", "-finclude-default-header", "-ferror-limit=0",
           "-fsyntax-only", *flags, *defines, str(path)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stderr
    return [(int(ln), sev, msg) for ln, sev, msg in _DIAG.findall(out)]


def check(path: Path) -> list[str]:
    """Disagreements between the labels and clang-19, as readable lines; [] when they agree."""
    text = path.read_text()
    marks = {n: set(m.group(1).split()) for n, line in enumerate(text.splitlines(), 1) if (m := _MARK.search(line))}
    # A half value without the fp16 pragma (CL309) is rejected whatever the target has.
    pragma_less = {n for n, codes in marks.items() if "CL309" in codes}
    every = SPIR64_ALL if _all_of_clang(text) else EVERY_FEATURE
    problems = [f"rejected with every feature: line {ln}: {msg}"
                for ln, sev, msg in clang_diagnostics(path, every)
                if sev == "error" and ln not in pragma_less]
    diags = [d for flags in clang_configurations(text) for d in clang_diagnostics(path, flags)]
    target_mode = (header(text, "mode") or "portability") == "target"
    errors = {ln for ln, sev, _ in diags if sev == "error"}
    pragmas = {ln for ln, sev, msg in diags
               if target_mode and sev == "warning" and "unsupported OpenCL extension" in msg}
    # Issue 30: in target mode, clang-19 warns of each double literal where fp64 is missing (CL308).
    literals = {ln for ln, sev, msg in diags
                if target_mode and sev == "warning" and "double precision constant requires" in msg}
    labelled: dict[str, set[int]] = {"error": set(), "pragma": set(), "spec": set(), "literal": set()}
    lines = text.splitlines()
    for number, codes in marks.items():
        if "// spec-only" in lines[number - 1]:
            labelled["spec"].add(number)
        elif codes & {"CL301", "CL302", "CL303", "CL309"}:
            labelled["error"].add(number)
        if "CL307" in codes:
            labelled["pragma"].add(number)
        if "CL308" in codes:
            labelled["literal"].add(number)
    byline = {ln: msg for ln, _, msg in diags}
    problems += [f"labelled, clang accepts: line {ln}" for ln in sorted(labelled["error"] - errors)]
    problems += [f"clang rejects, not labelled: line {ln}: {byline[ln]}" for ln in sorted(errors - labelled["error"])]
    problems += [f"pragma label, clang silent: line {ln}" for ln in sorted(labelled["pragma"] - pragmas)]
    problems += [f"clang warns of the pragma, not labelled: line {ln}" for ln in sorted(pragmas - labelled["pragma"])]
    problems += [f"spec-only label, clang rejects: line {ln}" for ln in sorted(labelled["spec"] & errors)]
    if target_mode:
        problems += [f"CL308 label, clang silent: line {ln}" for ln in sorted(labelled["literal"] - literals)]
        problems += [f"clang warns of a double literal, not labelled CL308: line {ln}"
                     for ln in sorted(literals - labelled["literal"])]
    return problems


def main(argv: list[str]) -> int:
    bad = 0
    for arg in argv:
        problems = check(Path(arg))
        bad += bool(problems)
        print(Path(arg).name, "ok" if not problems else "MISMATCH")
        for p in problems:
            print("   ", p)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
