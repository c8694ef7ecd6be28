/**
 * The "Kernel runs" view: the history the server and `cllint run` keep in `.cllint/runs.jsonl`
 * (format: docs/run-on-device.md, "Run history"), per kernel a small chart of the median time
 * with its min–max range over the runs, and the last run's outputs.
 *
 * Pure: no `vscode` import. extension.ts reads the files and hosts the HTML in a webview.
 */

export interface RunOutput {
  name: string;
  dtype: string;
  count: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  nan: number;
  inf: number;
  sample?: (number | string)[];
}

export interface RunEntry {
  time: string;
  file: string;
  kernel: string;
  device: string;
  via?: string;
  ok: boolean;
  error?: string | null;
  launch?: { global: number[]; local: number[] | null; args: string[] } | null;
  iterations?: number;
  median_ms: number | null;
  min_ms: number | null;
  max_ms: number | null;
  outputs: RunOutput[];
}

export interface KernelRuns {
  /** `.cllint/runs.jsonl` the runs come from, for telling workspaces apart. */
  source: string;
  file: string;
  kernel: string;
  device: string;
  launch: string;
  runs: RunEntry[];
}

export interface Parsed { entries: RunEntry[]; warnings: string[] }

function isEntry(v: unknown): v is RunEntry {
  if (!v || typeof v !== 'object') return false;
  const e = v as Record<string, unknown>;
  if (typeof e.time !== 'string' || typeof e.file !== 'string' || typeof e.kernel !== 'string'
    || typeof e.device !== 'string' || typeof e.ok !== 'boolean') return false;
  if (e.ok && !['median_ms', 'min_ms', 'max_ms'].every((k) => typeof e[k] === 'number')) return false;
  return e.outputs === undefined || Array.isArray(e.outputs);
}

/** The entries of a runs.jsonl; a line that is not one is skipped and named in `warnings`. */
export function parseRuns(text: string, label = 'runs.jsonl'): Parsed {
  const entries: RunEntry[] = [];
  const warnings: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      warnings.push(`${label}:${i + 1}: skipped a line that is not JSON`);
      return;
    }
    if (!isEntry(v)) {
      warnings.push(`${label}:${i + 1}: skipped an entry with missing or mistyped fields`);
      return;
    }
    entries.push({ ...v, outputs: v.outputs ?? [], median_ms: v.median_ms ?? null, min_ms: v.min_ms ?? null, max_ms: v.max_ms ?? null });
  });
  return { entries, warnings };
}

function launchText(e: RunEntry): string {
  if (!e.launch) return '';
  const g = e.launch.global.join('×');
  return `global ${g}${e.launch.local ? `, local ${e.launch.local.join('×')}` : ''}`;
}

/** Runs grouped per file, kernel and device (a failure joins its kernel's latest group), oldest first. */
export function groupRuns(entries: RunEntry[], source = ''): KernelRuns[] {
  const groups = new Map<string, KernelRuns>();
  const latest = new Map<string, string>();
  for (const e of entries) {
    const base = JSON.stringify([e.file, e.kernel, e.device]);
    const key = e.launch ? JSON.stringify([base, e.launch]) : (latest.get(base) ?? base);
    if (e.launch) latest.set(base, key);
    let g = groups.get(key);
    if (!g) {
      g = { source, file: e.file, kernel: e.kernel, device: e.device, launch: launchText(e), runs: [] };
      groups.set(key, g);
    }
    if (!g.launch && e.launch) g.launch = launchText(e);
    g.runs.push(e);
  }
  return [...groups.values()].sort((a, b) => lastTime(b).localeCompare(lastTime(a)));
}

function lastTime(g: KernelRuns): string {
  return g.runs[g.runs.length - 1]?.time ?? '';
}

export function ms(x: number): string {
  if (x >= 100) return `${x.toFixed(0)} ms`;
  if (x >= 1) return `${x.toFixed(2)} ms`;
  if (x >= 0.01) return `${x.toFixed(3)} ms`;
  return `${(x * 1000).toFixed(2)} µs`;
}

/** The change of the last median against the one before it, as the lens says it: '+12%', '−3%', '11× slower'. */
export function lastChange(runs: RunEntry[]): string {
  const timed = runs.filter((r) => r.ok && r.median_ms !== null);
  if (timed.length < 2) return '';
  const prev = timed[timed.length - 2].median_ms as number;
  const cur = timed[timed.length - 1].median_ms as number;
  if (prev <= 0) return '';
  const r = cur / prev;
  if (r >= 2) return `${Number(r.toPrecision(3))}× slower`;
  if (r <= 0.5) return `${Number((1 / r).toPrecision(3))}× faster`;
  const pct = Math.round((r - 1) * 100);
  return pct === 0 ? '±0%' : pct > 0 ? `+${pct}%` : `−${-pct}%`;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c] as string));
}

/**
 * A small SVG: per run a vertical min–max bar and a dot at the median, joined by a line;
 * a failed run is a red cross on the baseline. The time axis is logarithmic when the runs
 * span more than a factor of 10 (a 100× slower save must not flatten the others).
 */
