#!/usr/bin/env bash
# Takes the editor captures in docs/images/ (see docs/editors.md): each editor, configured with
# the snippets marked `<!-- capture: NAME -->` in docs/editors.md, opens examples/reduce.cl in a
# 100x30 tmux pane; once cllint's CL201 message is on screen the pane is saved as plain text
# (<editor>.txt) and rendered with its colours to <editor>.png.
#
#   scripts/capture_editors.sh                  # nvim helix emacs vscode
#   scripts/capture_editors.sh helix emacs
#
# System packages it installs with apt-get when missing: tmux, neovim, emacs-nox, elpa-eglot.
# Everything else goes into a cache folder (CLLINT_CAPTURE_CACHE, default
# ~/.cache/cllint/capture): Helix (Debian trixie's `hx`, with trixie's libc, fetched through a
# private apt state and started through trixie's loader, as scripts/tree-sitter does), a virtual
# environment with Pillow for the PNGs, and a copy of editors/vscode for `npm ci && vsce ls`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=docs/images
cache="${CLLINT_CAPTURE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cllint/capture}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out" "$cache"
export PATH="$root/.venv/bin:$PATH" TERM=xterm-256color
command -v cllint >/dev/null || { echo "capture: cllint not on PATH (run scripts/setup)" >&2; exit 1; }

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

