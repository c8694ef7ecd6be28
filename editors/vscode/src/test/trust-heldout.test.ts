/**
 * Held-out cases for workspace trust (issue 22, item 7): cllint lints in Restricted Mode, but starts no program
 * the workspace chose and never asks the server to build or run kernels there.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discover, DiscoveryOptions, Probes } from '../discovery';
import { withTrust } from '../settings';

const probes = (files: string[], withCllint: string[] = []): Probes => ({
  isFile: async (p) => files.includes(p),
  pythonHasCllint: async (py) => withCllint.includes(py),
});
const base: DiscoveryOptions = { workspaceFolders: ['/ws'], platform: 'linux', envPath: '/usr/bin' };

test('untrusted settings carry no device work, trusted ones keep it', () => {
  const s = { device: 'gpu', buildOnSave: true, runOnSave: true, ignore: ['CL5'] };
  assert.deepEqual(withTrust(s, false), { ignore: ['CL5'], trustedWorkspace: false });
  assert.deepEqual(withTrust(s, true), { ...s, trustedWorkspace: true });
});

test('an interpreter inside an untrusted workspace is skipped, one outside is used', async () => {
  const files = ['/ws/env/bin/cllint', '/home/u/py/bin/cllint'];
  const inside = await discover({ ...base, trusted: false, pythonFromExtension: '/ws/env/bin/python' }, probes(files));
  assert.equal(inside.ok, false);
  assert.ok(!inside.ok && !inside.error.install, 'no offer to install into the workspace environment');
  const outside = await discover({ ...base, trusted: false, pythonFromExtension: '/home/u/py/bin/python' }, probes(files));
  assert.equal(outside.ok && outside.server.command, '/home/u/py/bin/cllint');
});
