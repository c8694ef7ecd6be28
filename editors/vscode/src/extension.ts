/**
 * The VS Code side of cllint: starts `cllint server`, forwards settings, and shows what the
 * server's commands return. Logic worth testing lives in settings.ts, discovery.ts, devices.ts
 * and results.ts; this file only wires it to the editor.
 */
import { spawn } from 'child_process';
import { promises as fs, constants as fsConstants } from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest, LanguageClient, LanguageClientOptions, ServerOptions, State,
} from 'vscode-languageclient/node';
import { Device, devicePicks, deviceStatus, formatDeviceTable, parseDevices } from './devices';
import { discover, NotFound, Probes, renderCommand } from './discovery';
import {
  asBuildResult, asRunResult, decorationText, errorOf, findKernelLine, formatBuildResult, formatRunResult, isBuildResult, isRunResult,
  kernelNames, pickCommand, RunResult, unwrap,
} from './results';
import { groupRuns, KernelRuns, noticeText, parseRuns, renderRunsHtml, RunNotice } from './runs';
import { documentSelector, semanticTokensFor } from './selector';
import { initializationOptions, RESTART_KEYS, substitute, Substitutions, toServerSettings, withTrust } from './settings';

const SECTION = 'cllint';
const SERVER_COMMANDS = new Set(['cllint.runKernel', 'cllint.buildOnDevice', 'cllint.build', 'cllint.listDevices']);

let client: LanguageClient | undefined;
let log: vscode.OutputChannel;
let runOutput: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let resultDecoration: vscode.TextEditorDecorationType;
let devices: Device[] | undefined;
const decorations = new Map<string, vscode.DecorationOptions[]>();
let runsView: RunsView | undefined;

/** The "Kernel runs" view: every .cllint/runs.jsonl of the workspace, read again when one changes. */
class RunsView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private timer: NodeJS.Timeout | undefined;

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = { enableScripts: false };
    view.onDidChangeVisibility(() => { if (view.visible) this.refresh(); });
    this.refresh();
  }

  /** Coalesced: a burst of runs (a save that runs three kernels) reads the files once. */
  refresh(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { void this.render(); }, 150);
  }

  private async render(): Promise<void> {
    const files = await vscode.workspace.findFiles('**/.cllint/runs.jsonl', '**/node_modules/**', 50);
    const groups: KernelRuns[] = [];
    const warnings: string[] = [];
    let activeFile: string | undefined;
    const active = vscode.window.activeTextEditor?.document.uri;
    for (const f of files) {
      try {
        const text = Buffer.from(await vscode.workspace.fs.readFile(f)).toString('utf8');
        const label = vscode.workspace.asRelativePath(f);
        const parsed = parseRuns(text, label);
        groups.push(...groupRuns(parsed.entries, label));
        warnings.push(...parsed.warnings);
        const root = vscode.Uri.joinPath(f, '..', '..');
        if (active && active.fsPath.startsWith(root.fsPath)) activeFile = active.fsPath.slice(root.fsPath.length + 1).split('\\').join('/');
      } catch (e) {
        warnings.push(`${f.fsPath}: ${String(e)}`);
      }
    }
    void vscode.commands.executeCommand('setContext', 'cllint.hasRuns', groups.length > 0);
    if (this.view) this.view.webview.html = renderRunsHtml(groups, { cspSource: this.view.webview.cspSource, activeFile, warnings });
  }
}

function substitutions(): Substitutions {
  return { workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, home: os.homedir(), env: process.env };
}

function serverSettings(scope?: vscode.ConfigurationScope) {
  const cfg = vscode.workspace.getConfiguration(SECTION, scope);
  return withTrust(toServerSettings((key) => cfg.get(key), substitutions()), vscode.workspace.isTrusted);
}

