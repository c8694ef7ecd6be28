"""The VS Code TextMate grammar lists the built-ins of the catalogue it was generated from.

CI's extension job checks this with `gen-builtins.js --check`; running the same check in the
test suite catches a catalogue change (a new built-in) before it reaches CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "editors" / "vscode" / "scripts" / "gen-builtins.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_textmate_grammar_matches_the_catalogue() -> None:
    cllint = Path(sys.executable).with_name("cllint")
    env = dict(os.environ, CLLINT=str(cllint)) if cllint.exists() else dict(os.environ)
    done = subprocess.run(
        ["node", str(SCRIPT), "--check"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
