/**
 * Finding the `cllint` executable (or a Python that has it), and what to say when there is none.
 *
 * Pure apart from the injected probes, so it runs under `node --test`.
 */
import * as path from 'path';

export interface DiscoveryOptions {
  /** `cllint.path`: an explicit `cllint` executable. */
  cllintPath?: string;
  /** `cllint.python`: the Python environment's interpreter (e.g. `.venv/bin/python`). */
  python?: string;
  /** The interpreter chosen in the Python extension, when it is installed. */
  pythonFromExtension?: string;
  workspaceFolders: string[];
  platform: NodeJS.Platform;
  /** PATH as a string, split with the platform's delimiter. */
  envPath?: string;
  /** `vscode.workspace.isTrusted`; false: no interpreter from inside the workspace is run. */
  trusted?: boolean;
}

export interface Probes {
  /** Whether a file exists and is executable (or at least exists on Windows). */
  isFile(p: string): Promise<boolean>;
  /** Whether `python -c "import cllint.cli.main"` succeeds. */
  pythonHasCllint(python: string): Promise<boolean>;
}

export interface ServerCommand {
  command: string;
  args: string[];
  /** How it was found, for the output channel. */
  source: string;
}

export interface FixIt {
  title: string;
  command: string;
  args: string[];
}

export interface NotFound {
  message: string;
  /** "Install cllint": `python -m pip install cllint` into the configured environment, when there is one. */
  install?: FixIt;
  tried: string[];
}

export type Discovery = { ok: true; server: ServerCommand } | { ok: false; error: NotFound };

function binDir(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'Scripts' : 'bin';
}

function exe(name: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? `${name}.exe` : name;
}

/** The `cllint` next to a Python interpreter (same venv `bin/`). */
export function cllintBesides(python: string, platform: NodeJS.Platform): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.join(p.dirname(python), exe('cllint', platform));
}

/** Whether `file` lies inside one of `folders`. */
export function insideAny(file: string, folders: string[], platform: NodeJS.Platform): boolean {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return folders.some((f) => {
    const rel = p.relative(f, file);
    return rel !== '' && !rel.startsWith('..') && !p.isAbsolute(rel);
  });
}

/** Virtual environments commonly found in a workspace. */
export function workspaceVenvs(folders: string[], platform: NodeJS.Platform): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const out: string[] = [];
  for (const f of folders) {
    for (const venv of ['.venv', 'venv', 'env']) out.push(p.join(f, venv, binDir(platform), exe('python', platform)));
  }
  return out;
}

export function installFixIt(python: string): FixIt {
  return { title: 'Install cllint', command: python, args: ['-m', 'pip', 'install', 'cllint'] };
}

/** Shell-style rendering of a command, for messages and the output channel. */
export function renderCommand(command: string, args: string[]): string {
  const q = (s: string) => (/^[A-Za-z0-9_./:=+,@%-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(q).join(' ');
}

/**
 * Order: `cllint.path`; `cllint.python` (its venv's `cllint`, else `python -m cllint`); the Python
 * extension's interpreter; a workspace `.venv`/`venv`/`env`; `cllint` on PATH.
 * An explicitly configured path that does not work is an error rather than a silent fallback.
 */
export async function discover(opts: DiscoveryOptions, probes: Probes): Promise<Discovery> {
  const tried: string[] = [];
  const fromPython = async (python: string, source: string): Promise<ServerCommand | undefined> => {
    const besides = cllintBesides(python, opts.platform);
    tried.push(besides);
    if (await probes.isFile(besides)) return { command: besides, args: ['server'], source };
    tried.push(`${python} -m cllint`);
    if (await probes.isFile(python) && await probes.pythonHasCllint(python)) {
      return { command: python, args: ['-m', 'cllint', 'server'], source };
    }
    return undefined;
  };

  if (opts.cllintPath) {
    tried.push(opts.cllintPath);
    if (await probes.isFile(opts.cllintPath)) {
      return { ok: true, server: { command: opts.cllintPath, args: ['server'], source: 'setting cllint.path' } };
    }
    return {
      ok: false,
      error: { message: `cllint.path is set to '${opts.cllintPath}', which is not an executable file`, tried },
    };
  }
  if (opts.python) {
    const found = await fromPython(opts.python, 'setting cllint.python');
    if (found) return { ok: true, server: found };
    const exists = await probes.isFile(opts.python);
    return {
      ok: false,
      error: exists
        ? { message: `cllint is not installed in the Python environment '${opts.python}'`,
          install: installFixIt(opts.python), tried }
        : { message: `cllint.python is set to '${opts.python}', which does not exist`, tried },
    };
  }
  // An untrusted workspace's own environments could run anything: only look outside it.
  const untrusted = opts.trusted === false;
  const pythons = [
    ...(opts.pythonFromExtension ? [opts.pythonFromExtension] : []),
    ...(untrusted ? [] : workspaceVenvs(opts.workspaceFolders, opts.platform)),
  ].filter((py) => !untrusted || !insideAny(py, opts.workspaceFolders, opts.platform));
  for (const py of pythons) {
    const found = await fromPython(py, py === opts.pythonFromExtension ? 'Python extension interpreter' : `workspace environment ${py}`);
    if (found) return { ok: true, server: found };
  }
  const delimiter = opts.platform === 'win32' ? ';' : ':';
  const p = opts.platform === 'win32' ? path.win32 : path.posix;
  for (const dir of (opts.envPath ?? '').split(delimiter).filter((d) => d !== '')) {
    const candidate = p.join(dir, exe('cllint', opts.platform));
    tried.push(candidate);
    if (await probes.isFile(candidate)) return { ok: true, server: { command: candidate, args: ['server'], source: 'PATH' } };
  }
  // Offer to install into the first environment that exists.
  let installInto: string | undefined;
  for (const py of pythons) {
    if (await probes.isFile(py)) { installInto = py; break; }
  }
  return {
    ok: false,
    error: {
      message: installInto
        ? `cllint is not installed in the Python environment '${installInto}' nor on PATH`
        : "cllint was not found: set 'cllint.python' to a Python environment, or install cllint on PATH",
      install: installInto ? installFixIt(installInto) : undefined,
      tried,
    },
  };
}
