"""docs/rules.md and docs/rules/*.md must match the registry (regenerate with
scripts/generate_docs.py)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_rule_docs_are_current() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate_docs.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_every_rule_documents_the_required_sections() -> None:
    from cllint.analysis.registry import all_rules

    for code, rule in all_rules().items():
        doc = rule.doc()
        for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## OpenCL spec"):
            assert heading in doc, f"{code} lacks '{heading}'"
