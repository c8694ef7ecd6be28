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
