import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cllintBesides, discover, DiscoveryOptions, Probes, renderCommand, workspaceVenvs } from '../discovery';

function probes(files: string[], withCllint: string[] = []): Probes {
  return {
    isFile: async (p) => files.includes(p),
    pythonHasCllint: async (py) => withCllint.includes(py),
  };
}

const base: DiscoveryOptions = { workspaceFolders: ['/ws'], platform: 'linux', envPath: '/usr/local/bin:/usr/bin' };

test('cllint.path wins', async () => {
  const r = await discover({ ...base, cllintPath: '/opt/cllint', python: '/py' }, probes(['/opt/cllint']));
  assert.deepEqual(r, { ok: true, server: { command: '/opt/cllint', args: ['server'], source: 'setting cllint.path' } });
});

test('a broken cllint.path is an error, not a fallback', async () => {
  const r = await discover({ ...base, cllintPath: '/nope' }, probes(['/usr/bin/cllint']));
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.match(r.error.message, /cllint.path is set to '\/nope'/);
    assert.equal(r.error.install, undefined);
  }
});

test('cllint.python: the script next to the interpreter, else python -m cllint', async () => {
  let r = await discover({ ...base, python: '/env/bin/python' }, probes(['/env/bin/python', '/env/bin/cllint']));
  assert.deepEqual(r.ok && r.server.command, '/env/bin/cllint');
  r = await discover({ ...base, python: '/env/bin/python' }, probes(['/env/bin/python'], ['/env/bin/python']));
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual([r.server.command, ...r.server.args], ['/env/bin/python', '-m', 'cllint', 'server']);
});

test('cllint missing from the configured environment offers "Install cllint" there', async () => {
  const r = await discover({ ...base, python: '/env/bin/python' }, probes(['/env/bin/python', '/usr/bin/cllint']));
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.message, "cllint is not installed in the Python environment '/env/bin/python'");
    assert.deepEqual(r.error.install, { title: 'Install cllint', command: '/env/bin/python', args: ['-m', 'pip', 'install', 'cllint'] });
  }
});

test('a missing interpreter says so and offers no install', async () => {
  const r = await discover({ ...base, python: '/gone/python' }, probes([]));
  assert.ok(!r.ok && /does not exist/.test(r.error.message) && r.error.install === undefined);
});

test('the Python extension interpreter, then a workspace .venv, then PATH', async () => {
  let r = await discover({ ...base, pythonFromExtension: '/x/bin/python' }, probes(['/x/bin/cllint', '/ws/.venv/bin/cllint']));
  assert.ok(r.ok && r.server.command === '/x/bin/cllint');
  r = await discover(base, probes(['/ws/.venv/bin/cllint', '/usr/bin/cllint']));
  assert.ok(r.ok && r.server.command === '/ws/.venv/bin/cllint');
  r = await discover(base, probes(['/usr/bin/cllint']));
  assert.ok(r.ok && r.server.command === '/usr/bin/cllint' && r.server.source === 'PATH');
});

test('nothing found: offer to install into an existing workspace venv', async () => {
  const r = await discover(base, probes(['/ws/.venv/bin/python']));
  assert.ok(!r.ok);
  if (!r.ok) {
    assert.equal(r.error.install?.command, '/ws/.venv/bin/python');
    assert.ok(r.error.tried.includes('/usr/bin/cllint'));
  }
  const none = await discover(base, probes([]));
  assert.ok(!none.ok && none.error.install === undefined && /set 'cllint.python'/.test(none.error.message));
});

test('Windows layout', () => {
  assert.equal(cllintBesides('C:\\env\\Scripts\\python.exe', 'win32'), 'C:\\env\\Scripts\\cllint.exe');
  assert.equal(workspaceVenvs(['C:\\ws'], 'win32')[0], 'C:\\ws\\.venv\\Scripts\\python.exe');
});

test('renderCommand quotes what a shell would split', () => {
  assert.equal(renderCommand('/a b/python', ['-m', 'pip', 'install', 'cllint']), "'/a b/python' -m pip install cllint");
});
