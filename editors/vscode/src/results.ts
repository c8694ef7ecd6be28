/**
 * Run and build results (the JSON the server's `cllint.runKernel` / `cllint.buildOnDevice`
 * return) as output-channel text and as a one-line inline decoration.
 *
 * Pure: no `vscode` import.
 */

export interface DeviceRef { name: string; platform?: string }

export interface Timing {
  iterations: number;
  median_ms: number;
  min_ms: number;
  max_ms: number;
  stdev_ms?: number;
}

export interface BufferSummary {
  name: string;
  dtype: string;
  count: number;
  first: number[];
  min: number | null;
  max: number | null;
  mean: number | null;
  nan: number;
  inf: number;
  saved?: string | null;
}

export interface Comparison {
  name: string;
  against: string;
  max_abs_error: number;
  max_rel_error: number;
  mismatched: number;
  ok: boolean;
}

export interface ResultDiagnostic {
  code: string;
  severity?: string;
  message: string;
}

export interface RunResult {
  ok: boolean;
  kernel: string;
  device: DeviceRef;
  global_size: number[];
  local_size: number[] | null;
  args?: string[];
  build_seconds?: number;
  timing: Timing | null;
  outputs: BufferSummary[];
  diagnostics?: ResultDiagnostic[];
  comparisons?: Comparison[];
  log?: string;
}

export interface BuildResult {
  ok: boolean;
  diagnostics: ResultDiagnostic[];
  log: string;
  seconds: number;
  device: DeviceRef;
  options?: string;
  kernels?: string[];
}

/** The server returns the result directly or wrapped as `{result: ...}`; errors as `{error, hint}`. */
export function unwrap(value: unknown): unknown {
  if (typeof value === 'string') {
    try { return unwrap(JSON.parse(value)); } catch { return value; }
  }
  if (value && typeof value === 'object' && 'result' in value && Object.keys(value).length <= 2) {
    return (value as { result: unknown }).result;
  }
  return value;
}

/** Fills what a terser server leaves out (device, sizes, outputs; diagnostics as plain strings). */
function normalise<T extends { device?: DeviceRef; diagnostics?: ResultDiagnostic[] }>(v: T): T {
  const device = v.device && typeof v.device === 'object' ? v.device : { name: typeof v.device === 'string' ? v.device : 'the selected device' };
  const diagnostics = (v.diagnostics ?? []).map((d: ResultDiagnostic | string) =>
    (typeof d === 'string' ? { code: '', message: d } : d));
  return { ...v, device, diagnostics };
}

export function isRunResult(v: unknown): v is RunResult {
  return !!v && typeof v === 'object' && typeof (v as RunResult).kernel === 'string';
}

/** A run result with every field present. */
export function asRunResult(v: RunResult): RunResult {
  const r = normalise(v);
  return { ...r, global_size: r.global_size ?? [], local_size: r.local_size ?? null, timing: r.timing ?? null, outputs: r.outputs ?? [] };
}

export function asBuildResult(v: BuildResult): BuildResult {
  const r = normalise(v);
  return { ...r, log: r.log ?? '', seconds: r.seconds ?? 0 };
}

/** The server command to send: the contract's name, else an alias the server advertises. */
export function pickCommand(wanted: string, available: string[] | undefined, aliases: Record<string, string[]> = COMMAND_ALIASES): string {
  if (!available || available.includes(wanted)) return wanted;
  return (aliases[wanted] ?? []).find((a) => available.includes(a)) ?? wanted;
}

export const COMMAND_ALIASES: Record<string, string[]> = { 'cllint.buildOnDevice': ['cllint.build'] };

export function isBuildResult(v: unknown): v is BuildResult {
  return !!v && typeof v === 'object' && typeof (v as BuildResult).ok === 'boolean' && !('kernel' in v);
}

export function errorOf(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const e = v as { error?: unknown; message?: unknown; hint?: unknown };
  if (typeof e.error !== 'string') return undefined;
  return typeof e.hint === 'string' && e.hint ? `${e.error}\n  = help: ${e.hint}` : e.error;
}

/** Numbers the way a person reads them: ints as ints, floats to 6 significant digits. */
export function num(x: number | null | undefined): string {
  if (x === null || x === undefined) return '-';
  if (Number.isInteger(x)) return String(x);
  if (!Number.isFinite(x)) return String(x);
  return Number(x.toPrecision(6)).toString();
}

export function ms(x: number): string {
  if (x >= 100) return `${x.toFixed(0)} ms`;
  if (x >= 1) return `${x.toFixed(2)} ms`;
  return `${(x * 1000).toFixed(1)} µs`;
}

function sizes(s: number[] | null): string {
  return s === null ? 'auto' : s.join('×');
}

