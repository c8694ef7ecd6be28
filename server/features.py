"""The bodies behind the handlers, run on the Host worker thread: find the document,
call one pure feature in analysis/ide/, convert the answer with server/convert.py."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from cllint.server import convert, device, embedded
from cllint.server.places import host_location, place, places
from cllint.analysis.ide import completion as ide_completion
from cllint.analysis.ide import navigation, signature, symbols
from cllint.analysis.ide.hover import hover_at
from cllint.analysis.ide.inlay import inlay_hints as ide_inlay_hints
from cllint.analysis.ide.suppress import suppress_edit
from cllint.server.define_action import define_action
from cllint.server.lsp import SECTION, CllintServer, uri_to_path

log = logging.getLogger("cllint.server")
TOKEN_TYPES = symbols.TOKEN_TYPES
TOKEN_MODIFIERS = symbols.TOKEN_MODIFIERS
RUN_COMMAND = "cllint.runKernel"
BUILD_COMMAND = "cllint.buildOnDevice"
BUILD_ALIAS = "cllint.build"
LIST_DEVICES_COMMAND = "cllint.listDevices"
SELECT_DEVICE_COMMAND = "cllint.selectDevice"
LIST_RUNS_COMMAND = "cllint.listRuns"
RUN_RECORDED = "cllint/runRecorded"

_COMPLETION_KIND = {
    "function": types.CompletionItemKind.Function, "keyword": types.CompletionItemKind.Keyword,
    "variable": types.CompletionItemKind.Variable, "macro": types.CompletionItemKind.Constant,
    "struct": types.CompletionItemKind.Struct, "field": types.CompletionItemKind.Field,
    "constant": types.CompletionItemKind.Constant, "type": types.CompletionItemKind.TypeParameter,
}
_SYMBOL_KIND = {
    "kernel": types.SymbolKind.Function, "function": types.SymbolKind.Function,
    "struct": types.SymbolKind.Struct, "macro": types.SymbolKind.Constant,
    "global": types.SymbolKind.Variable, "typedef": types.SymbolKind.Class,
}


def _doc(ls: CllintServer, uri: str):
    doc = ls.docs.get(uri)
    if doc is None:
        return None
    snap = ls.host.snapshot()
    if not snap.has_file(uri):
        return None
    return doc, snap.tree(uri), snap.text(uri), snap.options(uri)


def _snap(ls: CllintServer, uri: str):
    """(document, snapshot) for features that read the semantic model."""
    doc = ls.docs.get(uri)
    snap = ls.host.snapshot() if doc is not None else None
    return (doc, snap) if snap is not None and snap.has_file(uri) else None


# -- configuration ----------------------------------------------------------------------


async def pull_configuration(ls: CllintServer) -> None:
    caps = ls.client_capabilities.workspace
    if caps is None or not caps.configuration:
        return
    try:
        items = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)]))
    except Exception:
        log.exception("workspace/configuration failed")
        return
    if items and isinstance(items[0], dict):
        ls.apply_settings(items[0])


# -- code actions -----------------------------------------------------------------------


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def code_actions(ls: CllintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    result = ls.analyse(uri)
    doc = ls.docs.get(uri)
    if result is None or doc is None:
        return []
    out: list[types.CodeAction] = []
    host = embedded.is_host_document(uri)
    for d, lsp_diag in zip(result.diagnostics, result.lsp):
        if not _overlaps(lsp_diag.range, params.range):
            continue
        if (fix := convert.fix_action(uri, d, lsp_diag, doc.index)) is not None:
            out.append(fix)
        if d.code == "CL012" and (path := uri_to_path(uri)) is not None:
            name = doc.index.text[d.span.start:d.span.end].decode("utf-8", "replace")
            folder = next((r for r in ls._roots() if path.is_relative_to(r)), path.parent)
            if (define := define_action(path, folder, name, lsp_diag)) is not None:
                out.append(define)
        if host:  # '// cllint: ignore' at the end of a host line breaks the Python or C++ around the string
            continue
        out.append(convert.suppress_action(uri, d.code, lsp_diag, doc.index,
                                           suppress_edit(doc.index.text, d.span.start, d.code)))
    return out


# -- navigation and information ---------------------------------------------------------


def hover(ls: CllintServer, uri: str, pos: types.Position) -> types.Hover | None:
    if (at := place(ls, uri, pos)) is None:
        return None
    h = hover_at(at.snap, at.file, at.offset)
    if h is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, h.markdown), at.range(h.start, h.end))


def inlay_hints(ls: CllintServer, uri: str, rng: types.Range) -> list[types.InlayHint] | None:
    if (found := _snap(ls, uri)) is None:
        return None
    doc, snap = found
    return [types.InlayHint(doc.index.position(h.offset), h.label, kind=types.InlayHintKind.Type,
                            tooltip=types.MarkupContent(types.MarkupKind.Markdown, h.tooltip), padding_left=True)
            for h in ide_inlay_hints(snap, uri, doc.index.offset(rng.start), doc.index.offset(rng.end))]


def completion(ls: CllintServer, uri: str, pos: types.Position) -> types.CompletionList | None:
    if (at := place(ls, uri, pos)) is None:
        return None
    items = []
    target = at.snap.options(at.file).target
    for c in ide_completion.complete(at.snap.tree(at.file), at.snap.text(at.file), at.offset, target):
        snippet = c.snippet is not None
        items.append(types.CompletionItem(
            label=c.label, kind=_COMPLETION_KIND.get(c.kind), detail=c.detail or None,
            documentation=c.documentation or None, insert_text=c.snippet if snippet else None,
            insert_text_format=types.InsertTextFormat.Snippet if snippet else None))
    return types.CompletionList(is_incomplete=len(items) > 500, items=items[:500])


def signature_help(ls: CllintServer, uri: str, pos: types.Position) -> types.SignatureHelp | None:
    if (at := place(ls, uri, pos)) is None:
        return None
    res = signature.signature_help(at.snap.tree(at.file), at.snap.text(at.file), at.offset,
                                   at.snap.options(at.file).target)
    if res is None:
        return None
    sigs = [types.SignatureInformation(s.label, documentation=s.documentation or None,
                                       parameters=[types.ParameterInformation(p) for p in s.params])
            for s in res.signatures]
    best = next((i for i, s in enumerate(res.signatures) if len(s.params) > res.active_parameter), 0)
    return types.SignatureHelp(sigs, active_signature=best, active_parameter=res.active_parameter)


def document_symbols(ls: CllintServer, uri: str) -> list[types.DocumentSymbol] | None:
    if (found := _doc(ls, uri)) is None:
        return None
    doc, tree, src, _ = found
    return [types.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND.get(s.kind, types.SymbolKind.Variable),
                                 range=doc.index.range(s.start, s.end),
                                 selection_range=doc.index.range(s.name_start, s.name_end),
                                 detail=s.kind)
            for s in symbols.document_symbols(tree, src)]


def _locations(ls: CllintServer, locs) -> list[types.Location]:
    """navigation.Location (file id, bytes) -> LSP locations; files that cannot be read are left out."""
    indexes: dict[str, convert.LineIndex | None] = {}
    out = []
    for loc in locs:
        if (mapped := host_location(ls, loc.file, loc.start, loc.end)) is None:
            continue  # inside the code a library generates around a kernel snippet
        loc = navigation.Location(*mapped)
        if loc.file not in indexes:
            doc = ls.docs.get(loc.file)
            data = None if doc is not None else ls.read_file(loc.file)
            indexes[loc.file] = doc.index if doc is not None else (
                convert.LineIndex(data, ls.encoding) if data is not None else None)
        if (index := indexes[loc.file]) is not None:
            out.append(types.Location(loc.file, index.range(loc.start, loc.end)))
    return out


def _one(locs: list[types.Location]) -> types.Location | list[types.Location] | None:
    return locs[0] if len(locs) == 1 else (locs or None)


def definition(ls: CllintServer, uri: str, pos: types.Position) -> types.Location | list[types.Location] | None:
    if (at := place(ls, uri, pos)) is None:
        return None
    return _one(_locations(ls, navigation.definition(at.snap, at.file, at.offset)))


def declaration(ls: CllintServer, uri: str, pos: types.Position) -> types.Location | list[types.Location] | None:
    if (at := place(ls, uri, pos)) is None:
        return None
    return _one(_locations(ls, navigation.declaration(at.snap, at.file, at.offset)))


def references(ls: CllintServer, uri: str, pos: types.Position, include_declaration: bool = True
               ) -> list[types.Location] | None:
    if (found := _snap(ls, uri)) is None:
        return None
    doc, snap = found
    return _locations(ls, navigation.references(snap, uri, doc.index.offset(pos), include_declaration))


def highlights(ls: CllintServer, uri: str, pos: types.Position) -> list[types.DocumentHighlight] | None:
    if (found := _snap(ls, uri)) is None:
        return None
    doc, snap = found
    return [types.DocumentHighlight(doc.index.range(h.start, h.end), types.DocumentHighlightKind.Text)
            for h in navigation.highlights(snap, uri, doc.index.offset(pos))]


def prepare_rename(ls: CllintServer, uri: str, pos: types.Position) -> types.PrepareRenameResult | None:
    if (found := _snap(ls, uri)) is None:
        return None
    doc, snap = found
    loc = navigation.prepare_rename(snap, uri, doc.index.offset(pos))
    return None if loc is None else types.PrepareRenamePlaceholder(
        doc.index.range(loc.start, loc.end), doc.index.text[loc.start:loc.end].decode("utf-8", "replace"))


def rename(ls: CllintServer, uri: str, pos: types.Position, new_name: str) -> types.WorkspaceEdit | None:
    """Raises ValueError for an invalid name (the handler turns it into a request error)."""
    if (found := _snap(ls, uri)) is None:
        return None
    doc, snap = found
    edits = navigation.rename(snap, uri, doc.index.offset(pos), new_name)
    if edits is None:
        return None
    changes: dict[str, list[types.TextEdit]] = {}
    for locs in edits.values():
        for loc in _locations(ls, locs):
            changes.setdefault(loc.uri, []).append(types.TextEdit(loc.range, new_name))
    return types.WorkspaceEdit(changes=changes)


def workspace_symbols(ls: CllintServer, query: str) -> list[types.WorkspaceSymbol]:
    snap = ls.host.snapshot()
    out = []
    for s in navigation.workspace_symbols(snap, query):
        if (doc := ls.docs.get(s.file)) is not None:
            out.append(types.WorkspaceSymbol(
                name=s.name, kind=_SYMBOL_KIND.get(s.kind, types.SymbolKind.Variable), container_name=s.kind,
                location=types.Location(s.file, doc.index.range(s.name_start, s.name_end))))
    return out


def folding_ranges(ls: CllintServer, uri: str) -> list[types.FoldingRange] | None:
    if (found := _snap(ls, uri)) is None:
        return None
    doc, snap = found
    out = []
    for start, end, kind in symbols.folding_ranges(snap.tree(uri), snap.preprocessor(uri).inactive_ranges(),
                                                   snap.text(uri)):
        a, b = doc.index.position(start), doc.index.position(end)
        out.append(types.FoldingRange(a.line, b.line, kind=kind))
    return out


def _document_tokens(ls: CllintServer, uri: str) -> list[symbols.Token] | None:
    """The tokens of the .cl buffer, or of the kernel strings of a host buffer, in document
    bytes; a token is kept only where the string holds its text verbatim (not across an
    escape or a template placeholder), and in host order."""
    if not (found := places(ls, uri)):
        return None  # null, not empty: another server's tokens for a host buffer stand
    out: dict[int, symbols.Token] = {}
    for at in found:
        snap, file = at.snap, at.file
        for tok in symbols.semantic_tokens(snap.tree(file), snap.text(file), snap.preprocessor(file).inactive_ranges()):
            if at.exact(tok.start, tok.end) and (span := at.to_document(tok.start, tok.end)) is not None:
                out.setdefault(span[0], symbols.Token(*span, tok.type, tok.modifiers))
    return [out[k] for k in sorted(out)]


def semantic_tokens(ls: CllintServer, uri: str) -> types.SemanticTokens | None:
    if (toks := _document_tokens(ls, uri)) is None:
        return None
    doc = ls.docs[uri]
    data: list[int] = []
    prev_line = prev_col = 0
    for tok in toks:
        a, b = doc.index.position(tok.start), doc.index.position(tok.end)
        if a.line != b.line:
            continue
        col = a.character - prev_col if a.line == prev_line else a.character
        mods = sum(1 << TOKEN_MODIFIERS.index(m) for m in tok.modifiers)
        data += [a.line - prev_line, col, b.character - a.character, TOKEN_TYPES.index(tok.type), mods]
        prev_line, prev_col = a.line, a.character
    return types.SemanticTokens(data=data)


# -- device runner (server/runner) --------------------------------------------------------


def code_lenses(ls: CllintServer, uri: str) -> list[types.CodeLens] | None:
    if (found := _doc(ls, uri)) is None or found[0].path is None:
        return None
    doc, tree, src, _ = found
    titles = ls.device.titles.get(str(doc.path))
    if titles is None and ls.trusted():  # the last runs, from the history: read once, in the pool
        ls.device.titles[str(doc.path)] = {}
        ls.device.submit(device.lens_titles_job, str(doc.path)).add_done_callback(
            lambda f, p=str(doc.path): _titles_read(ls, p, f))
    titles = titles or {}
    return [types.CodeLens(doc.index.range(s.name_start, s.name_end),
                           command=types.Command(title=titles.get(s.name, "▶ Run"), command=RUN_COMMAND,
                                                 arguments=[uri, s.name],
                                                 tooltip=f"Run '{s.name}' on the OpenCL device"))
            for s in symbols.document_symbols(tree, src) if s.kind == "kernel"]


def _titles_read(ls: CllintServer, path: str, done) -> None:
    """Pool thread: the history's titles arrived; runs since then keep their own."""
    if done.exception() is not None or not done.result():
        return
    ls.device.titles[path] = {**done.result(), **ls.device.titles.get(path, {})}
    if ls.loop is not None and not ls.loop.is_closed():
        ls.loop.call_soon_threadsafe(_refresh_lenses, ls)