const probes: Probes = {
  async isFile(p) {
    try {
      const st = await fs.stat(p);
      if (!st.isFile()) return false;
      if (process.platform !== 'win32') await fs.access(p, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  pythonHasCllint(python) {
    return new Promise((resolve) => {
      const child = spawn(python, ['-c', 'import cllint.cli.main'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('exit', (code) => resolve(code === 0));
    });
  },
};

async function pythonFromExtension(): Promise<string | undefined> {
  try {
    const ext = vscode.extensions.getExtension('ms-python.python');
    if (!ext) return undefined;
    const api = ext.isActive ? ext.exports : await ext.activate();
    const env = await api?.environments?.getActiveEnvironmentPath?.(vscode.workspace.workspaceFolders?.[0]?.uri);
    return typeof env?.path === 'string' ? env.path : undefined;
  } catch {
    return undefined;
  }
}

async function findServer() {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const subs = substitutions();
  const opt = (key: string) => {
    const v = cfg.get<string>(key);
    return v && v.trim() !== '' ? substitute(v.trim(), subs) : undefined;
  };
  return discover({
    cllintPath: opt('path'),
    python: opt('python'),
    pythonFromExtension: await pythonFromExtension(),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    platform: process.platform,
    envPath: process.env.PATH,
    trusted: vscode.workspace.isTrusted,
  }, probes);
}

async function reportNotFound(error: NotFound): Promise<void> {
  log.appendLine(`[cllint] ${error.message}\n  tried: ${error.tried.join('\n         ')}`);
  const actions = [...(error.install ? [error.install.title] : []), 'Choose Python Environment', 'Show Output'];
  const picked = await vscode.window.showErrorMessage(
    `${error.message}. The OpenCL language server is not running.`, ...actions);
  if (picked === error.install?.title && error.install) {
    await install(error.install.command, error.install.args);
  } else if (picked === 'Choose Python Environment') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'cllint.python');
  } else if (picked === 'Show Output') {
    log.show();
  }
}

async function install(command: string, args: string[]): Promise<void> {
  log.show(true);
  log.appendLine(`$ ${renderCommand(command, args)}`);
  const code = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Installing cllint…' },
    () => new Promise<number>((resolve) => {
      const child = spawn(command, args, { env: process.env });
      child.stdout.on('data', (d: Buffer) => log.append(d.toString()));
      child.stderr.on('data', (d: Buffer) => log.append(d.toString()));
      child.on('error', (e) => { log.appendLine(String(e)); resolve(-1); });
      child.on('exit', (c) => resolve(c ?? -1));
    }));
  if (code === 0) {
    vscode.window.showInformationMessage('cllint installed; starting the language server.');
    await restart();
  } else {
    vscode.window.showErrorMessage(`Installing cllint failed (exit ${code}); see the cllint output.`, 'Show Output')
      .then((p) => { if (p) log.show(); });
  }
}

async function hasOpenCl(): Promise<boolean> {
  if (vscode.workspace.textDocuments.some((d) => d.languageId === 'opencl')) return true;
  return (await vscode.workspace.findFiles('**/*.{cl,clh,ocl,opencl}', '**/node_modules/**', 1)).length > 0;
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const found = await findServer();
  if (!found.ok) {
    // Activated by a Python buffer in a workspace with no OpenCL: a pop-up would nag every
    // Python user who has this extension, so only the output says it.
    if (await hasOpenCl()) await reportNotFound(found.error);
    else log.appendLine(`[cllint] ${found.error.message}; not started (no OpenCL file open or in the workspace)`);
    return;
  }
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const { command, args, source } = found.server;
  const extraArgs = cfg.get<string[]>('serverArgs') ?? [];
  const env = { ...process.env, ...(cfg.get<Record<string, string>>('serverEnv') ?? {}) };
  log.appendLine(`[cllint] starting ${renderCommand(command, [...args, ...extraArgs])} (from ${source})`);
  const serverOptions: ServerOptions = { command, args: [...args, ...extraArgs], options: { env } };
  const clientOptions: LanguageClientOptions = {
    // OpenCL, plus Python / C / C++ files for their kernels (settings embeddedPython, embeddedCpp);
    // the server answers nothing outside the kernel strings, so the user's own server keeps those buffers.
    documentSelector: documentSelector((key) => cfg.get(key)),
    outputChannel: log,
    initializationOptions: initializationOptions(serverSettings(), vscode.workspace.isTrusted),
    middleware: {
      workspace: {
        configuration: (params, token, next) => {
          const own = params.items.map((item) => (item.section === SECTION
            ? serverSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined) : undefined));
          if (own.every((v) => v !== undefined)) return own;
          return Promise.resolve(next(params, token)).then((theirs) =>
            (Array.isArray(theirs) ? theirs.map((v, i) => own[i] ?? v) : theirs));
        },
      },
      // Kernel strings' tokens would replace the host server's for a whole Python or C++ file.
      provideDocumentSemanticTokens: (document, token, next) =>
        (semanticTokensFor(document.languageId) ? next(document, token) : undefined),
      provideDocumentSemanticTokensEdits: (document, previousResultId, token, next) =>
        (semanticTokensFor(document.languageId) ? next(document, previousResultId, token) : undefined),
      // Code lenses call the server's commands directly; show what they return.
      executeCommand: async (cmd, cmdArgs, next) => {
        const result = await next(cmd, cmdArgs);
        if (SERVER_COMMANDS.has(cmd)) showResult(cmd, cmdArgs, result);
        return result;
      },
    },
  };
  client = new LanguageClient('cllint', 'cllint', serverOptions, clientOptions);
  // Runs on save and from the lens: decorate the kernel's line and refresh the view.
  context.subscriptions.push(client.onNotification('cllint/runRecorded', (n: RunNotice) => {
    decorateNotice(n);
    runsView?.refresh();
  }));
  context.subscriptions.push(client.onDidChangeState((e) => {
    if (e.newState === State.Running) void refreshDevices();
  }));
  try {
    await client.start();
  } catch (e) {
    log.appendLine(`[cllint] the server failed to start: ${String(e)}`);
    vscode.window.showErrorMessage(`cllint server failed to start: ${String(e)}`, 'Show Output')
      .then((p) => { if (p) log.show(); });
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try { await c.stop(); } catch { /* already dead */ }
  }
}

let extensionContext: vscode.ExtensionContext;

async function restart(): Promise<void> {
  await stop();
  await start(extensionContext);
}

async function serverCommand(command: string, args: unknown[]): Promise<unknown> {
  if (!client || !client.isRunning()) {
    vscode.window.showErrorMessage('The cllint server is not running.', 'Restart Server')
      .then((p) => { if (p) void restart(); });
    return undefined;
  }
  const available = client.initializeResult?.capabilities.executeCommandProvider?.commands;
  const result = await client.sendRequest(ExecuteCommandRequest.type, { command: pickCommand(command, available), arguments: args });
  showResult(command, args, result);
  return result;
}

function showResult(command: string, args: unknown[], raw: unknown): void {
  const value = unwrap(raw);
  const error = errorOf(value);
  if (error) {
    runOutput.appendLine(`✗ ${command}: ${error}`);
    runOutput.show(true);
    return;
  }
  if (command === 'cllint.listDevices') {
    devices = parseDevices(value);
    updateStatus();
    return;
  }
  if (isRunResult(value)) {
    const run = asRunResult(value);
    runOutput.appendLine(formatRunResult(run));
    runOutput.appendLine('');
    runOutput.show(true);
    decorate(typeof args[0] === 'string' ? args[0] : undefined, run);
  } else if (isBuildResult(value)) {
    runOutput.appendLine(formatBuildResult(asBuildResult(value)));
    runOutput.appendLine('');
    runOutput.show(true);
  } else if (value !== undefined && value !== null) {
    runOutput.appendLine(`${command}: ${JSON.stringify(value, null, 2)}`);
  }
}

function decorate(uri: string | undefined, result: RunResult): void {
  if (!uri) return;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  if (!doc) return;
  const line = findKernelLine(doc.getText(), result.kernel);
  if (line < 0) return;
  const others = (decorations.get(uri) ?? []).filter((d) => d.range.start.line !== line);
  const end = doc.lineAt(line).range.end;
  others.push({
    range: new vscode.Range(end, end),
    hoverMessage: new vscode.MarkdownString().appendCodeblock(formatRunResult(result), 'text'),
    renderOptions: { after: { contentText: `  ${decorationText(result)}`,
      color: new vscode.ThemeColor(result.ok ? 'editorCodeLens.foreground' : 'editorError.foreground') } },
  });
  decorations.set(uri, others);
  applyDecorations();
}

function decorateNotice(n: RunNotice): void {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === vscode.Uri.parse(n.uri).toString());
  if (!doc) return;
  const line = findKernelLine(doc.getText(), n.kernel);
  if (line < 0) return;
  const key = doc.uri.toString();
  const others = (decorations.get(key) ?? []).filter((d) => d.range.start.line !== line);
  const end = doc.lineAt(line).range.end;
  others.push({
    range: new vscode.Range(end, end),
    hoverMessage: new vscode.MarkdownString(`${n.title}\n\nKept in \`.cllint/runs.jsonl\`; see the *Kernel runs* view.`),
    renderOptions: { after: { contentText: `  ${noticeText(n)}`,
      color: new vscode.ThemeColor(n.ok && !n.output_changed ? 'editorCodeLens.foreground' : 'editorWarning.foreground') } },
  });
  decorations.set(key, others);
  applyDecorations();
}