function diagLines(diags: ResultDiagnostic[] | undefined): string[] {
  return (diags ?? []).map((d) => `  ${d.code} ${d.severity ?? ''} ${d.message}`.replace(/ {2,}/g, ' ').replace(/^ /, '  ').replace(/^ +/, '  '));
}

/** Multi-line text for the "cllint: Run" output channel. */
export function formatRunResult(r: RunResult): string {
  const lines: string[] = [];
  lines.push(`${r.ok ? '✓' : '✗'} ${r.kernel} on ${r.device.name}${r.device.platform ? ` (${r.device.platform})` : ''}`);
  if (r.global_size.length > 0) lines.push(`  global ${sizes(r.global_size)}  local ${sizes(r.local_size)}`);
  if (r.args && r.args.length > 0) lines.push(`  args ${r.args.join(' ')}`);
  if (r.timing) {
    const t = r.timing;
    lines.push(`  time median ${ms(t.median_ms)} (min ${ms(t.min_ms)}, max ${ms(t.max_ms)}, ${t.iterations} runs)`);
  }
  if (r.build_seconds !== undefined) lines.push(`  build ${r.build_seconds.toFixed(2)} s`);
  for (const b of r.outputs) {
    const first = b.first.slice(0, 8).map(num).join(', ');
    const more = b.count > b.first.length ? ', …' : '';
    lines.push(`  ${b.name}: ${b.dtype}[${b.count}] = [${first}${more}]  min ${num(b.min)} max ${num(b.max)} mean ${num(b.mean)}`
      + (b.nan ? `  NaN×${b.nan}` : '') + (b.inf ? `  Inf×${b.inf}` : '') + (b.saved ? `  saved ${b.saved}` : ''));
  }
  for (const c of r.comparisons ?? []) {
    lines.push(`  ${c.ok ? '=' : '≠'} ${c.name} vs ${c.against}: max abs ${num(c.max_abs_error)}, max rel ${num(c.max_rel_error)}`
      + (c.mismatched ? `, ${c.mismatched} mismatched` : ''));
  }
  lines.push(...diagLines(r.diagnostics));
  if (r.log && r.log.trim() !== '') lines.push('  log:', ...r.log.trimEnd().split('\n').map((l) => `    ${l}`));
  return lines.join('\n');
}

export function formatBuildResult(r: BuildResult): string {
  const lines = [`${r.ok ? '✓ built' : '✗ build failed'} on ${r.device.name} in ${r.seconds.toFixed(2)} s`
    + (r.options ? ` (${r.options})` : '')];
  if (r.kernels && r.kernels.length > 0) lines.push(`  kernels ${r.kernels.join(', ')}`);
  lines.push(...diagLines(r.diagnostics));
  if (r.log.trim() !== '') lines.push('  log:', ...r.log.trimEnd().split('\n').map((l) => `    ${l}`));
  return lines.join('\n');
}

/** The short text shown after the kernel's signature line. */
export function decorationText(r: RunResult): string {
  if (!r.ok) {
    const first = (r.diagnostics ?? [])[0];
    return `✗ ${r.device.name}${first ? `: ${first.code} ${first.message}` : ': failed'}`;
  }
  const time = r.timing ? ` ${ms(r.timing.median_ms)}` : '';
  const out = r.outputs[0];
  const summary = out ? `  ${out.name}=[${out.first.slice(0, 4).map(num).join(', ')}${out.count > 4 ? ', …' : ''}]` : '';
  const bad = r.outputs.reduce((n, b) => n + b.nan + b.inf, 0);
  return `✓${time} on ${r.device.name}${summary}${bad ? `  ⚠ ${bad} NaN/Inf` : ''}`;
}

/**
 * The 0-based line of a kernel's name in its definition (`__kernel void NAME(` possibly over
 * several lines, `kernel`, attributes in between), or -1.
 */
export function findKernelLine(text: string, kernel: string): number {
  const name = kernel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`\\b(?:__kernel|kernel)\\b[^;{}]*?\\b${name}\\s*\\(`, 'g');
  const m = re.exec(text);
  if (!m) return -1;
  const at = m.index + m[0].lastIndexOf(kernel);
  return text.slice(0, at).split('\n').length - 1;
}

/** Kernel names defined in a source (for the run-kernel quick pick when the server gives none). */
export function kernelNames(text: string): string[] {
  const noComments = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/[^\n]*/g, '');
  const re = /\b(?:__kernel|kernel)\b[^;{}()]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
  const names: string[] = [];
  for (let m = re.exec(noComments); m; m = re.exec(noComments)) if (!names.includes(m[1])) names.push(m[1]);
  return names;
}