def _refresh_lenses(ls: CllintServer) -> None:
    caps = ls.client_capabilities.workspace
    if caps is not None and caps.code_lens is not None and caps.code_lens.refresh_support:
        ls.workspace_code_lens_refresh(None)


async def _pooled(ls: CllintServer, fn, *args):
    return await asyncio.wrap_future(ls.device.submit(fn, *args))


def _job(ls: CllintServer, uri: str) -> device.Job | dict:
    """The job for a document, or the error to answer."""
    if not ls.trusted():
        return {"ok": False, "error": "device builds and runs are off in an untrusted workspace",
                "hint": "trust the workspace to build or run its kernels"}
    path = uri_to_path(uri)
    if path is None or not path.is_file():
        return {"ok": False, "error": f"'{uri}' is not a file on disk", "hint": "save the file first"}
    e = ls.editor
    return device.Job(str(path), device.selector(e.device) or ls.device.selected, e.std, e.include_paths,
                      tuple(f"{k}={v}" for k, v in e.defines), e.timeout_s, ls.encoding)


def _show(ls: CllintServer, op: str, result: dict, kernel: str | None = None) -> dict:
    kind, text = device.summary(op, result, kernel)
    ls.window_show_message(types.ShowMessageParams(kind, text))
    return result


async def list_devices(ls: CllintServer) -> list[dict] | dict:
    try:
        return await _pooled(ls, device.list_devices_job)
    except Exception as exc:  # RunnerError, WorkerStopped, no pyopencl
        return device.error_json(exc)


