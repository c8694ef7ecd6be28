/**
 * Which buffers the client sends to cllint: OpenCL C always, Python (setting `embeddedPython`,
 * on by default) and C/C++ (`embeddedCpp`, opt-in) for the kernels in their strings.
 *
 * Host buffers are sent only when they are files with a suffix the server reads as a host
 * language (analysis/embedded/languages.py): anything else there (an unsaved buffer, a notebook
 * cell, a `.h` header, a script without a suffix) the server would read as OpenCL C and flood
 * with errors. Pure: no `vscode` import, so it runs under `node --test`.
 */
import { SettingReader } from './settings';

/** The shape of vscode's DocumentFilter that this extension uses. */
export interface Filter {
  language: string;
  scheme?: string;
  pattern?: string;
}

/** Host suffixes per VS Code language id, as the server's `_SUFFIXES` (minus `.h`: OpenCL headers). */
const HOST_SUFFIXES: Record<string, string[]> = {
  python: ['py', 'pyw'],
  c: ['c'],
  cpp: ['cc', 'cpp', 'cxx', 'c++', 'hpp', 'hh', 'hxx'],
};

function bool(v: unknown, fallback: boolean): boolean {
  return typeof v === 'boolean' ? v : fallback;
}

/** The host languages turned on by the settings, in a fixed order. */
export function embeddedLanguages(read: SettingReader): string[] {
  const out: string[] = [];
  if (bool(read('embeddedPython'), true)) out.push('python');
  if (bool(read('embeddedCpp'), false)) out.push('c', 'cpp');
  return out;
}

/** `py` -> `[pP][yY]`: the server compares suffixes case-insensitively, globs do not. */
function anyCase(suffix: string): string {
  return [...suffix].map((ch) => (ch.toLowerCase() !== ch.toUpperCase() ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : ch)).join('');
}

export function documentSelector(read: SettingReader): Filter[] {
  const out: Filter[] = [{ language: 'opencl' }];
  for (const language of embeddedLanguages(read)) {
    out.push({ language, scheme: 'file', pattern: `**/*.{${HOST_SUFFIXES[language].map(anyCase).join(',')}}` });
  }
  return out;
}

/** The subset of VS Code's glob syntax the patterns above use: `**`, `*`, `{a,b}` and `[xX]`. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (glob.startsWith('**/', i)) { re += '(?:.*/)?'; i += 2; }
    else if (ch === '*') re += '[^/]*';
    else if (ch === '{') re += '(?:';
    else if (ch === '}') re += ')';
    else if (ch === ',') re += '|';
    else if (ch === '[') { const end = glob.indexOf(']', i); re += glob.slice(i, end + 1); i = end; }
    else re += ch.replace(/[.+?^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether a document (language id and URI) is selected, as VS Code matches a DocumentFilter. */
export function matches(selector: Filter[], languageId: string, uri: string): boolean {
  const colon = uri.indexOf(':');
  const scheme = uri.slice(0, colon);
  const path = decodeURIComponent(uri.slice(colon + 1).replace(/^\/\/[^/]*/, '').replace(/[?#].*$/, ''));
  return selector.some((f) => f.language === languageId && (f.scheme === undefined || f.scheme === scheme)
    && (f.pattern === undefined || globToRegExp(f.pattern).test(path)));
}

/**
 * Whether cllint's semantic tokens are asked for a buffer. VS Code shows one provider's tokens
 * per document (the first of its best-matching providers that returns any), so in a Python or
 * C/C++ buffer cllint's tokens, which cover only the kernel strings, would stand in for the host
 * server's over the whole file. There the host server keeps them; Neovim merges both servers'.
 */
export function semanticTokensFor(languageId: string): boolean {
  return languageId === 'opencl';
}
