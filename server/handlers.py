"""LSP handlers: each turns params into (document, byte offset), makes one call into the
pure features (analysis/ide/) on the worker thread, and converts the answer back."""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from cllint.analysis.ide.navigation import valid_name
from cllint.server import features as f
from cllint.server.lsp import uri_to_path, SECTION, CllintServer

TOKEN_LEGEND = types.SemanticTokensLegend(token_types=list(f.TOKEN_TYPES), token_modifiers=list(f.TOKEN_MODIFIERS))


def create_server() -> CllintServer:
    ls = CllintServer()
    ls.warm_up()
    _register_sync(ls)
    _register_features(ls)
    f.register_runner_commands(ls, aliases=False)  # the aliases: at initialize, by client
    return ls


def _register_sync(ls: CllintServer) -> None:
    @ls.feature(types.INITIALIZE)
    def initialize(ls: CllintServer, params: types.InitializeParams) -> None:
        opts = params.initialization_options if isinstance(params.initialization_options, dict) else {}
        ls.debounce_s = float(opts.get("debounceMs", ls.debounce_s * 1000)) / 1000
        ls.diagnostic_mode = str(opts.get("diagnosticMode", ls.diagnostic_mode))
        ls.device.trusted = opts.get("trusted") is not False  # LSP has no trust flag; CLI-started: trusted
        ls.loop = asyncio.get_running_loop()
        if not _registers_own_commands(params.client_info):
            f.register_alias_commands(ls)
        if "settings" in opts:
            ls.apply_settings(opts["settings"])
        ls.read_workspace()  # the first file opened finds its program read or under way

    @ls.feature(types.INITIALIZED)
    async def initialized(ls: CllintServer, params: types.InitializedParams) -> None:
        ls.warm_when_idle()
        await f.pull_configuration(ls)

    @ls.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: CllintServer, params: types.DidChangeConfigurationParams) -> None:
        section = params.settings.get(SECTION) if isinstance(params.settings, dict) else None
        if section is not None:
            ls.apply_settings(section)
        else:
            await f.pull_configuration(ls)

    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CllintServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        ls.submit(ls.open_document, doc.uri, doc.version, doc.text)
        ls.schedule(doc.uri, doc.version)

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CllintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.submit(ls.change_document, params)
        ls.schedule(params.text_document.uri, params.text_document.version)

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CllintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.cancel(uri)
        ls.submit(ls.close_document, uri)
        ls.submit(ls.clear, uri)  # after any push of it the worker makes

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: CllintServer, params: types.DidSaveTextDocumentParams) -> None:
        if (path := uri_to_path(params.text_document.uri)) is not None:
            ls.submit(ls.files_changed, [path])  # what the file defines, for its program's other sources
            for uri in list(ls.docs):
                ls.schedule(uri)
        await f.on_save(ls, params.text_document.uri)

    @ls.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: CllintServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths = [p for c in params.changes if (p := uri_to_path(c.uri)) is not None]
        if paths:
            ls.submit(ls.files_changed, paths)
            for uri in list(ls.docs):
                ls.schedule(uri)

    @ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(identifier=SECTION, inter_file_dependencies=False, workspace_diagnostics=False))
    async def diagnostic(ls: CllintServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        report = await ls.on_host(ls.pull, params.text_document.uri, params.previous_result_id)
        return report or types.RelatedFullDocumentDiagnosticReport(items=[])


def _registers_own_commands(info: types.ClientInfo | None) -> bool:
    """VS Code and its forks register `cllint.build` / `cllint.selectDevice` themselves;
    advertising them too makes vscode-languageclient fail ("command already exists")."""
    name = (info.name if info else "").lower()
    return any(k in name for k in ("code", "codium", "cursor", "windsurf"))


def _register_features(ls: CllintServer) -> None:
    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    async def code_action(ls: CllintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        return await ls.on_host(f.code_actions, ls, params)

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: CllintServer, params: types.HoverParams) -> types.Hover | None:
        return await ls.on_host(f.hover, ls, params.text_document.uri, params.position)

    @ls.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    async def inlay_hint(ls: CllintServer, params: types.InlayHintParams) -> list[types.InlayHint] | None:
        return await ls.on_host(f.inlay_hints, ls, params.text_document.uri, params.range)

    @ls.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[".", "#", "(", " "]))
    async def completion(ls: CllintServer, params: types.CompletionParams) -> types.CompletionList | None:
        return await ls.on_host(f.completion, ls, params.text_document.uri, params.position)

    @ls.feature(types.TEXT_DOCUMENT_SIGNATURE_HELP,
                types.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]))
    async def signature_help(ls: CllintServer, params: types.SignatureHelpParams) -> types.SignatureHelp | None:
        return await ls.on_host(f.signature_help, ls, params.text_document.uri, params.position)

    @ls.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbol(ls: CllintServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol] | None:
        return await ls.on_host(f.document_symbols, ls, params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: CllintServer, params: types.DefinitionParams) -> types.Location | list[types.Location] | None:
        return await ls.on_host(f.definition, ls, params.text_document.uri, params.position)

    @ls.feature(types.TEXT_DOCUMENT_DECLARATION)
    async def declaration(ls: CllintServer, params: types.DeclarationParams) -> types.Location | list[types.Location] | None:
        return await ls.on_host(f.declaration, ls, params.text_document.uri, params.position)

    @ls.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: CllintServer, params: types.ReferenceParams) -> list[types.Location] | None:
        return await ls.on_host(f.references, ls, params.text_document.uri, params.position,
                                params.context.include_declaration)

    @ls.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: CllintServer, params: types.PrepareRenameParams) -> types.PrepareRenameResult | None:
        return await ls.on_host(f.prepare_rename, ls, params.text_document.uri, params.position)

    @ls.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    async def rename(ls: CllintServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        if not valid_name(params.new_name):
            raise JsonRpcInvalidParams(message=f"'{params.new_name}' is not a valid identifier")
        return await ls.on_host(f.rename, ls, params.text_document.uri, params.position, params.new_name)

    @ls.feature(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(ls: CllintServer, params: types.WorkspaceSymbolParams) -> list[types.WorkspaceSymbol]:
        return await ls.on_host(f.workspace_symbols, ls, params.query) or []

    @ls.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def highlight(ls: CllintServer, params: types.DocumentHighlightParams) -> list[types.DocumentHighlight] | None:
        return await ls.on_host(f.highlights, ls, params.text_document.uri, params.position)

    @ls.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding_range(ls: CllintServer, params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
        return await ls.on_host(f.folding_ranges, ls, params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, TOKEN_LEGEND)
    async def semantic_tokens(ls: CllintServer, params: types.SemanticTokensParams) -> types.SemanticTokens | None:
        return await ls.on_host(f.semantic_tokens, ls, params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_CODE_LENS)
    async def code_lens(ls: CllintServer, params: types.CodeLensParams) -> list[types.CodeLens] | None:
        return await ls.on_host(f.code_lenses, ls, params.text_document.uri)