async def build_on_device(ls: CllintServer, uri: str) -> dict:
    job = _job(ls, uri)
    if isinstance(job, dict):
        return _show(ls, "build", job)
    try:
        result, _ = await _pooled(ls, device.build_job, job)
    except Exception as exc:
        result = device.error_json(exc)
    return _show(ls, "build", result)


async def run_kernel(ls: CllintServer, uri: str, kernel: str, via: str = "lens") -> dict:
    """One run, one at a time per file; recorded in the history and compared with the previous
    run (CL920 / CL921 at the kernel's name until the next edit, the lens's title)."""
    job = _job(ls, uri)
    if isinstance(job, dict):
        return _show(ls, "run", job, kernel)
    lock = ls.device.locks.setdefault(uri, asyncio.Lock())
    async with lock:
        # The version on the host thread, after the edits queued before this save (an edit's
        # didChange is applied there): read here on the loop, a save right after an edit
        # could see the version before it, and the run's CL920/CL921 be dropped as stale.
        version = await ls.on_host(_version_of, ls, uri)
        try:
            outcome = await _pooled(ls, device.run_job, job, kernel, via)
        except Exception as exc:  # RunnerError (bad description, launch refused), no pyopencl
            return _show(ls, "run", device.error_json(exc), kernel)
        ls.device.titles.setdefault(job.path, {})[kernel] = outcome.title
        if await ls.on_host(_keep_run_diagnostics, ls, uri, version, kernel, outcome.diagnostics):
            await _republish(ls, uri)
        _refresh_lenses(ls)
        ls.protocol.notify(RUN_RECORDED, outcome.notice)
    return _show(ls, "run", outcome.result, kernel)


