import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device, devicePicks, deviceStatus, formatDeviceTable, matchDevice, parseDevices } from '../devices';

const devices: Device[] = [
  { index: 0, platform: 'Portable Computing Language', name: 'cpu-haswell-AMD EPYC 7B13', type: 'cpu', version: 'OpenCL 3.0 PoCL', opencl_c_version: 'OpenCL C 1.2' },
  { index: 1, platform: 'NVIDIA CUDA', name: 'NVIDIA H200', type: 'gpu', version: 'OpenCL 3.0 CUDA', opencl_c_version: 'OpenCL C 1.2' },
  { index: 2, platform: 'Oclgrind', name: 'Oclgrind Simulator', type: 'other', version: 'OpenCL 1.2', opencl_c_version: 'OpenCL C 1.2', oclgrind: true },
];

test('parseDevices accepts a list, a wrapper object, or JSON text', () => {
  assert.equal(parseDevices(devices).length, 3);
  assert.equal(parseDevices({ devices }).length, 3);
  assert.equal(parseDevices(JSON.stringify(devices)).length, 3);
  assert.deepEqual(parseDevices('not json'), []);
  assert.deepEqual(parseDevices([{ name: 'no index' }, null]), []);
});

test('selectors follow the server: index, device:N, cpu/gpu, oclgrind, substring', () => {
  assert.equal(matchDevice('1', devices)?.name, 'NVIDIA H200');
  assert.equal(matchDevice('device:2', devices)?.index, 2);
  assert.equal(matchDevice('gpu', devices)?.index, 1);
  assert.equal(matchDevice('CPU', devices)?.index, 0);
  assert.equal(matchDevice('oclgrind', devices)?.index, 2);
  assert.equal(matchDevice('h200', devices)?.index, 1);
  assert.equal(matchDevice('pocl', devices), undefined);
  assert.equal(matchDevice('portable', devices)?.index, 0);
  assert.equal(matchDevice('', devices), undefined);
  assert.equal(matchDevice('7', devices), undefined);
});

test('status bar text', () => {
  assert.equal(deviceStatus('gpu', devices).text, '$(circuit-board) NVIDIA H200');
  assert.match(deviceStatus('gpu', devices).tooltip, /NVIDIA H200 \(NVIDIA CUDA\) \(selector 'gpu'\)/);
  assert.equal(deviceStatus('', devices).text, '$(circuit-board) cpu-haswell-AMD EPYC 7B13');
  assert.match(deviceStatus(undefined, devices).tooltip, /\(default\)/);
  assert.equal(deviceStatus('tesla', devices).text, '$(warning) tesla?');
  assert.equal(deviceStatus('gpu', []).text, '$(circuit-board) no OpenCL device');
  assert.equal(deviceStatus('gpu', undefined).text, '$(circuit-board) gpu');
  assert.equal(deviceStatus('', undefined).text, '$(circuit-board) default device');
  assert.equal(deviceStatus('a very long device selector that goes on', undefined).text.length, '$(circuit-board) '.length + 30);
});

test('quick pick items write the index as the selector', () => {
  const picks = devicePicks(devices);
  assert.deepEqual(picks[1], { label: '1: NVIDIA H200', description: 'gpu · NVIDIA CUDA', detail: 'OpenCL 3.0 CUDA · OpenCL C 1.2', selector: '1' });
});

test('device table', () => {
  const table = formatDeviceTable(devices).split('\n');
  assert.equal(table.length, 4);
  assert.match(table[0], /^# +type +name +platform +OpenCL C$/);
  assert.match(table[2], /^1 +gpu +NVIDIA H200 +NVIDIA CUDA +OpenCL C 1.2$/);
  assert.equal(formatDeviceTable([]), 'no OpenCL devices found');
});
