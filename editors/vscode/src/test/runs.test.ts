import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chartSvg, groupRuns, lastChange, noticeText, outputLines, parseRuns, renderRunsHtml, RunEntry } from '../runs';

const launch = { global: [4096], local: null, args: ['a=range:float:4096:hide', 'c=zeros:float:4096:show'] };
const out = [{ name: 'c', dtype: 'float32', count: 4096, min: 2, max: 4097, mean: 2049.5, nan: 0, inf: 0, sample: [2, 3] }];

function entry(time: string, median: number | null, extra: Partial<RunEntry> = {}): RunEntry {
  return {
    time, file: 'kernels/work.cl', kernel: 'work', device: 'cpu (Portable Computing Language)', via: 'save',
    ok: median !== null, launch, iterations: 5, median_ms: median, min_ms: median === null ? null : median * 0.9,
    max_ms: median === null ? null : median * 1.2, outputs: median === null ? [] : out, ...extra,
  };
}

const three = [entry('2026-11-27T09:00:00', 0.42), entry('2026-11-27T09:01:00', 42), entry('2026-11-27T09:02:00', 0.41)];

test('parses runs.jsonl and skips corrupt or hand-edited lines with a warning', () => {
  const text = [JSON.stringify(three[0]), '{"time": "cut', JSON.stringify({ ...three[1], median_ms: 'fast' }), '',
    JSON.stringify(three[2])].join('\n');
  const parsed = parseRuns(text);
  assert.equal(parsed.entries.length, 2);
  assert.deepEqual(parsed.warnings, ['runs.jsonl:2: skipped a line that is not JSON',
    'runs.jsonl:3: skipped an entry with missing or mistyped fields']);
  const failed = parseRuns(JSON.stringify(entry('t', null, { error: 'stopped after 10 s' })));
  assert.equal(failed.entries.length, 1);
  assert.equal(failed.entries[0].median_ms, null);
});

test('groups per kernel, device and launch; a failure joins its kernel; newest group first', () => {
  const other = entry('2026-11-27T08:00:00', 1, { kernel: 'other' });
  const wider = entry('2026-11-27T09:03:00', 2, { launch: { ...launch, global: [8192] } });
  const failed = entry('2026-11-27T09:04:00', null, { launch: null, error: 'crashed' });
  const groups = groupRuns([other, ...three, wider, failed]);
  assert.deepEqual(groups.map((g) => [g.kernel, g.launch, g.runs.length]), [
    ['work', 'global 8192', 2], ['work', 'global 4096', 3], ['other', 'global 4096', 1]]);
});

test('the change of the last run is the lens\'s', () => {
  assert.equal(lastChange(three.slice(0, 1)), '');
  assert.equal(lastChange(three.slice(0, 2)), '100× slower');
  assert.equal(lastChange(three), '102× faster');
  assert.equal(lastChange([entry('a', 0.42), entry('b', 0.47)]), '+12%');
  assert.equal(lastChange([entry('a', 1), entry('b', 0.97)]), '−3%');
  assert.equal(lastChange([entry('a', 1), entry('b', null), entry('c', 1)]), '±0%');
});

test('chart: a min–max bar and a median dot per run, a log scale for a 100× change, a cross for a failure', () => {
  const svg = chartSvg([...three, entry('2026-11-27T09:03:00', null)], 240, 64);
  assert.equal((svg.match(/<line class="range"/g) ?? []).length, 3);
  assert.equal((svg.match(/<circle class="median"/g) ?? []).length, 3);
  assert.equal((svg.match(/class="fail"/g) ?? []).length, 1);
  assert.match(svg, /log scale/);
  const ys = [...svg.matchAll(/<circle class="median" cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1]));
  assert.ok(ys[1] < ys[0] && ys[1] < ys[2], `the slow run is drawn higher: ${ys}`);
  assert.ok(Math.abs(ys[0] - ys[2]) < 2, `equal medians at equal heights: ${ys}`);
  assert.match(svg, /<polyline class="trend" points="6,[\d.]+ [\d.]+,[\d.]+ [\d.]+,[\d.]+"/);
  const flat = chartSvg([entry('a', 1), entry('b', 1.1)]);
  assert.doesNotMatch(flat, /log scale/);
});

test('outputs of the last run, and a failure', () => {
  assert.deepEqual(outputLines(three[2]), ['c: float32[4096] min 2 max 4097 mean 2049.5']);
  assert.deepEqual(outputLines(entry('x', null, { error: 'stopped after 10 s' })), ['failed: stopped after 10 s']);
});

test('the view\'s HTML: the active file first, escaped names, no script', () => {
  const groups = groupRuns([entry('2026-11-27T08:00:00', 1, { kernel: 'a<b>', file: 'other.cl' }), ...three]);
  const html = renderRunsHtml(groups, { cspSource: 'vscode-resource:', activeFile: 'other.cl', warnings: ['runs.jsonl:2: skipped'] });
  assert.ok(html.indexOf('a&lt;b&gt;') < html.indexOf('>work ·'), 'the active file\'s kernel comes first');
  assert.match(html, /work · 0\.410 ms <span class="faster">102× faster<\/span>/);
  assert.match(html, /kernels\/work\.cl · cpu \(Portable Computing Language\) · global 4096 · 3 runs/);
  assert.match(html, /⚠ runs\.jsonl:2: skipped/);
  assert.doesNotMatch(html, /<script/);
  assert.match(renderRunsHtml([]), /No kernel runs yet/);
});

test('decoration text for a run the server recorded', () => {
  assert.equal(noticeText({ uri: 'file:///k.cl', kernel: 'k', title: '', ok: true, median_ms: 0.42, change: '−3%' }), '0.420 ms  −3%');
  assert.equal(noticeText({ uri: '', kernel: 'k', title: '', ok: true, median_ms: 42, change: '100× slower',
    output_changed: "output 'c' changed since the previous run: c[0] is -2, was 2" }),
  "42.00 ms  100× slower  ⚠ output 'c' changed since the previous run: c[0] is -2, was 2");
  assert.equal(noticeText({ uri: '', kernel: 'k', title: '', ok: false, median_ms: null, error: 'stopped after 10 s' }), '✗ stopped after 10 s');
});