function applyDecorations(): void {
  for (const editor of vscode.window.visibleTextEditors) {
    editor.setDecorations(resultDecoration, decorations.get(editor.document.uri.toString()) ?? []);
  }
}

function updateStatus(): void {
  const s = deviceStatus(vscode.workspace.getConfiguration(SECTION).get<string>('device'), devices);
  status.text = s.text;
  status.tooltip = s.tooltip;
  const editor = vscode.window.activeTextEditor;
  if (editor?.document.languageId === 'opencl') status.show(); else status.hide();
}

async function refreshDevices(): Promise<void> {
  if (!client || !client.isRunning()) return;
  try {
    const result = await client.sendRequest(ExecuteCommandRequest.type, { command: 'cllint.listDevices', arguments: [] });
    devices = parseDevices(unwrap(result));
  } catch (e) {
    log.appendLine(`[cllint] listing devices failed: ${String(e)}`);
    devices = [];
  }
  updateStatus();
}

function activeOpenCLDocument(): vscode.TextDocument | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.languageId === 'opencl') return doc;
  vscode.window.showWarningMessage('Open an OpenCL C file first.');
  return undefined;
}

async function runKernel(uriArg?: string | vscode.Uri, kernelArg?: string): Promise<void> {
  const doc = uriArg ? await vscode.workspace.openTextDocument(typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg)
    : activeOpenCLDocument();
  if (!doc) return;
  let kernel = kernelArg;
  if (!kernel) {
    const names = kernelNames(doc.getText());
    if (names.length === 0) { vscode.window.showWarningMessage('No kernel in this file.'); return; }
    kernel = names.length === 1 ? names[0] : await vscode.window.showQuickPick(names, { placeHolder: 'Kernel to run' });
  }
  if (!kernel) return;
  if (doc.isDirty) await doc.save();
  const chosen = kernel;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `cllint: running ${chosen}` },
    () => serverCommand('cllint.runKernel', [doc.uri.toString(), chosen]));
}

