#!/usr/bin/env bash
# Takes docs/images/vscode.png: VS Code (code-server, i.e. VS Code OSS served to a browser) with
# the cllint extension from editors/vscode, on examples/reduce.cl, once cllint's CL201 warning is
# in the Problems panel; the hover on the first barrier shows the message. Headless Chromium,
# driven by playwright-core, takes the picture. docs/images/vscode.txt records the versions and
# the Problems panel's text.
#
#   scripts/capture_vscode.sh          # docs/images/vscode.png (CL201 in the hover and Problems)
#   scripts/capture_vscode.sh runs     # docs/images/vscode-runs.png: the Kernel runs view and the
#                                      # ▶ Run lens after examples/run/history's three versions ran
#                                      # on the CPU device (PoCL) with `cllint run`
#
# Everything comes from the npm registry and Debian's apt mirror:
#   - Debian packages, installed with apt-get when missing: chromium, ripgrep, plus the build tools
#     for code-server's native modules (g++, make, python3; the node headers in /usr/include/node
#     come with Debian/NodeSource's nodejs package).
#   - npm, into the cache folder (CLLINT_CAPTURE_CACHE, default ~/.cache/cllint/capture):
#     code-server (CODE_SERVER_VERSION, default 4.100.3, the last release for node 20) and
#     playwright-core. code-server's postinstall would download ripgrep from GitHub, and argon2's
#     install would fetch a prebuilt binary, so the install runs with --ignore-scripts and does the
#     postinstall's steps itself: native modules are compiled from source, and VS Code's ripgrep is
#     Debian's `rg`.
# The .vsix is built from a copy of the tracked files in editors/vscode (npm ci && vsce package),
# so the checkout's node_modules is left alone. Nothing else is downloaded; code-server runs on
# 127.0.0.1 with no authentication and is stopped on exit.
set -euo pipefail
mode="${1:-problems}"
case "$mode" in problems|runs) ;; *) echo "usage: scripts/capture_vscode.sh [problems|runs]" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
root=$PWD
out=docs/images
cache="${CLLINT_CAPTURE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cllint/capture}"
version="${CODE_SERVER_VERSION:-4.100.3}"
port="${CODE_SERVER_PORT:-18734}"
python="$root/.venv/bin/python"
mkdir -p "$out" "$cache"
"$python" -c 'import cllint.cli.main' 2>/dev/null || { echo "capture: cllint not installed in .venv (run scripts/setup)" >&2; exit 1; }

tmp=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

need_deb() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "capture: installing Debian packages: ${missing[*]}" >&2
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
}
need_deb chromium ripgrep g++ make python3 fonts-dejavu-core

# --- code-server from npm, without its download steps -------------------------------------------
cs="$cache/code-server-$version"
csbin="$cs/node_modules/code-server/out/node/entry.js"
# node-gyp builds against the installed node's headers instead of downloading them
[ -f /usr/include/node/node.h ] && export npm_config_nodedir=/usr
if [ ! -f "$cs/.complete" ]; then
  echo "capture: installing code-server $version into $cs" >&2
  rm -rf "$cs" && mkdir -p "$cs"
  (
    cd "$cs"
    npm install --no-audit --no-fund --ignore-scripts --omit=dev "code-server@$version" >&2
    # argon2 (password hashing; unused with --auth none but loaded at start): compile, don't fetch
    npm rebuild --no-audit --no-fund --build-from-source argon2 >&2
    cd node_modules/code-server/lib/vscode
    npm install --no-audit --no-fund --ignore-scripts --omit=dev >&2
    # native modules VS Code's server loads, compiled against /usr/include/node. node-pty's
    # postinstall, after the build, only writes compile_commands.json with `npx node-gyp@latest`
    # (which npx will not fetch without --yes), so the build's result is checked instead
    npm rebuild --no-audit --no-fund @vscode/spdlog native-watchdog @vscode/deviceid >&2
    npm rebuild --no-audit --no-fund node-pty > "$cs/node-pty-build.log" 2>&1 ||
      test -f node_modules/node-pty/build/Release/pty.node
    mkdir -p node_modules/@vscode/ripgrep/bin
    ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
    # the rest of code-server's postinstall.sh
    ln -sfn node_modules node_modules.asar
    (cd bin/remote-cli && ln -sf code-linux.sh code-server)
    (cd bin/helpers && ln -sf browser-linux.sh browser.sh)
    cd extensions && npm install --no-audit --no-fund --omit=dev >&2
  )
  touch "$cs/.complete"
