/**
 * Workspace trust (issue 22, item 7; held-out cases in trust-heldout.test.ts): cllint lints in Restricted Mode, but starts no program
 * the workspace chose and never asks the server to build or run kernels there.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { discover, DiscoveryOptions, Probes } from '../discovery';
import { initializationOptions, RESTRICTED_KEYS } from '../settings';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
const probes = (files: string[], withCllint: string[] = []): Probes => ({
  isFile: async (p) => files.includes(p),
  pythonHasCllint: async (py) => withCllint.includes(py),
});
const base: DiscoveryOptions = { workspaceFolders: ['/ws'], platform: 'linux', envPath: '/usr/bin' };

test('the manifest declares limited support in untrusted workspaces', () => {
  const trust = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(trust?.supported, 'limited');
  assert.match(trust.description, /Restricted Mode/);
  assert.deepEqual([...trust.restrictedConfigurations].sort(), [
    'cllint.buildOnSave', 'cllint.device', 'cllint.path', 'cllint.python', 'cllint.runOnSave',
    'cllint.serverArgs', 'cllint.serverEnv',
  ]);
});

test('every restricted setting exists and RESTRICTED_KEYS matches the manifest', () => {
  const props = manifest.contributes.configuration.properties;
  for (const key of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations) {
    assert.ok(props[key], `${key} is not a contributed setting`);
  }
  assert.deepEqual(RESTRICTED_KEYS.map((k) => `cllint.${k}`).sort(),
    [...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort());
});

test('the server is told whether the workspace is trusted', () => {
  assert.deepEqual(initializationOptions({ std: 'CL3.0' }, true),
    { trusted: true, settings: { std: 'CL3.0', trustedWorkspace: true } });
  assert.deepEqual(initializationOptions({ std: 'CL3.0', buildOnSave: true }, false),
    { trusted: false, settings: { std: 'CL3.0', trustedWorkspace: false } });
});

test('an untrusted workspace\'s own virtual environment is not run', async () => {
  const venvPython = '/ws/.venv/bin/python';
  const files = ['/ws/.venv/bin/cllint', venvPython, '/usr/bin/cllint'];
  const trusted = await discover(base, probes(files));
  assert.equal(trusted.ok && trusted.server.command, '/ws/.venv/bin/cllint');
  const untrusted = await discover({ ...base, trusted: false }, probes(files));
  assert.deepEqual(untrusted, { ok: true, server: { command: '/usr/bin/cllint', args: ['server'], source: 'PATH' } });
});