# snippet NAME: the fenced block after `<!-- capture: NAME -->` in docs/editors.md
snippet() {
  awk -v want="<!-- capture: $1 -->" '
    $0 == want { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' docs/editors.md
}

render() {  # render ANSI_FILE PNG
  if [ ! -x "$cache/render/bin/python" ]; then
    python3 -m venv "$cache/render" && "$cache/render/bin/pip" install -q pillow >&2
  fi
  "$cache/render/bin/python" - "$1" "$2" <<'PY'
import re, sys
from PIL import Image, ImageDraw, ImageFont
src, dst = sys.argv[1], sys.argv[2]
cols, rows = 100, 30
base = [(0,0,0),(205,49,49),(13,188,121),(229,229,16),(36,114,200),(188,63,188),(17,168,205),(229,229,229),
        (102,102,102),(241,76,76),(35,209,139),(245,245,67),(59,142,234),(214,112,214),(41,184,219),(255,255,255)]
def c256(n):
    if n < 16: return base[n]
    if n < 232:
        n -= 16; v = [0, 95, 135, 175, 215, 255]
        return (v[n // 36], v[n // 6 % 6], v[n % 6])
    g = 8 + (n - 232) * 10; return (g, g, g)
FG, BG = (229, 229, 229), (24, 24, 24)
font_dir = "/usr/share/fonts/truetype/dejavu/"
fonts = {(b, i): ImageFont.truetype(font_dir + "DejaVuSansMono" + {(0,0): "", (1,0): "-Bold", (0,1): "-Oblique", (1,1): "-BoldOblique"}[(b, i)] + ".ttf", 15)
         for b in (0, 1) for i in (0, 1)}
cw, ch = 9, 19
img = Image.new("RGB", (cols * cw + 16, rows * ch + 16), BG)
d = ImageDraw.Draw(img)
for y, line in enumerate(open(src, encoding="utf-8").read().split("\n")[:rows]):
    st = dict(fg=None, bg=None, bold=0, ital=0, ul=0, rev=0); x = 0
    for tok in re.split(r"(\x1b\[[0-9;:]*m)", line):
        m = re.fullmatch(r"\x1b\[([0-9;:]*)m", tok)
        if m:
            ps = [int(p) if p else 0 for p in re.split("[;:]", m.group(1))] or [0]
            i = 0
            while i < len(ps):
                p = ps[i]
                if p == 0: st = dict(fg=None, bg=None, bold=0, ital=0, ul=0, rev=0)
                elif p == 1: st["bold"] = 1
                elif p == 3: st["ital"] = 1
                elif p in (4, 21): st["ul"] = 1
                elif p == 7: st["rev"] = 1
                elif p == 22: st["bold"] = 0
                elif p == 23: st["ital"] = 0
                elif p == 24: st["ul"] = 0
                elif p == 27: st["rev"] = 0
                elif 30 <= p <= 37: st["fg"] = base[p - 30]
                elif 90 <= p <= 97: st["fg"] = base[p - 82]
                elif 40 <= p <= 47: st["bg"] = base[p - 40]
                elif 100 <= p <= 107: st["bg"] = base[p - 92]
                elif p == 39: st["fg"] = None
                elif p == 49: st["bg"] = None
                elif p in (38, 48) and i + 1 < len(ps):
                    key = "fg" if p == 38 else "bg"
                    if ps[i + 1] == 5: st[key] = c256(ps[i + 2]); i += 2
                    elif ps[i + 1] == 2: st[key] = tuple(ps[i + 2:i + 5]); i += 4
                i += 1
            continue
        for chr_ in tok:
            fg, bg = st["fg"] or FG, st["bg"] or BG
            if st["rev"]: fg, bg = bg, fg
            px, py = 8 + x * cw, 8 + y * ch
            d.rectangle([px, py, px + cw - 1, py + ch - 1], fill=bg)
            d.text((px, py + 1), chr_, font=fonts[(st["bold"], st["ital"])], fill=fg)
            if st["ul"]: d.line([px, py + ch - 2, px + cw - 1, py + ch - 2], fill=fg)
            x += 1
img.save(dst)
PY
}

# capture NAME PATTERN COMMAND [KEYS...]: run COMMAND in tmux, wait for PATTERN, send KEYS
# (each waits for the screen to settle), then save the pane.
capture() {
  local name=$1 pattern=$2 cmd=$3; shift 3
  local s="cllint-capture-$name-$$"
  tmux -L cllint-capture new-session -d -s "$s" -x 100 -y 30 -c "$root" "$cmd"
  local ok=""
  for _ in $(seq 1 60); do
    sleep 1
    if tmux -L cllint-capture capture-pane -p -t "$s" | grep -q -- "$pattern"; then ok=1; break; fi
  done
  [ -n "$ok" ] || { tmux -L cllint-capture capture-pane -p -t "$s" >&2; tmux -L cllint-capture kill-session -t "$s"; echo "capture: $name: no '$pattern' on screen" >&2; return 1; }
  for keys in "$@"; do
    eval "tmux -L cllint-capture send-keys -t \"\$s\" $keys"; sleep 1.5
  done
  tmux -L cllint-capture capture-pane -p -t "$s" | sed 's/[[:space:]]*$//' > "$out/$name.txt"
  tmux -L cllint-capture capture-pane -p -e -t "$s" > "$tmp/$name.ansi"
  tmux -L cllint-capture kill-session -t "$s"
  render "$tmp/$name.ansi" "$out/$name.png"
  echo "capture: wrote $out/$name.txt $out/$name.png" >&2
}

msg="may not be reached by every"

do_nvim() {
  need_deb neovim
  # the documented command, with the cursor put on the first barrier and the float opened
  local cmd; cmd=$(snippet nvim/command)
  cmd="nvim +11 '+normal! 5|' ${cmd#nvim }"
  capture nvim "$msg" "$cmd" "':lua vim.diagnostic.open_float()' Enter" "C-l"
}

helix_root="$cache/helix/root"
hx() {
  local lib="$helix_root/usr/lib/x86_64-linux-gnu"  # trixie is merged-/usr
  HELIX_RUNTIME="$helix_root/usr/lib/hx/runtime" "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$helix_root/usr/lib/hx/hx" "$@"
}
do_helix() {
  if [ ! -x "$helix_root/usr/lib/hx/hx" ]; then
    local apt_dir="$cache/helix/apt"
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$helix_root"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
      > "$apt_dir/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
                -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
                -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" -qq update >&2
    (cd "$apt_dir" && apt-get "${opts[@]}" -qq download hx libc6 libgcc-s1 >&2)
    for deb in "$apt_dir"/*.deb; do dpkg-deb -x "$deb" "$helix_root"; done
  fi
  local cfg="$tmp/helix-config"
  mkdir -p "$cfg/helix"
  snippet helix/languages.toml | sed "s|/path/to/cllint/grammar|$root/grammar|" > "$cfg/helix/languages.toml"
  snippet helix/config.toml > "$cfg/helix/config.toml"
  # the documented grammar step, with ~/.config pointing at the temporary folder
  (export HOME="$tmp/helix-home" XDG_CONFIG_HOME="$cfg"; mkdir -p "$HOME"; ln -sfn "$cfg" "$HOME/.config"
   export -f hx; export helix_root; snippet helix/grammar | bash -euo pipefail >&2)
  hx --version >&2
  capture helix "$msg" "env XDG_CONFIG_HOME='$cfg' HELIX_RUNTIME='$helix_root/usr/lib/hx/runtime' \
'$helix_root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2' --library-path '$helix_root/usr/lib/x86_64-linux-gnu' \
'$helix_root/usr/lib/hx/hx' examples/reduce.cl:11:5"
}

do_emacs() {
  need_deb emacs-nox elpa-eglot
  snippet emacs/init.el > "$tmp/init.el"
  # -q: no ~/.emacs.d, but Debian's site files (which put elpa-eglot on the load-path) load
  capture emacs "Flymake\[0 2\]" "emacs -nw -q --no-splash --eval \"(setq native-comp-async-report-warnings-errors 'silent)\" -l '$tmp/init.el' examples/reduce.cl" \
    "'M-<'" "M-x" "flymake-goto-next-error Enter"
}

do_vscode() {
  # a copy of the tracked files, so that npm ci leaves the checkout's node_modules alone
  local copy="$tmp/vscode"
  mkdir -p "$copy"
  git ls-files -z editors/vscode | xargs -0 -I{} cp --parents {} "$copy/"
  (cd "$copy/editors/vscode" && npm ci --no-audit --no-fund >&2 && npx vsce ls) > "$tmp/vsce.txt"
  { echo "\$ cd editors/vscode && npm ci && npx vsce ls"; cat "$tmp/vsce.txt"; } > "$out/vscode-package.txt"
  echo "capture: wrote $out/vscode-package.txt" >&2
}

need_deb tmux
for editor in "${@:-nvim helix emacs vscode}"; do
  for e in $editor; do "do_$e"; done
done
