/** Held-out cases for the host-buffer selector (written with selector.test.ts, run after the code). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentSelector, matches } from '../selector';

const reader = (values: Record<string, unknown>) => (key: string) => values[key];

test('upper-case and less common suffixes the server reads as hosts', () => {
  const sel = documentSelector(reader({ embeddedCpp: true }));
  assert.ok(matches(sel, 'python', 'file:///w/gui.pyw'));
  assert.ok(matches(sel, 'cpp', 'file:///w/Host.CPP'));
  assert.ok(matches(sel, 'cpp', 'file:///w/a.cc'));
  assert.ok(matches(sel, 'cpp', 'file:///w/a.cxx'));
  assert.ok(matches(sel, 'cpp', 'file:///w/a.hh'));
});

test('a language mismatch is not sent: a .py file opened as plain text', () => {
  const sel = documentSelector(reader({}));
  assert.ok(!matches(sel, 'plaintext', 'file:///w/app.py'));
  assert.ok(!matches(sel, 'cuda-cpp', 'file:///w/k.cu'));
});

test('wrong types fall back to the defaults', () => {
  const sel = documentSelector(reader({ embeddedPython: 'yes', embeddedCpp: 1 }));
  assert.ok(matches(sel, 'python', 'file:///w/app.py'));
  assert.ok(!matches(sel, 'cpp', 'file:///w/host.cpp'));
});
