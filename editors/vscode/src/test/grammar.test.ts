/** Tokenises OpenCL C with the TextMate grammar the way VS Code does (vscode-textmate + oniguruma). */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';

const root = path.resolve(__dirname, '..', '..');
let grammar: textmate.IGrammar;

before(async () => {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      if (scope !== 'source.opencl') return null;
      const file = path.join(root, 'syntaxes', 'opencl.tmLanguage.json');
      return textmate.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  const g = await registry.loadGrammar('source.opencl');
  assert.ok(g);
  grammar = g;
});

/** [token text, innermost scope] for one or more lines. */
function tokens(source: string): [string, string][] {
  let stack = textmate.INITIAL;
  const out: [string, string][] = [];
  for (const line of source.split('\n')) {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      const text = line.slice(t.startIndex, t.endIndex);
      if (text.trim() !== '') out.push([text, t.scopes[t.scopes.length - 1]]);
    }
    stack = r.ruleStack;
  }
  return out;
}

function scopeOf(source: string, text: string): string {
  const hit = tokens(source).find(([t]) => t === text);
  assert.ok(hit, `no token '${text}' in ${JSON.stringify(tokens(source))}`);
  return hit[1];
}

test('qualifiers, kernel specifier and vector types', () => {
  const src = '__kernel void f(__global float4 *a, local half2 *b, read_only image2d_t img) {}';
  assert.equal(scopeOf(src, '__kernel'), 'storage.modifier.kernel.opencl');
  assert.equal(scopeOf(src, '__global'), 'storage.modifier.address-space.opencl');
  assert.equal(scopeOf(src, 'local'), 'storage.modifier.address-space.opencl');
  assert.equal(scopeOf(src, 'float4'), 'storage.type.vector.opencl');
  assert.equal(scopeOf(src, 'half2'), 'storage.type.vector.opencl');
  assert.equal(scopeOf(src, 'read_only'), 'storage.modifier.access.opencl');
  assert.equal(scopeOf(src, 'image2d_t'), 'storage.type.opaque.opencl');
  assert.equal(scopeOf(src, 'void'), 'storage.type.builtin.opencl');
});

test('built-in functions versus user functions', () => {
  const src = 'size_t i = get_global_id(0); barrier(CLK_LOCAL_MEM_FENCE); y = mad(a, x, y); my_fn(i); float4 v = convert_float4_rte(u);';
  assert.equal(scopeOf(src, 'get_global_id'), 'support.function.builtin.opencl');
  assert.equal(scopeOf(src, 'barrier'), 'support.function.builtin.opencl');
  assert.equal(scopeOf(src, 'mad'), 'support.function.builtin.opencl');
  assert.equal(scopeOf(src, 'convert_float4_rte'), 'support.function.builtin.opencl');
  assert.equal(scopeOf(src, 'my_fn'), 'entity.name.function.opencl');
  assert.equal(scopeOf(src, 'CLK_LOCAL_MEM_FENCE'), 'support.constant.opencl');
  assert.equal(scopeOf(src, 'size_t'), 'storage.type.builtin.opencl');
});

test('numbers with OpenCL suffixes', () => {
  for (const n of ['1.0h', '1.0f', '2.5e-3', '.5f', '1e10f', '0x1.8p3f', '0xFFu', '42', '7ul', '1.0']) {
    assert.match(scopeOf(`x = ${n};`, n), /^constant\.numeric\./, n);
  }
  assert.equal(scopeOf('x = 1.0h;', '1.0h'), 'constant.numeric.float.opencl');
  assert.equal(scopeOf('x = 0xFFu;', '0xFFu'), 'constant.numeric.integer.hexadecimal.opencl');
});

test('comments and strings', () => {
  assert.equal(scopeOf('int a; // get_global_id(0)', '// get_global_id(0)'.slice(2)), 'comment.line.double-slash.opencl');
  const block = tokens('/* kernel\n   void */ int x;');
  assert.deepEqual(block.slice(0, 3).map(([, s]) => s), ['punctuation.definition.comment.opencl', 'comment.block.opencl', 'comment.block.opencl']);
  assert.equal(tokens('/* kernel\n   void */ int x;').find(([t]) => t === 'int')?.[1], 'storage.type.builtin.opencl');
  assert.equal(scopeOf('printf("%v4hlf\\n", v);', '%v4hlf'), 'constant.other.placeholder.opencl');
  assert.equal(scopeOf('printf("%v4hlf\\n", v);', '\\n'), 'constant.character.escape.opencl');
});

test('preprocessor', () => {
  const ext = '#pragma OPENCL EXTENSION cl_khr_fp64 : enable';
  assert.equal(scopeOf(ext, 'pragma'), 'keyword.control.directive.pragma.opencl');
  assert.equal(scopeOf(ext, 'cl_khr_fp64'), 'support.constant.feature.opencl');
  assert.equal(scopeOf(ext, 'enable'), 'keyword.other.pragma.opencl');
  assert.equal(scopeOf('#include <common.clh>', '<common.clh>'), 'string.quoted.other.lt-gt.include.opencl');
  assert.equal(scopeOf('#define TILE(x) ((x) * 16)', 'TILE'), 'entity.name.function.preprocessor.opencl');
  assert.equal(scopeOf('#ifdef __opencl_c_fp64', '__opencl_c_fp64'), 'support.constant.feature.opencl');
  assert.equal(scopeOf('#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0', 'ifdef'.slice(0, 2)), 'keyword.control.directive.conditional.opencl');
  assert.equal(scopeOf('#pragma unroll 4', 'unroll'), 'keyword.other.pragma.opencl');
});

test('attributes and swizzles', () => {
  const src = '__attribute__((reqd_work_group_size(64, 1, 1))) kernel void k(void) { v.xyz = w.s01; }';
  assert.equal(scopeOf(src, '__attribute__'), 'storage.modifier.attribute.opencl');
  assert.equal(scopeOf(src, 'reqd_work_group_size'), 'entity.other.attribute-name.opencl');
  assert.equal(scopeOf(src, 'xyz'), 'variable.other.property.swizzle.opencl');
  assert.equal(scopeOf(src, 's01'), 'variable.other.property.swizzle.opencl');
});

test('raw string markers of kernel files written to be #included into C++', () => {
  const src = '// header\nR"(\n__kernel void k(__global float *a) { a[0] = 1.0f; }\n)"\n';
  assert.equal(scopeOf(src, 'R"('), 'punctuation.definition.string.raw.begin.opencl');
  assert.equal(scopeOf(src, ')"'), 'punctuation.definition.string.raw.end.opencl');
  // the code between the markers is code, not a string
  assert.equal(scopeOf(src, '__kernel'), 'storage.modifier.kernel.opencl');
  assert.equal(scopeOf('R"CLC(  // delimited\n', 'R"CLC('), 'punctuation.definition.string.raw.begin.opencl');
});