def _version_of(ls: CllintServer, uri: str) -> int | None:
    doc = ls.docs.get(uri)
    return doc.version if doc else None


def _keep_run_diagnostics(ls: CllintServer, uri: str, version: int | None, kernel: str,
                          diags: list[types.Diagnostic]) -> bool:
    """Host thread (ordered with edits): the kernel's CL920 / CL921, unless the buffer was edited
    since the run began; True when what is shown changed."""
    doc = ls.docs.get(uri)
    if doc is None or doc.version != version:
        return False
    kernels = ls.device.run_diags.setdefault(uri, {})
    if not diags and not kernels.get(kernel):
        return False
    kernels[kernel] = diags
    ls.device.generation += 1
    return True


async def list_runs(ls: CllintServer, uri: str | None, kernel: str | None) -> dict:
    path = uri_to_path(uri) if uri else None
    try:
        return await _pooled(ls, device.list_runs_job, str(path) if path else None, kernel or None)
    except Exception as exc:
        return device.error_json(exc)


def register_runner_commands(ls: CllintServer, aliases: bool = True) -> None:
    """The contract in server/device.py. `aliases`: also `cllint.build` and `cllint.selectDevice`,
    names the VS Code extension registers itself (the client would fail to register them twice)."""

    @ls.command(BUILD_COMMAND)
    async def build(ls: CllintServer, *args: Any) -> dict:
        return await build_on_device(ls, str(args[0]) if args else "")

    @ls.command(RUN_COMMAND)
    async def run(ls: CllintServer, *args: Any) -> dict:
        return await run_kernel(ls, str(args[0]) if args else "", str(args[1]) if len(args) > 1 else "")

    @ls.command(LIST_DEVICES_COMMAND)
    async def devices(ls: CllintServer, *args: Any) -> list[dict] | dict:
        return await list_devices(ls)

    @ls.command(LIST_RUNS_COMMAND)
    async def runs(ls: CllintServer, *args: Any) -> dict:
        return await list_runs(ls, str(args[0]) if args and args[0] else None,
                               str(args[1]) if len(args) > 1 and args[1] else None)

    if aliases:
        register_alias_commands(ls)