export function chartSvg(runs: RunEntry[], width = 240, height = 64): string {
  const pad = 6;
  const timed = runs.filter((r) => r.ok && r.median_ms !== null && r.min_ms !== null && r.max_ms !== null);
  const values = timed.flatMap((r) => [r.min_ms as number, r.max_ms as number]).filter((v) => v > 0);
  const lo = values.length ? Math.min(...values) : 1;
  const hi = values.length ? Math.max(...values) : 1;
  const log = hi / lo > 10;
  const f = (v: number) => (log ? Math.log10(Math.max(v, lo)) : v);
  const span = f(hi) - f(lo) || 1;
  const y = (v: number) => +(height - pad - ((f(v) - f(lo)) / span) * (height - 2 * pad)).toFixed(1);
  const n = runs.length;
  const x = (i: number) => +(n <= 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (n - 1)).toFixed(1);
  const parts: string[] = [];
  const line: string[] = [];
  runs.forEach((r, i) => {
    const cx = x(i);
    if (!(r.ok && r.median_ms !== null && r.min_ms !== null && r.max_ms !== null)) {
      const b = height - pad;
      parts.push(`<path class="fail" d="M${cx - 3} ${b - 3}L${cx + 3} ${b + 3}M${cx - 3} ${b + 3}L${cx + 3} ${b - 3}"><title>${esc(r.time)}: failed</title></path>`);
      return;
    }
    parts.push(`<line class="range" x1="${cx}" x2="${cx}" y1="${y(r.min_ms)}" y2="${y(r.max_ms)}"/>`);
    parts.push(`<circle class="median" cx="${cx}" cy="${y(r.median_ms)}" r="2.5"><title>${esc(r.time)}: median ${ms(r.median_ms)} (min ${ms(r.min_ms)}, max ${ms(r.max_ms)})</title></circle>`);
    line.push(`${cx},${y(r.median_ms)}`);
  });
  const path = line.length > 1 ? `<polyline class="trend" points="${line.join(' ')}"/>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="median time per run${log ? ' (log scale)' : ''}">${path}${parts.join('')}</svg>`;
}

function num(x: number | null | undefined): string {
  if (x === null || x === undefined) return '-';
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}

/** The last run's outputs, one line each: name, type and count, min / max / mean, NaN and Inf. */
export function outputLines(e: RunEntry): string[] {
  if (!e.ok) return [`failed: ${e.error ?? 'no time recorded'}`];
  return e.outputs.map((o) => `${o.name}: ${o.dtype}[${o.count}] min ${num(o.min)} max ${num(o.max)} mean ${num(o.mean)}`
    + (o.nan ? `  NaN×${o.nan}` : '') + (o.inf ? `  Inf×${o.inf}` : ''));
}

/** The whole view's HTML; `cspSource` and `nonce` come from the webview (no scripts are used). */
export function renderRunsHtml(groups: KernelRuns[], opts: { cspSource?: string; activeFile?: string; warnings?: string[] } = {}): string {
  const csp = `default-src 'none'; style-src ${opts.cspSource ?? "'unsafe-inline'"} 'unsafe-inline';`;
  const head = `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">`
    + '<style>body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);padding:0 8px}'
    + 'section{margin:10px 0;border-bottom:1px solid var(--vscode-panel-border,#8884);padding-bottom:8px}'
    + 'h3{font-size:1em;margin:4px 0}.meta,.out{color:var(--vscode-descriptionForeground);margin:2px 0;font-family:var(--vscode-editor-font-family);font-size:0.9em}'
    + '.trend{fill:none;stroke:var(--vscode-charts-blue,#3794ff);stroke-width:1.5}.range{stroke:var(--vscode-charts-blue,#3794ff);stroke-opacity:.45;stroke-width:4;stroke-linecap:round}'
    + '.median{fill:var(--vscode-charts-blue,#3794ff)}.fail{stroke:var(--vscode-charts-red,#f14c4c);stroke-width:1.5}.active h3{color:var(--vscode-textLink-foreground)}'
    + '.slower{color:var(--vscode-charts-orange,#d18616)}.faster{color:var(--vscode-charts-green,#89d185)}</style></head><body>';
  if (groups.length === 0) {
    return `${head}<p>No kernel runs yet. Run one with the ▶ Run lens, turn on <code>cllint.runOnSave</code>, or run <code>cllint run FILE -k KERNEL</code>: runs are kept in <code>.cllint/runs.jsonl</code>.</p></body></html>`;
  }
  const ordered = opts.activeFile ? [...groups.filter((g) => g.file === opts.activeFile), ...groups.filter((g) => g.file !== opts.activeFile)] : groups;
  const body = ordered.map((g) => {
    const last = g.runs[g.runs.length - 1];
    const change = lastChange(g.runs);
    const cls = change.startsWith('+') || change.endsWith('slower') ? 'slower' : change ? 'faster' : '';
    const time = last.ok && last.median_ms !== null ? `${ms(last.median_ms)}${change ? ` <span class="${cls}">${esc(change)}</span>` : ''}` : '✗ failed';
    return `<section class="${g.file === opts.activeFile ? 'active' : ''}"><h3>${esc(g.kernel)} · ${time}</h3>`
      + `<p class="meta">${esc(g.file)} · ${esc(g.device)}${g.launch ? ` · ${esc(g.launch)}` : ''} · ${g.runs.length} run${g.runs.length === 1 ? '' : 's'}</p>`
      + chartSvg(g.runs)
      + outputLines(last).map((l) => `<p class="out">${esc(l)}</p>`).join('')
      + '</section>';
  }).join('');
  const warn = (opts.warnings ?? []).map((w) => `<p class="meta">⚠ ${esc(w)}</p>`).join('');
  return `${head}${body}${warn}</body></html>`;
}

/** The one-line decoration for a `cllint/runRecorded` notice (a run on save or from the lens). */
export interface RunNotice {
  uri: string; kernel: string; title: string; ok: boolean; median_ms: number | null; error?: string | null;
  change?: string | null; slower?: boolean; output_changed?: string | null;
}

export function noticeText(n: RunNotice): string {
  if (!n.ok) return `✗ ${n.error ?? 'failed'}`;
  const parts = [n.median_ms !== null ? ms(n.median_ms) : ''];
  if (n.change) parts.push(n.change);
  if (n.output_changed) parts.push(`⚠ ${n.output_changed}`);
  return parts.filter((p) => p).join('  ');
}
