"""Write analysis/preprocessor/clang19.py and clang19_has.py: what clang-19 answers in OpenCL C `#if` lines.

Run once with clang-19 on PATH (`.venv/bin/python scripts/gen_clang_tables.py`). It records
  * the macros clang-19 predefines for `-x cl` (`-dM -E /dev/null` without the default header;
    the target-dependent OpenCL names, which cllint's Target supplies, left out), and
  * every name for which `__has_builtin`, `__has_attribute`, `__has_feature`, `__has_extension`
    or `__has_c_attribute` is non-zero, and the names `__is_identifier` answers 0 for.
    Candidates are every identifier-like string in libclang-cpp (clang keeps these names as
    plain strings), each probed in one `clang-19 -E` run; the answers do not depend on the
    OpenCL C version except for a few 2.0 names (pipes, device-side enqueue, `blocks`), kept
    apart with both answers (CL1.2 against CL2.0; CL3.0 answers as CL2.0).
"""

from __future__ import annotations

import glob
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "analysis" / "preprocessor" / "clang19.py"
# The `__has_*` answers, apart: ~2,000 names cost ~4 ms to load and few files ask (issue 32).
OUT_HAS = ROOT / "analysis" / "preprocessor" / "clang19_has.py"
CLANG = "clang-19"
OPS = ("__has_builtin", "__has_attribute", "__has_feature", "__has_extension", "__has_c_attribute",
       "__is_identifier")
# Names the Target decides (version, features, extensions, image support, byte order).
_TARGET = re.compile(r"^(__OPENCL_|CL_VERSION_|__opencl_c_|cl_|cles_|__IMAGE_SUPPORT__$|__ENDIAN_LITTLE__$"
                     r"|__BLOCKS__$|__block$|__FAST_RELAXED_MATH__$|__ROUNDING_MODE__$)")


def predefined(std: str) -> dict[str, str]:
    out = subprocess.run([CLANG, "-x", "cl", f"-cl-std={std}", "-cl-no-stdinc", "-dM", "-E", "/dev/null"],
                         capture_output=True, text=True, check=True).stdout
    macros: dict[str, str] = {}
    for ln in out.splitlines():
        m = re.match(r"#define (\w+)(\([^)]*\))? ?(.*)$", ln)
        if m and not m.group(2):
            macros[m.group(1)] = m.group(3)
    return macros


def candidates(skip: set[str]) -> list[str]:
    lib = sorted(glob.glob("/usr/lib/llvm-19/lib/libclang-cpp.so.19*"))[0]
    text = subprocess.run(["strings", "-n", "2", lib], capture_output=True, text=True, check=True).stdout
    names = {s for s in text.splitlines() if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,60}", s)}
    bad = re.compile(r"^(defined|__VA_ARGS__|__VA_OPT__|_Pragma|__has_\w+|__is_identifier|__is_target\w*"
                     r"|__building_module|__COUNTER__|__LINE__|__FILE__|__FILE_NAME__|__INCLUDE_LEVEL__"
                     r"|__TIMESTAMP__|__DATE__|__TIME__|__BASE_FILE__|__FLT_EVAL_METHOD__)$")
    return sorted(n for n in names if n not in skip and not bad.match(n))


def probe(names: list[str], std: str) -> dict[str, tuple[int, ...]]:
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "probe.cl"
        src.write_text("".join(f'"{n}" ' + " ".join(f"{op}({n})" for op in OPS) + "\n" for n in names))
        run = subprocess.run([CLANG, "-x", "cl", f"-cl-std={std}", "-cl-no-stdinc", "-ferror-limit=0", "-E",
                              str(src)], capture_output=True, text=True)
    got: dict[str, tuple[int, ...]] = {}
    for ln in run.stdout.splitlines():
        m = re.fullmatch(r'"(\w+)" ((?:\d+L? ?)+)', ln.strip())
        if m:
            got[m.group(1)] = tuple(int(v.rstrip("L")) for v in m.group(2).split())
    missing = set(names) - set(got)
    assert not missing, f"{len(missing)} names not answered, e.g. {sorted(missing)[:5]}"
    return got


def main() -> None:
    pre = predefined("CL1.2")
    # Macro names are expanded inside the operators' parentheses: probe only plain names.
    macro_like = set(pre) | set(predefined("CL3.0"))
    full = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL3.0", "-dM", "-E", "/dev/null"],  # with the header
                          capture_output=True, text=True, check=True).stdout
    macro_like |= {m.group(1) for m in re.finditer(r"#define (\w+)", full)}
    names = candidates(macro_like)
    answers = probe(names, "CL1.2")
    answers20 = probe(names, "CL2.0")
    assert probe(names, "CL3.0") == answers20, "answers differ between CL2.0 and CL3.0"
    tables = {op: {} for op in OPS}
    since20 = {op: {} for op in OPS}  # name -> (value before 2.0, value from 2.0 on)
    for n, vals in answers.items():
        for op, v, v20 in zip(OPS, vals, answers20[n]):
            if v != v20:
                since20[op][n] = (v, v20)
                continue
            if op == "__is_identifier":
                if v == 0:
                    tables[op][n] = 0
            elif v:
                tables[op][n] = v
    compiler = {k: v for k, v in sorted(pre.items()) if not _TARGET.match(k)}
    version = compiler.get('__clang_version__', '?')
    lines = [
        '"""The macros clang-19 predefines for `-x cl` (`-dM -E /dev/null`, no default header), less the',
        "OpenCL names a Target decides; generated by scripts/gen_clang_tables.py from clang-19",
        f"({version}). Do not edit by hand. What the `__has_*` operators answer is in clang19_has.py.",
        '"""',
        "",
        "# fmt: off",
        f"PREDEFINED: dict[str, str] = {compiler!r}",
        "# fmt: on",
    ]
    has = [
        '"""What clang-19 answers to the `__has_*` operators in OpenCL C `#if` lines; generated by',
        f"scripts/gen_clang_tables.py from clang-19 ({version}). Do not edit by hand.",
        "",
        "BUILTIN, ATTRIBUTE, FEATURE, EXTENSION, C_ATTRIBUTE: the names each `__has_*` operator answers",
        "non-zero for, with the value. KEYWORDS: the names `__is_identifier` answers 0 for. Candidates",
        "were the identifier-like strings of libclang-cpp. Loaded only by a file that asks (issue 32).",
        '"""',
        "",
        "# fmt: off",
    ]
    for var, op in (("BUILTIN", "__has_builtin"), ("ATTRIBUTE", "__has_attribute"), ("FEATURE", "__has_feature"),
                    ("EXTENSION", "__has_extension"), ("C_ATTRIBUTE", "__has_c_attribute")):
        has.append(f"{var}: dict[str, int] = {dict(sorted(tables[op].items()))!r}")
    has.append("# Answers that change at OpenCL C 2.0: operator -> name -> (before 2.0, from 2.0 on).")
    changed = {k: v for k, v in since20.items() if v}
    has.append(f"SINCE_2_0: dict[str, dict[str, tuple[int, int]]] = {changed!r}")
    has.append(f"KEYWORDS: frozenset[str] = frozenset({sorted(tables['__is_identifier'])!r})")
    has.append("# fmt: on")
    OUT_HAS.write_text("\n".join(has) + "\n")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(compiler)} macros, " + ", ".join(
        f"{op} {len(t)}" for op, t in tables.items()), file=sys.stderr)


if __name__ == "__main__":
    main()