def register_alias_commands(ls: CllintServer) -> None:
    @ls.command(BUILD_ALIAS)
    async def build_alias(ls: CllintServer, *args: Any) -> dict:
        return await build_on_device(ls, str(args[0]) if args else "")

    @ls.command(SELECT_DEVICE_COMMAND)
    def select_device(ls: CllintServer, *args: Any) -> dict:
        ls.device.selected = device.selector(str(args[0])) if args and args[0] is not None else None
        return {"ok": True, "device": ls.device.selected}


async def on_save(ls: CllintServer, uri: str) -> None:
    """Build on save (device diagnostics published beside the static ones) and run on save
    (each kernel with a `// cllint-run:` annotation); both off by default, never untrusted.
    One at a time per file: a save while its runs are under way queues one more round, which
    reads the file as it is then (the latest text); more saves meanwhile add nothing."""
    ls.device.build_diags.pop(uri, None)
    e = ls.editor
    if not (e.build_on_save or e.run_on_save) or not ls.trusted():
        return
    if uri in ls.device.running:
        ls.device.queued.add(uri)
        return
    ls.device.running.add(uri)
    try:
        while True:
            ls.device.queued.discard(uri)
            await _save_round(ls, uri)
            if uri not in ls.device.queued:
                break
    finally:
        ls.device.running.discard(uri)
        ls.device.queued.discard(uri)


async def _save_round(ls: CllintServer, uri: str) -> None:
    e = ls.editor
    if not (e.build_on_save or e.run_on_save) or not ls.trusted():
        return
    job = _job(ls, uri)
    if isinstance(job, dict):
        return
    version = await ls.on_host(_version_of, ls, uri)  # after the edits queued before the save
    if e.build_on_save:
        try:
            result, lsp = await _pooled(ls, device.build_job, job)
        except Exception as exc:
            result, lsp = device.error_json(exc), []
        now = await ls.on_host(_version_of, ls, uri)
        if version is not None and now == version:  # not edited meanwhile
            ls.device.generation += 1
            ls.device.build_diags[uri] = (ls.device.generation, [d for u, d in lsp if u == Path(job.path).as_uri()])
            await _republish(ls, uri)
        if "error" in result or not result.get("ok"):
            _show(ls, "build", result)
        if not result.get("ok"):
            return
    if e.run_on_save:
        text = await asyncio.to_thread(Path(job.path).read_text, errors="replace")
        for kernel in device.annotated_kernels(text):
            await run_kernel(ls, uri, kernel, "save")


async def _republish(ls: CllintServer, uri: str) -> None:
    result = await ls.on_host(ls.analyse_and_push, uri)
    if result is None:
        return
    caps = ls.client_capabilities.workspace
    if ls.diagnostic_mode != "push" and caps is not None and caps.diagnostics and caps.diagnostics.refresh_support:
        ls.workspace_diagnostic_refresh(None)
