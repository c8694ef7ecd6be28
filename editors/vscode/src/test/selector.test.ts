/**
 * Host buffers (issue 20, step 3): the client sends cllint Python buffers (setting
 * `cllint.embeddedPython`, on by default) and C/C++ buffers (`cllint.embeddedCpp`, opt-in),
 * only files on disk whose suffix the server reads as a host language, so that the user's
 * own Python or C++ server keeps everything else. Held-out cases: selector-heldout.test.ts.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { documentSelector, embeddedLanguages, matches, semanticTokensFor } from '../selector';
import { RESTART_KEYS, toServerSettings } from '../settings';

const reader = (values: Record<string, unknown>) => (key: string) => values[key];
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

test('by default OpenCL and Python buffers, not C or C++', () => {
  assert.deepEqual(embeddedLanguages(reader({})), ['python']);
  const sel = documentSelector(reader({}));
  assert.ok(matches(sel, 'opencl', 'file:///k/a.cl'));
  assert.ok(matches(sel, 'opencl', 'untitled:Untitled-1'));
  assert.ok(matches(sel, 'python', 'file:///w/app.py'));
  assert.ok(!matches(sel, 'cpp', 'file:///w/host.cpp'));
  assert.ok(!matches(sel, 'c', 'file:///w/host.c'));
});

test('embeddedCpp adds C and C++ sources; embeddedPython false drops Python', () => {
  const sel = documentSelector(reader({ embeddedPython: false, embeddedCpp: true }));
  assert.deepEqual(embeddedLanguages(reader({ embeddedPython: false, embeddedCpp: true })), ['c', 'cpp']);
  assert.ok(!matches(sel, 'python', 'file:///w/app.py'));
  assert.ok(matches(sel, 'cpp', 'file:///w/host.cpp'));
  assert.ok(matches(sel, 'c', 'file:///w/host.c'));
  assert.ok(matches(sel, 'cpp', 'file:///w/inc/ocl.hpp'));
});

test('a host buffer the server would read as OpenCL C is never sent', () => {
  const sel = documentSelector(reader({ embeddedCpp: true }));
  assert.ok(!matches(sel, 'python', 'untitled:Untitled-2'), 'an unsaved Python buffer has no .py suffix');
  assert.ok(!matches(sel, 'python', 'vscode-notebook-cell:/w/n.ipynb#W0sZmlsZQ'), 'notebook cells');
  assert.ok(!matches(sel, 'c', 'file:///w/kernels/common.h'), '.h stays OpenCL C on the server');
  assert.ok(!matches(sel, 'python', 'file:///w/bin/tool'), 'a script without a suffix');
});

test('the settings reach the server and restart the client', () => {
  assert.deepEqual(toServerSettings(reader({ embeddedPython: false, embeddedCpp: true })),
    { embeddedPython: false, embeddedCpp: true });
  assert.deepEqual(toServerSettings(reader({ embeddedPython: 'no' })), {});
  assert.ok(RESTART_KEYS.includes('embeddedPython') && RESTART_KEYS.includes('embeddedCpp'),
    'the document selector is fixed when the client starts');
});

test('the manifest contributes both settings and activates on Python', () => {
  const props = manifest.contributes.configuration.properties;
  assert.equal(props['cllint.embeddedPython'].type, 'boolean');
  assert.equal(props['cllint.embeddedPython'].default, true);
  assert.equal(props['cllint.embeddedCpp'].type, 'boolean');
  assert.equal(props['cllint.embeddedCpp'].default, false);
  assert.ok(manifest.activationEvents.includes('onLanguage:python'));
});

test("semantic tokens only for OpenCL buffers: VS Code keeps one provider's per document", () => {
  assert.ok(semanticTokensFor('opencl'));
  for (const host of ['python', 'c', 'cpp']) assert.ok(!semanticTokensFor(host), host);
});
