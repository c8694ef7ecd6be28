/**
 * VS Code settings -> the server's "cllint" configuration section.
 *
 * Pure: no `vscode` import, so it runs under `node --test`.
 */

/** The keys the server reads from workspace/configuration section "cllint". */
export interface ServerSettings {
  std?: string;
  target?: string;
  features?: string;
  includePaths?: string[];
  defines?: string[];
  select?: string[];
  ignore?: string[];
  device?: string;
  buildOnSave?: boolean;
  runOnSave?: boolean;
  /** "auto" (default: clang-19 checks the file after typing pauses, when found) or "off". */
  compilerCheck?: string;
  /** Seconds of analysis per file and edit (0: no limit); the server's default is 2. */
  analysisBudget?: number;
  /** Lint the kernels in Python buffers that import pyopencl (the server's default: true). */
  embeddedPython?: boolean;
  /** Lint the kernels in C/C++ buffers (the server's default: false). */
  embeddedCpp?: boolean;
  /** Read each file through its program (sibling sources, host -D names); the server's default: true. */
  projectModel?: boolean;
  /** Whether VS Code trusts the workspace; false: the server builds and runs nothing. */
  trustedWorkspace?: boolean;
}

/** Reads one setting under "cllint." (as `WorkspaceConfiguration.get` does). */
export type SettingReader = (key: string) => unknown;

export interface Substitutions {
  workspaceFolder?: string;
  home?: string;
  env?: Record<string, string | undefined>;
}

const STRING_KEYS = ['std', 'target', 'device', 'compilerCheck'] as const;
const LIST_KEYS = ['defines', 'select', 'ignore'] as const;
const BOOL_KEYS = ['buildOnSave', 'runOnSave', 'embeddedPython', 'embeddedCpp', 'projectModel'] as const;

/** `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`, as VS Code users expect. */
export function substitute(value: string, subs: Substitutions): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g,
    (whole, name: string, envName: string | undefined) => {
      if (name === 'workspaceFolder') return subs.workspaceFolder ?? whole;
      if (name === 'userHome') return subs.home ?? whole;
      return subs.env?.[envName ?? ''] ?? '';
    });
  if (subs.home && (out === '~' || out.startsWith('~/'))) out = subs.home + out.slice(1);
  return out;
}

function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const items = v.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter((x) => x !== '');
  return items.length > 0 ? items : undefined;
}

/**
 * `features` may be written as the server's string ("+__opencl_c_fp64,-__opencl_c_images")
 * or as a list (["+__opencl_c_fp64", "-__opencl_c_images"]); the server always gets the string.
 */
export function normaliseFeatures(v: unknown): string | undefined {
  const parts = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string')
    : typeof v === 'string' ? v.split(',') : [];
  const cleaned = parts.map((p) => p.trim()).filter((p) => p !== '');
  return cleaned.length > 0 ? cleaned.join(',') : undefined;
}

/**
 * Builds the object sent as the "cllint" section. Unset values (empty strings, empty lists,
 * `null`) are left out so that `.cllint.toml` / `[tool.cllint]` and the server's defaults apply.
 */
export function toServerSettings(read: SettingReader, subs: Substitutions = {}): ServerSettings {
  const out: ServerSettings = {};
  for (const key of STRING_KEYS) {
    const v = nonEmptyString(read(key));
    if (v !== undefined) out[key] = v;
  }
  const features = normaliseFeatures(read('features'));
  if (features !== undefined) out.features = features;
  const includes = stringList(read('includePaths'));
  if (includes !== undefined) out.includePaths = includes.map((p) => substitute(p, subs));
  for (const key of LIST_KEYS) {
    const v = stringList(read(key));
    if (v !== undefined) out[key] = v;
  }
  for (const key of BOOL_KEYS) {
    const v = read(key);
    if (typeof v === 'boolean') out[key] = v;
  }
  const budget = read('analysisBudget');
  if (typeof budget === 'number' && Number.isFinite(budget) && budget >= 0) out.analysisBudget = budget;
  return out;
}

/**
 * Settings whose change needs a new client rather than didChangeConfiguration: the server
 * process, and the document selector (which buffers are sent), fixed when the client starts.
 */
export const RESTART_KEYS = ['path', 'python', 'serverArgs', 'serverEnv', 'embeddedPython', 'embeddedCpp'];

/**
 * Settings that start programs or run kernels: in Restricted Mode VS Code ignores their workspace
 * values (package.json `capabilities.untrustedWorkspaces.restrictedConfigurations`).
 */
export const RESTRICTED_KEYS = ['python', 'path', 'serverArgs', 'serverEnv', 'device', 'buildOnSave', 'runOnSave'];

/** The settings with the workspace's trust; untrusted, the device keys are left out too. */
export function withTrust(settings: ServerSettings, trusted: boolean): ServerSettings {
  if (trusted) return { ...settings, trustedWorkspace: true };
  const out: ServerSettings = { ...settings, trustedWorkspace: false };
  delete out.device;
  delete out.buildOnSave;
  delete out.runOnSave;
  return out;
}

/** `initializationOptions` of the language client: the server reads `trusted` at initialize. */
export function initializationOptions(settings: ServerSettings, trusted: boolean): { trusted: boolean; settings: ServerSettings } {
  return { trusted, settings: withTrust(settings, trusted) };
}
