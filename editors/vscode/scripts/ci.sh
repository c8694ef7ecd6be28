#!/usr/bin/env bash
# CI for the VS Code extension: install, compile, lint, unit tests (no VS Code binary), grammar
# freshness (when cllint is available) and the .vsix. Run from anywhere; needs node >= 20 and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
npm run compile
npm run lint
npm test
if [ -x ../../.venv/bin/cllint ] || command -v cllint >/dev/null 2>&1 || [ -n "${CLLINT:-}" ]; then
  node scripts/gen-builtins.js --check
fi
npx vsce package --out cllint.vsix
ls -l cllint.vsix