async function buildOnDevice(uriArg?: string | vscode.Uri): Promise<void> {
  const doc = uriArg ? await vscode.workspace.openTextDocument(typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg)
    : activeOpenCLDocument();
  if (!doc) return;
  if (doc.isDirty) await doc.save();
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'cllint: building on device' },
    () => serverCommand('cllint.buildOnDevice', [doc.uri.toString()]));
}

async function selectDevice(): Promise<void> {
  await refreshDevices();
  const items: (vscode.QuickPickItem & { selector: string })[] = [
    { label: '$(circle-slash) Default', description: 'the first device, or .cllint.toml', detail: '', selector: '' },
    ...devicePicks(devices ?? []),
    { label: '$(debug) Oclgrind', description: 'simulator that checks memory and barriers', detail: '', selector: 'oclgrind' },
  ];
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'OpenCL device for running and building kernels' });
  if (!picked) return;
  const target = vscode.workspace.workspaceFolders ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration(SECTION).update('device', picked.selector === '' ? undefined : picked.selector, target);
}

async function showDevices(): Promise<void> {
  await refreshDevices();
  runOutput.appendLine(formatDeviceTable(devices ?? []));
  runOutput.appendLine('');
  runOutput.show(true);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionContext = context;
  log = vscode.window.createOutputChannel('cllint');
  runOutput = vscode.window.createOutputChannel('cllint: Run');
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = 'cllint.selectDevice';
  resultDecoration = vscode.window.createTextEditorDecorationType({ isWholeLine: false });
  context.subscriptions.push(log, runOutput, status, resultDecoration,
    vscode.commands.registerCommand('cllint.run', runKernel),
    vscode.commands.registerCommand('cllint.build', buildOnDevice),
    vscode.commands.registerCommand('cllint.selectDevice', selectDevice),
    vscode.commands.registerCommand('cllint.showDevices', showDevices),
    vscode.commands.registerCommand('cllint.restartServer', restart),
    vscode.commands.registerCommand('cllint.showOutput', () => log.show()),
    vscode.commands.registerCommand('cllint.clearResults', () => { decorations.clear(); applyDecorations(); }),
    vscode.window.registerWebviewViewProvider('cllint.kernelRuns', (runsView = new RunsView())),
    vscode.commands.registerCommand('cllint.showRuns', () => vscode.commands.executeCommand('cllint.kernelRuns.focus')),
    vscode.window.onDidChangeActiveTextEditor(() => runsView?.refresh()),
    (() => {
      const watcher = vscode.workspace.createFileSystemWatcher('**/.cllint/runs.jsonl');
      watcher.onDidChange(() => runsView?.refresh());
      watcher.onDidCreate(() => runsView?.refresh());
      watcher.onDidDelete(() => runsView?.refresh());
      return watcher;
    })(),
    vscode.window.onDidChangeActiveTextEditor(updateStatus),
    vscode.window.onDidChangeVisibleTextEditors(applyDecorations),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const key = e.document.uri.toString();
      if (e.contentChanges.length > 0 && decorations.delete(key)) applyDecorations();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      if (RESTART_KEYS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) { void restart(); return; }
      if (client?.isRunning()) {
        void client.sendNotification('workspace/didChangeConfiguration', { settings: { [SECTION]: serverSettings() } });
      }
      updateStatus();
    }),
    // Trust is granted at run time (never taken back without a reload): a new server is told,
    // and discovery may now use the workspace's own environment.
    vscode.workspace.onDidGrantWorkspaceTrust(() => { void restart(); }),
    { dispose: () => { void stop(); } },
  );
  updateStatus();
  await start(context);
}

export function deactivate(): Promise<void> {
  return stop();
}
