import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseFeatures, substitute, toServerSettings } from '../settings';

const reader = (values: Record<string, unknown>) => (key: string) => values[key];

test('unset values are left out so that .cllint.toml applies', () => {
  assert.deepEqual(toServerSettings(reader({
    std: '', target: '  ', features: '', includePaths: [], defines: [], select: [], ignore: [], device: '',
  })), {});
});

test('every server key is forwarded', () => {
  assert.deepEqual(toServerSettings(reader({
    std: 'CL3.0', target: 'device:1', features: '+__opencl_c_fp64, -__opencl_c_images',
    includePaths: ['${workspaceFolder}/include', '~/cl'], defines: ['N=16', 'USE_LOCAL'],
    select: ['CL2', 'CL101'], ignore: ['CL5'], device: 'gpu', buildOnSave: true, runOnSave: false,
    analysisBudget: 0.5, compilerCheck: 'off', python: '/usr/bin/python3', projectModel: false,
  }), { workspaceFolder: '/ws', home: '/home/u' }), {
    std: 'CL3.0', target: 'device:1', features: '+__opencl_c_fp64,-__opencl_c_images',
    includePaths: ['/ws/include', '/home/u/cl'], defines: ['N=16', 'USE_LOCAL'],
    select: ['CL2', 'CL101'], ignore: ['CL5'], device: 'gpu', buildOnSave: true, runOnSave: false,
    analysisBudget: 0.5, compilerCheck: 'off', projectModel: false,
  });
});

test('features given as a list become the server string', () => {
  assert.equal(normaliseFeatures(['+__opencl_c_fp64', ' -__opencl_c_images ', '']), '+__opencl_c_fp64,-__opencl_c_images');
  assert.equal(normaliseFeatures(',,'), undefined);
  assert.equal(normaliseFeatures(42), undefined);
});

test('wrong types are ignored rather than sent', () => {
  assert.deepEqual(toServerSettings(reader({ std: 3, includePaths: 'inc', buildOnSave: 'yes', select: ['CL2', 7],
    analysisBudget: -1 })), { select: ['CL2'] });
  assert.deepEqual(toServerSettings(reader({ analysisBudget: '2' })), {});
});

test('substitution', () => {
  const subs = { workspaceFolder: '/ws', home: '/h', env: { CL_ROOT: '/opt/cl' } };
  assert.equal(substitute('${workspaceFolder}/inc', subs), '/ws/inc');
  assert.equal(substitute('${env:CL_ROOT}/include', subs), '/opt/cl/include');
  assert.equal(substitute('${env:MISSING}x', subs), 'x');
  assert.equal(substitute('~/x', subs), '/h/x');
  assert.equal(substitute('a~/x', subs), 'a~/x');
  assert.equal(substitute('${workspaceFolder}', {}), '${workspaceFolder}');
});