fi
if [ ! -d "$cache/playwright/node_modules/playwright-core" ]; then
  mkdir -p "$cache/playwright"
  (cd "$cache/playwright" && npm install --no-audit --no-fund playwright-core@1 >&2)
fi

# --- the extension ----------------------------------------------------------------------------
mkdir -p "$tmp/src"
git ls-files -z editors/vscode | xargs -0 -I{} cp --parents {} "$tmp/src/"
(cd "$tmp/src/editors/vscode" && npm ci --no-audit --no-fund >&2 && npx vsce package --out "$tmp/cllint.vsix" > "$tmp/vsce.log")

code_server() {
  node "$csbin" --config "$tmp/config.yaml" --user-data-dir "$tmp/data" --extensions-dir "$tmp/ext" "$@"
}
mkdir -p "$tmp/data/User" "$tmp/ext"
code_server --install-extension "$tmp/cllint.vsix" >&2
folder="$root/examples"
device_setting=""
if [ "$mode" = runs ]; then
  # a workspace whose history holds three real runs of one kernel: the baseline, 100x the work
  # (CL920), another output (CL921), as examples/run/history/run.sh makes them
  folder="$tmp/ws"
  mkdir -p "$folder"
  echo "# capture workspace" > "$folder/.cllint.toml"
  for v in v1_baseline v2_slower v3_changed; do
    cp "examples/run/history/$v.cl" "$folder/work.cl"
    (cd "$folder" && "$root/.venv/bin/cllint" run work.cl -k work --device cpu --global 4096 > /dev/null) ||
      { echo "capture: cllint run failed (is PoCL installed?)" >&2; exit 1; }
  done
  device_setting='"cllint.device": "cpu",'
fi
cat > "$tmp/data/User/settings.json" <<EOF
{
  "cllint.python": "$python",
  $device_setting
  "workbench.colorTheme": "Default Dark Modern",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "editor.minimap.enabled": false,
  "window.commandCenter": false,
  "chat.commandCenter.enabled": false,
  "workbench.layoutControl.enabled": false,
  "git.openRepositoryInParentFolders": "never"
}
EOF

echo "capture: starting code-server $version on 127.0.0.1:$port" >&2
if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
  echo "capture: 127.0.0.1:$port is in use (set CODE_SERVER_PORT)" >&2; exit 1
fi
node "$csbin" --config "$tmp/config.yaml" --user-data-dir "$tmp/data" --extensions-dir "$tmp/ext" \
  --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --ignore-last-opened \
  > "$tmp/code-server.log" 2>&1 &
server_pid=$!
for _ in $(seq 60); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done

