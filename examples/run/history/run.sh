#!/usr/bin/env bash
# The run history on a device (issue 34): one kernel file saved three times, as run on save would
# see it: the baseline, 100x the loop's work with the same output (CL920), another output (CL921).
# Each version is copied over the same work.cl in a fresh folder, run with `cllint run`, and the
# history that folder's .cllint/runs.jsonl keeps is listed with `cllint runs`.
#
#   examples/run/history/run.sh OUTDIR
#   env: DEVICE (default gpu), GLOBAL (default 1048576, a power of two), CLLINT (default cllint;
#        e.g. "python3 -m cllint")
# Writes OUTDIR/session.txt (every command and its output), runs.jsonl and runs.json.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR}
device=${DEVICE:-gpu}
global=${GLOBAL:-1048576}
read -r -a cllint <<< "${CLLINT:-cllint}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$out/session.txt"
: > "$log"
say() { echo "\$ $*" | tee -a "$log"; }
say "${cllint[@]}" devices
(cd "$work" && "${cllint[@]}" devices 2>&1) | tee -a "$log"
for v in v1_baseline v2_slower v3_changed; do
  cp "$here/$v.cl" "$work/work.cl"
  say "cp $v.cl work.cl && cllint run work.cl -k work --device $device --global $global"
  (cd "$work" && "${cllint[@]}" run work.cl -k work --device "$device" --global "$global" 2>&1) | tee -a "$log"
done
say cllint runs
(cd "$work" && "${cllint[@]}" runs 2>&1) | tee -a "$log"
(cd "$work" && "${cllint[@]}" runs --format json) > "$out/runs.json"
cp "$work/.cllint/runs.jsonl" "$out/runs.jsonl"
