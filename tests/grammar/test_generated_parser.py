"""The committed grammar/src/ must be what grammar.js generates (needs the tree-sitter
CLI from Debian's package via scripts/tree-sitter, and npm's tree-sitter-c)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.slow
def test_grammar_json_matches_grammar_js(tmp_path: Path) -> None:
    if not shutil.which("npm") or not shutil.which("apt-get"):
        pytest.skip("needs npm and apt-get to fetch tree-sitter-c and the tree-sitter CLI")
    work = tmp_path / "grammar"
    shutil.copytree(ROOT / "grammar", work, ignore=shutil.ignore_patterns("node_modules", "*.so", "__pycache__"))
    npm = subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=work,
                         capture_output=True, text=True, timeout=300)
    if npm.returncode != 0:
        pytest.skip(f"npm could not fetch tree-sitter-c: {npm.stderr.strip()[-300:]}")
    cli = subprocess.run([str(ROOT / "scripts" / "tree-sitter"), "--version"], capture_output=True, text=True,
                         timeout=600)
    if cli.returncode != 0:
        pytest.skip(f"tree-sitter CLI unavailable: {cli.stderr.strip()[-300:]}")
    gen = subprocess.run([str(ROOT / "scripts" / "tree-sitter"), "generate", "--no-bindings"], cwd=work,
                         capture_output=True, text=True, timeout=600)
    assert gen.returncode == 0, gen.stderr
    for name in ("grammar.json", "node-types.json", "parser.c"):
        assert (work / "src" / name).read_bytes() == (ROOT / "grammar" / "src" / name).read_bytes(), (
            f"grammar/src/{name} is stale: run `cd grammar && ../scripts/tree-sitter generate --no-bindings`"
        )


def test_lexer_is_compiled_optimized() -> None:
    """Past 300 states in the main lexer, the tree-sitter CLI writes `#pragma GCC optimize ("O0")`
    into parser.c and the whole lexer runs unoptimized: about 8% of parse throughput. New tokens
    that need many lexer states (multi-word regexes) belong in src/scanner.c instead."""
    text = (ROOT / "grammar" / "src" / "parser.c").read_text(encoding="utf-8")
    assert 'optimize ("O0")' not in text[:2000], "the generated lexer has more than 300 states"