status=0
if [ "$mode" = runs ]; then
NODE_PATH="$cache/playwright/node_modules" node - "$port" "$folder" "$out/vscode-runs.png" "$tmp/lens.txt" <<'JS' || status=$?
const { chromium } = require('playwright-core');
const fs = require('fs');
const [port, folder, png, lensTxt] = process.argv.slice(2);
(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
    await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60000 });
    await page.waitForTimeout(2000);
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type('work.cl');
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 15000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.monaco-editor .view-lines', { timeout: 15000 });
    // the lens over the kernel says the last run, read from .cllint/runs.jsonl
    await page.waitForFunction(() => [...document.querySelectorAll('.codelens-decoration')]
      .some((e) => e.textContent.includes('▶ Run ·')), null, { timeout: 90000 });
    const lens = await page.$$eval('.codelens-decoration', (els) => els.map((e) => e.textContent));
    fs.writeFileSync(lensTxt, lens.join('\n') + '\n');
    // the Kernel runs view, in the Explorer
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type('cllint: Show Kernel Runs');
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 15000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.pane-header[aria-label*="Kernel runs"], .pane-header:has-text("Kernel runs")', { timeout: 30000 });
    // the webview's own frame: wait until its chart is drawn
    let drawn = false;
    for (let i = 0; i < 60 && !drawn; i++) {
      for (const f of page.frames()) {
        if (await f.$('svg.chart').catch(() => null)) { drawn = true; break; }
      }
      if (!drawn) await page.waitForTimeout(500);
    }
    if (!drawn) throw new Error('the Kernel runs view drew no chart');
    // fold the folder's tree so that the view gets the sidebar's height
    await page.click('.explorer-folders-view .pane-header, .pane-header[aria-label*="Explorer Section"]').catch(() => {});
    await page.waitForTimeout(1500);
    await page.screenshot({ path: png });
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
JS
else
NODE_PATH="$cache/playwright/node_modules" node - "$port" "$folder" "$out/vscode.png" "$tmp/problems.txt" <<'JS' || status=$?
const { chromium } = require('playwright-core');
const fs = require('fs');
const [port, folder, png, problemsTxt] = process.argv.slice(2);
(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],  // playwright gives it a fresh --user-data-dir
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
    await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60000 });
    await page.waitForTimeout(2000);
    // open examples/reduce.cl with Quick Open
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type('reduce.cl');
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 15000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.monaco-editor .view-lines', { timeout: 15000 });
    // cllint's diagnostics arrive as squiggles
    await page.waitForSelector('.monaco-editor .squiggly-warning, .monaco-editor .squiggly-error', { timeout: 60000 });
    // the Problems panel
    await page.keyboard.press('Control+Shift+M');
    await page.waitForFunction(() => {
      const p = document.querySelector('.markers-panel');
      return p && p.textContent.includes('may not be reached by every work-item');
    }, null, { timeout: 30000 });
    const rows = await page.$$eval('.markers-panel .monaco-list-row', (els) => els.map((e) => e.getAttribute('aria-label') || e.textContent));
    fs.writeFileSync(problemsTxt, rows.join('\n') + '\n');
    // back to the editor, cursor on the first barrier (line 11, column 5), and its hover
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+G');
    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
    await page.keyboard.type('11:6');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await page.waitForFunction(() => {
      const h = document.querySelector('.monaco-hover:not(.hidden)');
      return h && h.textContent.includes('may not be reached');
    }, null, { timeout: 15000 });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: png });
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e); process.exit(1); });
JS
fi

if [ "$status" -ne 0 ]; then
  echo "capture: failed; code-server log and the cllint output channel follow" >&2
  cat "$tmp/code-server.log" >&2
  find "$tmp/data/logs" -name '*cllint*' -exec sh -c 'echo "== $1"; cat "$1"' _ {} \; >&2 || true
  exit "$status"
fi
if [ "$mode" = runs ]; then
  {
    echo "docs/images/vscode-runs.png, taken by scripts/capture_vscode.sh runs"
    echo "code-server $(code_server --version | tail -1) (VS Code OSS in a browser), headless $(chromium --version 2>/dev/null | head -1)"
    echo "$("$root/.venv/bin/cllint" --version), the extension from editors/vscode at $(git rev-parse --short HEAD)"
    echo
    echo "Code lenses of work.cl:"
    cat "$tmp/lens.txt"
    echo
    echo "cllint runs (the history the view draws):"
    (cd "$folder" && "$root/.venv/bin/cllint" runs)
  } > "$out/vscode-runs.txt"
  echo "capture: wrote $out/vscode-runs.png and $out/vscode-runs.txt" >&2
  exit 0
fi
{
  echo "docs/images/vscode.png, taken by scripts/capture_vscode.sh"
  echo "code-server $(code_server --version | tail -1) (VS Code OSS in a browser), headless $(chromium --version 2>/dev/null | head -1)"
  echo "$("$root/.venv/bin/cllint" --version), the extension from editors/vscode at $(git rev-parse --short HEAD)"
  echo
  echo "Problems panel:"
  cat "$tmp/problems.txt"
  echo
  echo "Output channel 'cllint' (how the extension started the server):"
  find "$tmp/data/logs" -name '*-cllint.log' -exec grep -h '^\[cllint\]' {} +
} > "$out/vscode.txt"
echo "capture: wrote $out/vscode.png and $out/vscode.txt" >&2
