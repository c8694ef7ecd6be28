"""Module-level regular expressions on `cllint check`'s path are compiled when first used
(analysis/lazy_re.py), so that a run compiles only what its input needs (issue 32: most of
a small file's start-up is importing)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

from cllint.analysis.lazy_re import lazy

# A one-line kernel's `cllint check` compiled 83 module-level patterns and used 12 (session 13).
MAX_COMPILED_AT_MODULE_LEVEL = 20


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    text = "int a2 = b_3 + 0x1f; // c"
    pattern = lazy(r"([A-Za-z_]\w*)")
    compiled = re.compile(r"([A-Za-z_]\w*)")
    assert pattern.findall(text) == compiled.findall(text)
    assert pattern.match(text).span() == compiled.match(text).span()
    assert pattern.search(text, 4).group(1) == compiled.search(text, 4).group(1)
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert pattern.sub("x", text, 2) == compiled.sub("x", text, 2)
    assert pattern.split(text, 1) == compiled.split(text, 1)


def test_once_compiled_the_pattern_methods_are_called_directly() -> None:
    """After the first use, `p.match` is the compiled pattern's own method: a pattern used
    in a loop costs no call through the lazy wrapper."""
    pattern = lazy(rb"\d+")
    assert type(pattern.match).__name__ == "method"  # the wrapper's, before any use
    assert pattern.match(b"12").group() == b"12"
    assert type(pattern.match).__name__ == "builtin_method"
    assert pattern.match.__self__ is pattern.compiled()


def test_a_one_line_kernel_compiles_few_module_level_patterns(tmp_path) -> None:
    """Counted in a fresh process: the patterns `re.compile` makes while a module body runs."""
    kernel = tmp_path / "one.cl"
    kernel.write_text("__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n")
    script = textwrap.dedent("""
        import re, sys
        made = []
        real = re.compile
        def counting(pattern, flags=0):
            caller = sys._getframe(1)
            if caller.f_code.co_name == "<module>" and "cllint" in caller.f_code.co_filename:
                made.append(f"{caller.f_code.co_filename}:{caller.f_lineno}")
            return real(pattern, flags)
        re.compile = counting
        from cllint.cli.main import main
        main(["check", "--no-cache", "--exit-zero", "--quiet", sys.argv[1]])
        print("\\n".join(made), file=sys.stderr)
        print(len(made))
    """)
    done = subprocess.run([sys.executable, "-c", script, str(kernel)], capture_output=True, text=True, check=True)
    count = int(done.stdout.strip().splitlines()[-1])
    assert count <= MAX_COMPILED_AT_MODULE_LEVEL, (
        f"{count} patterns compiled at import (use cllint.analysis.lazy_re.lazy for those a small file "
        f"never uses):\n{done.stderr}")
