import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  asBuildResult, asRunResult, pickCommand, BuildResult, decorationText, errorOf, findKernelLine, formatBuildResult, formatRunResult, isBuildResult, isRunResult,
  kernelNames, ms, num, RunResult, unwrap,
} from '../results';

const run: RunResult = {
  ok: true,
  kernel: 'saxpy',
  device: { name: 'NVIDIA H200', platform: 'NVIDIA CUDA' },
  global_size: [1024],
  local_size: [64],
  args: ['n=1024', 'x=rand', 'y=ones'],
  build_seconds: 0.4213,
  timing: { iterations: 10, median_ms: 0.0123, min_ms: 0.011, max_ms: 1.5, stdev_ms: 0.4 },
  outputs: [{ name: 'y', dtype: 'float32', count: 1024, first: [1.5, 2, 0.333333333, 4, 5, 6, 7, 8, 9], min: 0, max: 9.25, mean: 4.5, nan: 0, inf: 0 }],
  comparisons: [{ name: 'y', against: 'cpu', max_abs_error: 1e-7, max_rel_error: 2e-7, mismatched: 0, ok: true }],
};

test('run result text', () => {
  assert.equal(formatRunResult(run), [
    '✓ saxpy on NVIDIA H200 (NVIDIA CUDA)',
    '  global 1024  local 64',
    '  args n=1024 x=rand y=ones',
    '  time median 12.3 µs (min 11.0 µs, max 1.50 ms, 10 runs)',
    '  build 0.42 s',
    '  y: float32[1024] = [1.5, 2, 0.333333, 4, 5, 6, 7, 8, …]  min 0 max 9.25 mean 4.5',
    '  = y vs cpu: max abs 1e-7, max rel 2e-7',
  ].join('\n'));
});

test('failed run shows diagnostics and the log', () => {
  const bad: RunResult = { ...run, ok: false, timing: null, outputs: [], comparisons: [], local_size: null, args: [],
    build_seconds: undefined, diagnostics: [{ code: 'CL911', severity: 'error', message: "out-of-bounds write to 'y'" }],
    log: 'Invalid write of size 4\n' };
  assert.equal(formatRunResult(bad), [
    '✗ saxpy on NVIDIA H200 (NVIDIA CUDA)',
    '  global 1024  local auto',
    "  CL911 error out-of-bounds write to 'y'",
    '  log:',
    '    Invalid write of size 4',
  ].join('\n'));
  assert.equal(decorationText(bad), "✗ NVIDIA H200: CL911 out-of-bounds write to 'y'");
});

test('decoration text', () => {
  assert.equal(decorationText(run), '✓ 12.3 µs on NVIDIA H200  y=[1.5, 2, 0.333333, 4, …]');
  const nan = { ...run, timing: null, outputs: [{ ...run.outputs[0], count: 2, first: [NaN, 1], nan: 1, inf: 0 }] };
  assert.equal(decorationText(nan), '✓ on NVIDIA H200  y=[NaN, 1]  ⚠ 1 NaN/Inf');
});

test('build result text', () => {
  const b: BuildResult = { ok: false, seconds: 0.1, device: { name: 'pocl' }, options: '-cl-std=CL1.2', kernels: [],
    diagnostics: [{ code: 'CL901', message: "use of undeclared identifier 'q'" }], log: '' };
  assert.ok(isBuildResult(b) && !isRunResult(b));
  assert.equal(formatBuildResult(b), "✗ build failed on pocl in 0.10 s (-cl-std=CL1.2)\n  CL901 use of undeclared identifier 'q'");
});

test('unwrap and errors', () => {
  assert.deepEqual(unwrap(JSON.stringify({ result: run })), run);
  assert.ok(isRunResult(unwrap({ result: run })));
  assert.equal(errorOf({ error: "no device matches 'tesla'", hint: 'run cllint devices' }),
    "no device matches 'tesla'\n  = help: run cllint devices");
  assert.equal(errorOf(run), undefined);
});

test('numbers', () => {
  assert.equal(num(null), '-');
  assert.equal(num(3), '3');
  assert.equal(num(1 / 3), '0.333333');
  assert.equal(num(Infinity), 'Infinity');
  assert.equal(ms(250.4), '250 ms');
  assert.equal(ms(0.5), '500.0 µs');
});

const src = `// kernel void commented(int x) {}
#define N 4
__kernel void saxpy(__global float *y,
                    float a) {
}

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void
reduce(__global const float *x) {}
void helper(void) {}
`;

test('kernel lines and names', () => {
  assert.equal(findKernelLine(src, 'saxpy'), 2);
  assert.equal(findKernelLine(src, 'reduce'), 8);
  assert.equal(findKernelLine(src, 'helper'), -1);
  assert.deepEqual(kernelNames(src), ['saxpy', 'reduce']);
});

test('terse server results (no device, string diagnostics) still format', () => {
  const raw = { ok: false, kernel: 'k', timing: null, log: '', diagnostics: ['out of resources'] } as unknown as RunResult;
  assert.ok(isRunResult(raw));
  assert.equal(formatRunResult(asRunResult(raw)), '✗ k on the selected device\n  out of resources');
  const b = { ok: true, log: '', seconds: 0.5, kernels: ['k'], diagnostics: [] } as unknown as BuildResult;
  assert.ok(isBuildResult(b));
  assert.equal(formatBuildResult(asBuildResult(b)), '✓ built on the selected device in 0.50 s\n  kernels k');
});

test('command names follow what the server advertises', () => {
  assert.equal(pickCommand('cllint.buildOnDevice', ['cllint.runKernel', 'cllint.build']), 'cllint.build');
  assert.equal(pickCommand('cllint.buildOnDevice', ['cllint.buildOnDevice', 'cllint.build']), 'cllint.buildOnDevice');
  assert.equal(pickCommand('cllint.buildOnDevice', undefined), 'cllint.buildOnDevice');
});
