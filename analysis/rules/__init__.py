"""Rule families, one module each; `cllint.analysis.registry` assigns the codes."""
