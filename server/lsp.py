"""The language server: document sync into the analysis Host, diagnostics (pushed and
pulled), configuration. Feature handlers live in server/handlers.py.

Threading: every Host call (edits, snapshots, analysis) runs on one worker thread, in
submission order, so the event loop keeps reading messages and trees are never edited
while a snapshot of them is being read. Analysis is debounced per document and checks
the version before and after running: only the latest version is ever analysed/published.
Pushed diagnostics are written by that thread too (over stdio; through the event loop on
other transports), so they leave in its order with no hop back to the loop.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import json
import logging
import os
import stat
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import FeatureNotificationError, JsonRpcException
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import LanguageServerProtocol, lsp_method
from pygls.workspace import TextDocument

from cllint import __version__
from cllint.analysis.database import use as use_database
from cllint.analysis.db import Change, Host
from cllint.analysis.diagnostics import Diagnostic, FileId
from cllint.analysis.lint import LintOptions
from cllint.includes import MAX_INCLUDE_BYTES, Stamp, stamp_of
from cllint.results_cache import cache_dir, code_stamp, entry_key, load, store
from cllint.server import convert, embedded, jsonrpc
from cllint.server.change_params import change_params
from cllint.server.compiler import CompilerCheck, to_texts
from cllint.server.device import DeviceSession
from cllint.server.settings import EditorSettings, from_json, lint_options

log = logging.getLogger("cllint.server")
T = TypeVar("T")
SECTION = "cllint"
DEFAULT_DEBOUNCE_S = 0.0  # the edits of a burst are read before the analysis task first runs
SWITCH_INTERVAL_S = 0.0005
# Files that keep a syntax tree (2.8 MiB for darktable's 3,000-line, 91 KB basic.cl, the
# largest thing per file): the ones being edited or read, at most 12 and at most about 16 MiB
# of trees (512 KB of their texts: five such files, fifty of 10 KB); the others keep text and
# results and are reparsed when used again (20 ms for that file).
TREE_CAPACITY = 12
TREE_TEXT_BUDGET = 512 * 1024
_CANDIDATES_MAX = 4096  # `#include`s whose search paths are kept (a few per include of each open file)


@dataclass
class Document:
    version: int
    index: convert.LineIndex
    path: Path | None
    published: convert.JsonCache = field(default_factory=convert.JsonCache)


@dataclass
class Result:
    version: int
    diagnostics: list[Diagnostic]
    texts: list[str]  # the LSP diagnostics as published, in JSON (server/convert.py, JsonCache)
    _lsp: list[types.Diagnostic] | None = None
    first: bool = False  # the document's first analysis (an open): a rehearsal follows (CllintServer)

    @property
    def lsp(self) -> list[types.Diagnostic]:
        """As lsprotocol objects, for pulls and code actions (made when first asked for)."""
        if self._lsp is None:
            self._lsp = [convert.from_lsp_json(json.loads(t)) for t in self.texts]
        return self._lsp

    def result_id(self, uri: str) -> str:
        return f"{uri}@{self.version}"


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


class _PipeReader:
    """pygls's AsyncReader over an asyncio StreamReader: b"" at the end of input."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def readline(self) -> bytes:
        return await self._reader.readline()

    async def readexactly(self, n: int) -> bytes:
        try:
            return await self._reader.readexactly(n)
        except asyncio.IncompleteReadError as exc:
            return exc.partial


class CllintProtocol(LanguageServerProtocol):
    """pygls's protocol, less its own copy of each document's text: pygls re-splits the
    whole document per change, which costs more than analysing the edit, and its copy
    made on didOpen was a second copy of every open file (9 MiB for 100 files of 91 KB)
    that nothing reads. The server keeps the text (Document.index); a change it cannot
    apply is replayed from its own last text (CllintServer._resync)."""

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield user_handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None

    # -- every request answered (server/jsonrpc.py) --------------------------------------

    def structure_message(self, data: dict[str, Any]) -> Any:
        """The object hook of `json.loads`, called for every JSON object, innermost first:
        objects stay plain here and the whole message is structured in handle_message,
        where a failure can still be answered."""
        return data

    def handle_message(self, message: Any) -> None:
        if isinstance(message, dict) and message.get("method") == types.TEXT_DOCUMENT_DID_CHANGE \
                and self._did_change(message):
            return
        try:
            structured = super().structure_message(message) if isinstance(message, dict) else None
        except JsonRpcException as exc:
            self._unreadable(message, exc)
            return
        if structured is None or isinstance(structured, dict):  # not an object, or no "jsonrpc"
            self._unreadable(message, None)
            return
        if self._shutdown and jsonrpc.is_request(message) and message["method"] != types.EXIT:
            self._send_data(jsonrpc.error(jsonrpc.message_id(message), jsonrpc.INVALID_REQUEST,
                                          "the server is shutting down"))
            return
        super().handle_message(structured)

    def _did_change(self, message: dict[str, Any]) -> bool:
        """A keystroke's notification handed to the server's handler directly, as pygls would
        after structuring it (server/change_params.py); False: pygls's path takes it."""
        if "id" in message or message.get("jsonrpc") != jsonrpc.VERSION or self._shutdown:
            return False
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        params = change_params(message.get("params")) if handler is not None else None
        if params is None:
            return False
        try:
            handler(params)
        except Exception as error:  # as pygls reports a notification handler's failure
            log.exception("Failed to handle notification %r", types.TEXT_DOCUMENT_DID_CHANGE)
            self._server._report_server_error(error, FeatureNotificationError)
        return True

    def _unreadable(self, message: Any, exc: JsonRpcException | None) -> None:
        answer = jsonrpc.answer_for(message, exc)
        if answer is not None:
            self._send_data(answer)
        what = message.get("method", "a response") if isinstance(message, dict) else type(message).__name__
        log.warning("cllint: dropped an unreadable message (%s): %s", what,
                    answer["error"]["message"] if answer else exc)


# How long, from the start of its reading, any file of a workspace waits for it, the first one
# included: a file judged without its program gets the flood the program explains (PoCL on a
# loaded machine: 101 CL002, 49 CL301 on the first files opened while its 3.5 s read ran; TNN's
# first file, 12 CL001, when the first waited only 3 s).
PROJECT_PATIENCE_S = 15.0
# After `initialized`, how long the server waits for a file before it lints a sample to load
# the rest of the analyses: clients open the files they restore right away.
WARM_SAMPLE_AFTER_S = 0.25
# After a document's first diagnostics, how long the server waits for a keystroke before it
# rehearses one (Host.rehearse): a user reads a file before typing in it, and an edit that
# comes first does the same work itself.
REHEARSE_AFTER_S = 0.2


class CllintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("cllint", __version__, protocol_cls=CllintProtocol)
        self.host = Host(include_resolver=self.resolve_include, tree_capacity=TREE_CAPACITY,
                         tree_text_budget=TREE_TEXT_BUDGET)
        # The analysis thread reads the host's database (analysis/database.py) in every task.
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="cllint-host", initializer=use_database,
                                         initargs=(self.host.db,))
        self.docs: dict[str, Document] = {}  # touched on the worker thread only
        self.results: dict[str, Result] = {}
        self.pending: dict[str, asyncio.Task] = {}
        # Per document, how often it was scheduled or closed (event loop): an analysis pushes its
        # result only if none came since (a newer edit's analysis will).
        self._generations: dict[str, int] = {}
        self.editor = EditorSettings()
        self.debounce_s = DEFAULT_DEBOUNCE_S
        self.diagnostic_mode = "auto"  # "push" | "pull" | "both" | "auto"
        self.analyses = 0  # analyses actually run (tests check coalescing)
        self.device = DeviceSession()  # runner glue: session device, device diagnostics, target cache
        self.loop: asyncio.AbstractEventLoop | None = None
        self.collector = Collector(self.submit)
        self._disk = _HeaderCache()
        self._candidates: dict[tuple, tuple[tuple[Path, str], ...]] = {}  # _include_candidates (worker thread)
        # Include paths read (with their stamps) while a document's first analysis runs, for
        # the result kept on disk; None between first analyses (worker thread only).
        self._probes: dict[str, Stamp] | None = None
        self._probed_open = False  # an include was read from an open buffer: keep nothing
        self._projects: dict[Path, Any] = {}  # workspace root -> cllint.project.model.Project
        self._pending_project: dict[Path, Any] = {}  # read in the background, not yet taken
        self._waiting: set[Path] = set()  # roots whose first request waits for the project
        self._reading: dict[Path, tuple[threading.Event, float]] = {}  # read under way: its end, its start
        self._started: set[Path] = set()  # roots whose read has started (at initialize or a first file)
        self._project_lock = threading.Lock()
        self.compiler = CompilerCheck(self)  # clang in the background (CL099)
        self._kernels: embedded.EmbeddedHost | None = None  # kernels of host buffers, made on first use
        self._warm_state = "cold"  # "warming": the sample lint is queued; "settled": a file came first
        self.rehearse_after_s = REHEARSE_AFTER_S
        self.rehearsals = 0  # rehearsals actually run (tests)
        self._rehearsal: asyncio.TimerHandle | None = None  # the one waiting for a pause (event loop)

    # -- transport --------------------------------------------------------------------

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Stdio as pygls serves it, but read by the event loop itself: pygls reads each
        header line and body through a thread-pool hop, about 2 ms a message, which is a
        tenth of a keystroke's budget. Anything but a pipe, socket or terminal (a regular
        file on stdin) keeps pygls's reader."""
        stdin = stdin or sys.stdin.buffer
        try:
            mode = os.fstat(stdin.fileno()).st_mode
        except (OSError, ValueError, AttributeError):
            mode = 0
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)):
            super().start_io(stdin, stdout)
            return
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        # The worker thread analyses while the event loop reads the next message: a thread
        # waiting for the GIL gets it after this interval (CPython's default is 5 ms, a
        # quarter of a keystroke's budget). The loop mostly sleeps in epoll, so this costs
        # nothing while nobody waits.
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        try:
            asyncio.run(self._serve_pipe(stdin))
        except BrokenPipeError:
            log.error("the client closed the connection; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def _serve_pipe(self, stdin: BinaryIO) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=1 << 30)  # a 5 MB didOpen is one body
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
        await run_async(stop_event=self._stop_event, reader=_PipeReader(reader), protocol=self.protocol,
                        logger=log, error_handler=self.report_server_error)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A body that is not JSON gets JSON-RPC's parse error (id null) rather than a pop-up."""
        if isinstance(error, json.JSONDecodeError):
            self.protocol._send_data(jsonrpc.error(None, jsonrpc.PARSE_ERROR, f"parse error: {error}"))
            return
        super().report_server_error(error, source)

    # -- worker plumbing --------------------------------------------------------------

    def _guarded(self, fn: Callable[..., T], *args: Any) -> T | None:
        try:
            return fn(*args)
        except Exception:  # never let user input kill the worker
            log.exception("cllint: %s failed", getattr(fn, "__name__", fn))
            return None

    def warm_up(self) -> None:
        """Load what every first lint needs (rules, catalogue, queries, the code stamp of the
        results kept on disk) on the worker while the client is still starting. Linting a
        sample, which loads the rest, waits for a pause after `initialized` (warm_when_idle):
        a file the client opens at once is analysed first and loads what it needs itself, not
        queued behind the sample (issue 32: 100-200 ms of the first file's diagnostics)."""
        self.submit(_prepare)

    def warm_when_idle(self) -> None:
        """At `initialized`: the sample lint, unless a file comes within WARM_SAMPLE_AFTER_S."""
        if self.loop is not None:
            self.loop.call_later(WARM_SAMPLE_AFTER_S, self._warm_if_idle)

    def _warm_if_idle(self) -> None:
        if self._warm_state == "cold" and not self.pending and not self.results:
            self._warm_state = "warming"
            self.submit(_warm_up, self.collector)

    def _settle_after_first(self) -> None:
        """After the first analysis, when it came before the sample: the collector takes over
        the full passes, as after a warm-up (event loop)."""
        if self._warm_state == "cold":
            self._warm_state = "settled"
            self.submit(_settle, self.collector)

    def submit(self, fn: Callable[..., T], *args: Any) -> Future:
        return self.worker.submit(self._guarded, fn, *args)

    async def on_host(self, fn: Callable[..., T], *args: Any) -> T | None:
        return await asyncio.wrap_future(self.submit(fn, *args))

    # -- includes (called on the worker thread, while a snapshot builds a preprocessor view) --

    def resolve_include(self, name: str, angled: bool, including: FileId) -> tuple[FileId, bytes] | None:
        """`#include` text -> (file URI, contents): the including file's folder first (quoted
        includes), then the `includePaths` setting; an open document's buffer wins over the disk."""
        for path, uri in self._include_candidates(name, angled, including):
            if (doc := self.docs.get(uri)) is not None:
                self._probed_open = True
                return uri, doc.index.text
            if self._probes is not None:  # stamped before the read: a change after it is a miss later
                self._probes[str(path)] = stamp_of(path)
            data = self._disk.read(path)
            if data is not None:
                return uri, data
        return None

    def _include_candidates(self, name: str, angled: bool, including: FileId) -> tuple[tuple[Path, str], ...]:
        """The paths (with their URIs) an `#include` may name, in search order: the same on every
        keystroke, which resolves each of the file's includes a few times (view, header closure)."""
        key = (name, angled, including, self.editor.include_paths)
        found = self._candidates.get(key)
        if found is not None:
            return found
        base = uri_to_path(including) if "://" in including else Path(including)
        folders = [base.parent] if base is not None and not angled else []
        folders += [Path(p) for p in self.editor.include_paths]
        paths = [Path(os.path.normpath(folder / name)) for folder in folders]
        found = tuple((path, path.as_uri()) for path in paths if path.is_absolute())
        if len(self._candidates) >= _CANDIDATES_MAX:
            self._candidates.clear()
        self._candidates[key] = found
        return found

    def read_file(self, uri: FileId) -> bytes | None:
        """An open document's text, else the file's bytes on disk (for converting offsets)."""
        if (doc := self.docs.get(uri)) is not None:
            return doc.index.text
        path = uri_to_path(uri) if "://" in uri else Path(uri)
        try:
            return path.read_bytes() if path is not None and path.is_file() else None
        except OSError:
            return None

    # -- kernels inside host buffers (worker thread) ------------------------------------

    @property
    def kernels(self) -> embedded.EmbeddedHost:
        if self._kernels is None:
            self._kernels = embedded.new_host(self.resolve_include)
        return self._kernels

    def host_kernels(self, uri: str, options: LintOptions | None = None) -> embedded.HostKernels | None:
        """The kernels of a Python or C/C++ buffer at its current version (found once per version)."""
        doc = self.docs.get(uri)
        if doc is None or not embedded.is_host_document(uri):
            return None
        if (found := self.kernels.get(uri, doc.version)) is not None:  # settings changes drop these
            return found
        return embedded.kernels(self.kernels, uri, doc.version, doc.index.text,
                                options or self.options_for(doc.path), self.editor)

    # -- settings ---------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        enc = getattr(self.workspace, "position_encoding", None) if self.protocol._workspace else None
        return str(enc.value if hasattr(enc, "value") else enc or convert.UTF16)

    def options_for(self, path: Path | None, text: bytes | None = None) -> LintOptions:
        """`text`: the buffer's, read for its program where the file is on no disk."""
        try:
            options = lint_options(path, self.editor, self.device.device_reader(self._device_target_ready))
        except Exception as exc:  # a bad config file or target: say so, lint with defaults
            self.window_log_message(types.LogMessageParams(types.MessageType.Warning, f"cllint: {exc}"))
            return LintOptions(budget=self.editor.budget_s)
        return self.program_of(path, options, text)

    # -- the project model (worker thread): each file read through its program, as `cllint check` --

    def _roots(self) -> list[Path]:
        roots: list[Path] = []
        if self.protocol._workspace is not None:
            for folder in (self.workspace.folders or {}).values():
                if (p := uri_to_path(folder.uri)) is not None:
                    roots.append(p)
            if not roots and self.workspace.root_path:
                roots.append(Path(self.workspace.root_path))
        return roots

    def project_for(self, path: Path) -> Any:
        """The project of `path`'s workspace folder, or None while it is first read (in the
        background: a large workspace must not hold back the first diagnostics); a file outside
        every folder gets one of its own folder's files, read at once."""
        from cllint.project.model import Project

        root = self._root_of(path)
        if root is not None:
            if root not in self._projects:
                self._projects[root] = None
                with self._project_lock:
                    self._start_reading(root)  # unless `initialize` started it
                    done, started = self._reading.get(root, (None, 0.0))
                # Most workspaces are read in well under this: their first diagnostics come
                # through their programs, with no flood that then goes away.
                if done is not None:
                    done.wait(max(0.0, PROJECT_PATIENCE_S - (time.monotonic() - started)))
                with self._project_lock:
                    self._waiting.discard(root)
                    self._projects[root] = self._pending_project.pop(root, None)
            elif self._projects[root] is None and root in self._reading:
                # A later file while the read goes on waits too, within the patience left.
                done, started = self._reading[root]
                if done.wait(max(0.0, PROJECT_PATIENCE_S - (time.monotonic() - started))):
                    with self._project_lock:
                        got = self._pending_project.pop(root, None)
                    if got is not None:
                        self._projects[root] = got
            return self._projects[root]
        key = path.parent
        if key not in self._projects or self._projects[key] is None:
            self._projects[key] = Project([], [path])
        elif path.resolve() not in self._projects[key].extra:
            self._projects[key] = Project([], [*self._projects[key].extra, path])
        return self._projects[key]

    def _root_of(self, path: Path) -> Path | None:
        """The workspace folder holding `path`, if any."""
        return next((r for r in self._roots() if path.is_relative_to(r)), None)

    def _still_read(self, path: Path) -> bool:
        """Whether the workspace folder of `path` is being read now (not failed, not done)."""
        root = self._root_of(path)
        reading = self._reading.get(root) if root is not None else None
        return reading is not None and not reading[0].is_set()

    def read_workspace(self) -> None:
        """At `initialize`: start reading each workspace folder, so that the first file opened
        finds its program read, or under way, rather than starting the read itself."""
        if not self.editor.project_model:
            return
        with self._project_lock:
            for root in self._roots():
                self._start_reading(root)

    def _start_reading(self, root: Path) -> None:
        """A background read of `root`, once per server (called holding _project_lock); its
        result waits in _pending_project for the first file of the folder."""
        if root in self._started:
            return
        self._started.add(root)
        done = threading.Event()
        self._waiting.add(root)
        self._reading[root] = (done, time.monotonic())
        threading.Thread(target=self._read_project, args=(root, done), daemon=True, name="cllint-project").start()

    def _read_project(self, root: Path, done: threading.Event) -> None:
        """Background thread: index the workspace folder. Read within PROJECT_PATIENCE_S, the
        first request takes it; later, the worker thread takes it and re-lints the open files
        whose program it changes."""
        from cllint.project.model import OPENCL_SUFFIXES, Project

        started = time.monotonic()
        try:
            project = Project([root])
            project.contexts([p for p in project.files if p.suffix in OPENCL_SUFFIXES])
        except Exception as exc:  # files are then judged alone, as without the model
            self.window_log_message(types.LogMessageParams(types.MessageType.Warning,
                                                           f"cllint: cannot read the workspace {root}: {exc}"))
            self._reading.pop(root, None)
            done.set()
            return
        # (said to the client's log: a large workspace's programs come this late)
        self.window_log_message(types.LogMessageParams(
            types.MessageType.Log, f"cllint: workspace read: {root} ({len(project.files)} files, "
                                   f"{time.monotonic() - started:.1f} s)"))
        with self._project_lock:
            self._pending_project[root] = project
            done.set()  # a request waiting (the first, or a later one within the patience) takes it
            if root in self._waiting:
                return

        def ready() -> None:
            with self._project_lock:
                got = self._pending_project.pop(root, None)
            if got is not None:
                self._projects[root] = got
                self.files_changed([])

        self.submit(ready)
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(lambda: [self.schedule(uri) for uri in list(self.docs)])

    def program_of(self, path: Path | None, options: LintOptions, text: bytes | None = None) -> LintOptions:
        """`options` with the file's program: sources read before it, host `-D` names, inferred
        include folders (cllint/project/model.py); unchanged when the project cannot be read."""
        if path is None or not self.editor.project_model:
            return options
        try:
            from cllint.project.model import apply_configured, configured_program
            from cllint.server.settings import file_settings

            settings = file_settings(path)
            configured = configured_program(settings.programs, path) if settings.programs else None
            if configured is not None:  # a `[[program]]` says how the host builds it
                return apply_configured(*configured, options, settings)
            project = self.project_for(path)
            if project is None and self._still_read(path):
                # judged before its program is known: any name may be the program's (a host
                # `-D`, a sibling's), so none is reported until the read lands and re-lints it
                from cllint.project.model import ProgramContext

                return ProgramContext(host_macros=("*",)).apply(options)
            if project is None:
                return options
            if text is not None and _unsaved(path):  # read as `cllint check` reads the file alone
                return project.contexts([path], {path.resolve(): text})[path.resolve()].apply(options)
            return project.context(path).apply(options)
        except Exception as exc:  # a workspace that cannot be read must not stop the analysis
            self.window_log_message(types.LogMessageParams(types.MessageType.Warning,
                                                           f"cllint: project model: {exc}"))
            return options

    def files_changed(self, paths: list[Path]) -> None:
        """Files created, changed or deleted on disk: the programs that read them may change."""
        for project in self._projects.values():
            if project is not None and paths:
                project.changed(paths)
        snap = self.host.snapshot()
        opts = {}
        for uri, doc in self.docs.items():
            new = self.options_for(doc.path, doc.index.text)
            try:
                same = snap.options(uri) == new
            except KeyError:
                same = False
            if not same:
                opts[uri] = new
                self.results.pop(uri, None)
        if opts:  # only the files whose program changed are analysed again
            self.host.apply_change(Change(options=opts))

    def push_enabled(self) -> bool:
        if self.diagnostic_mode in ("push", "both"):
            return True
        if self.diagnostic_mode == "pull":
            return False
        caps = self.client_capabilities.text_document
        return caps is None or caps.diagnostic is None

    def _device_target_ready(self) -> None:
        """A `device:N` target was read (pool thread): re-lint every document with it."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._reanalyse_all)

    def _reanalyse_all(self) -> None:
        self.submit(self._reconfigure_all)
        for uri in list(self.docs):
            self.schedule(uri)

    def trusted(self) -> bool:
        return self.device.trusted and self.editor.trusted_workspace

    def apply_settings(self, raw: Any) -> None:
        self.editor = from_json(raw)
        self.submit(self._reconfigure_all)
        for uri in list(self.docs):
            self.schedule(uri)

    def _reconfigure_all(self) -> None:
        opts = {uri: self.options_for(doc.path, doc.index.text) for uri, doc in self.docs.items()}
        self.host.apply_change(Change(options=opts))
        self.results.clear()
        if self._kernels is not None:  # read again with the new options and settings
            for uri in list(self.docs):
                self._kernels.close(uri)

    # -- document sync (worker thread) ------------------------------------------------

    def open_document(self, uri: str, version: int, text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        path = uri_to_path(uri)
        self.docs[uri] = Document(version, convert.LineIndex(data, self.encoding), path)
        self.results.pop(uri, None)
        if embedded.is_host_document(uri):  # Python or C/C++: only its kernels are linted
            return
        self.host.apply_change(Change(files={uri: data}, options={uri: self.options_for(path, data)}))

    def change_document(self, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = self.docs.get(uri)
        if doc is None:
            return
        doc.version = params.text_document.version
        self.device.drop(uri)  # device diagnostics hold until the next edit (the build's: or save)
        before = doc.index.text
        try:
            edits, full = convert.apply_changes(doc.index, list(params.content_changes))
            if embedded.is_host_document(uri):
                return
            options = {}
            if _unsaved(doc.path):  # its program is read from its text: each version's, when it moves
                new = self.options_for(doc.path, doc.index.text)
                try:
                    same = self.host.snapshot().options(uri) == new
                except KeyError:
                    same = False
                if not same:
                    options[uri] = new
            change = Change(files={uri: full}, options=options) if full is not None else \
                Change(edits={uri: edits}, options=options)
            self.host.apply_change(change)
        except Exception:
            log.exception("incremental edit failed; resynchronising %s", uri)
            self._resync(uri, doc, before, params)

    def _resync(self, uri: str, doc: Document, before: bytes, params: types.DidChangeTextDocumentParams) -> None:
        """The changes as pygls applies them, from the last text both sides agreed on."""
        copy = TextDocument(uri, before.decode("utf-8", "surrogatepass"), position_codec=self.workspace.position_codec)
        for change in params.content_changes:
            try:
                copy.apply_change(change)
            except Exception:  # noqa: BLE001 - a change nobody can apply: skip it, keep serving
                log.exception("dropping a change pygls cannot apply either: %s", uri)
        text = copy.source.encode("utf-8", "surrogatepass")
        doc.index = convert.LineIndex(text, self.encoding)
        if not embedded.is_host_document(uri):
            self.host.apply_change(Change(files={uri: text}))

    def close_document(self, uri: str) -> None:
        self.docs.pop(uri, None)
        self.results.pop(uri, None)
        self.device.drop(uri)
        if not embedded.is_host_document(uri):
            self.host.apply_change(Change(files={uri: None}))
        elif self._kernels is not None:
            self._kernels.close(uri)

    # -- diagnostics ------------------------------------------------------------------

    def analyse(self, uri: str, version: int | None = None) -> Result | None:
        """Diagnostics of the document's current version (None when `version` is stale)."""
        doc = self.docs.get(uri)
        if doc is None or (version is not None and doc.version != version):
            return None
        cached = self.results.get(uri)
        if cached is not None and cached.version == doc.version:
            return cached
        # Analysed before: this is an edit's analysis (see Collector).
        self.collector.before_analysis(keystroke=cached is not None)
        self.analyses += 1
        if embedded.is_host_document(uri):
            options = self.options_for(doc.path)
            diags = embedded.diagnostics(self.kernels, uri, doc.index.text, options, self.host_kernels(uri, options))
            diags = [*diags, *self._missing_listed(uri, doc.path, doc.index.text, options)]
            texts = doc.published.convert(diags, doc.index, self._index_for)
            result = Result(doc.version, diags, texts)
            self.results[uri] = result
            return result
        snap = self.host.snapshot()
        stored = self._stored(uri, snap) if cached is None else None
        if stored is not None:  # opened (or reconfigured) as it was before: what that gave, at once
            diags = stored
            self.submit(self._verify_stored, uri, doc.version, snap, stored)
        else:
            diags = self._diagnostics(uri, snap, keep=cached is None)
        texts = doc.published.convert(diags, doc.index, self._index_for)
        # A version with syntax errors is read from a fresh parse (Host reparse_broken):
        # what is published for it is what `cllint check` says of its text.
        result = Result(doc.version, diags, texts, first=cached is None)
        self.results[uri] = result
        return result

    def _missing_listed(self, uri: str, path: Path | None, text: bytes, options: LintOptions) -> list[Diagnostic]:
        """CL002 on a host buffer's lines whose list joins a file that does not exist, as
        `cllint check` reports them (cllint/project/listed_files.py), where the buffer's
        language is analysed."""
        if path is None or not self.editor.project_model or not embedded.enabled(uri, self.editor) \
                or "CL002" not in {r.code for r in options.rules()}:
            return []
        try:
            from cllint.project.listed_files import missing_reports

            project = self.project_for(path)
            entries = project.missing_files().get(path.resolve(), ()) if project is not None else ()
            return sorted(missing_reports(uri, text, entries), key=lambda d: (d.span.start, d.code))
        except Exception as exc:  # a workspace that cannot be read must not stop the analysis
            self.window_log_message(types.LogMessageParams(types.MessageType.Warning, f"cllint: project model: {exc}"))
            return []

    # -- a document's first diagnostics kept on disk (cllint/results_cache.py, worker thread) --

    def _stored(self, uri: str, snap: Any) -> list[Diagnostic] | None:
        """The diagnostics kept for this text, options and code, when no include they read
        has changed on disk since and none of them is open in an editor buffer now."""
        got = load(cache_dir("editor"), entry_key(uri, snap.text(uri), snap.options(uri)))
        if got is None or any(Path(p).as_uri() in self.docs for p in got[1]):
            return None
        return got[0]

    def _diagnostics(self, uri: str, snap: Any, keep: bool, kept: list[Diagnostic] | None = None) -> list[Diagnostic]:
        """`snap.diagnostics(uri)`; with `keep` (a first analysis) also kept on disk, with
        the include paths it read, unless one of them was an open buffer or `kept` (what
        the entry holds) is the same."""
        if not keep:
            return snap.diagnostics(uri)
        self._probes, self._probed_open = {}, False
        try:
            diags = snap.diagnostics(uri)
            probes = self._probes
        finally:
            self._probes = None
        if not self._probed_open and diags != kept:
            store(cache_dir("editor"), entry_key(uri, snap.text(uri), snap.options(uri)), diags, probes)
        return diags

    def _verify_stored(self, uri: str, version: int, snap: Any, stored: list[Diagnostic]) -> None:
        """The analysis a stored result stood in for: it fills the host's memos for the next
        edit, and is published in its place if it differs (a change no stamp told)."""
        doc = self.docs.get(uri)
        if doc is None or doc.version != version:
            return
        diags = self._diagnostics(uri, snap, keep=True, kept=stored)
        current = self.results.get(uri)
        if diags == stored or current is None or current.version != version:
            return
        result = Result(version, diags, doc.published.convert(diags, doc.index, self._index_for))
        self.results[uri] = result
        self.post(uri, result)

    def _index_for(self, file: str) -> convert.LineIndex | None:
        doc = self.docs.get(file)
        return doc.index if doc else None

    def schedule(self, uri: str, version: int | None = None) -> None:
        """Analyse `uri` after the debounce; a newer edit cancels what is still waiting."""
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.collector.busy()
        self._cancel_rehearsal()
        generation = self._generations[uri] = self._generations.get(uri, 0) + 1
        # No debounce: handed to the worker now, queued behind the edit, with no turn of the
        # event loop between them (issue 32); a newer edit read meanwhile supersedes it there.
        submitted = self.submit(self._analyse_and_post, uri, version, generation) if self.debounce_s <= 0 else None
        self.pending[uri] = asyncio.get_running_loop().create_task(
            self._analyse_later(uri, version, generation, submitted))

    def cancel(self, uri: str) -> None:
        """What waits for `uri` is dropped, and what runs is not pushed (a close: event loop)."""
        if (task := self.pending.pop(uri, None)) is not None:
            task.cancel()
        self._cancel_rehearsal()
        self._generations[uri] = self._generations.get(uri, 0) + 1

    async def _analyse_later(self, uri: str, version: int | None, generation: int,
                             submitted: Future | None = None) -> None:
        try:
            if submitted is None:
                await asyncio.sleep(self.debounce_s)
                submitted = self.submit(self._analyse_and_post, uri, version, generation)
            result = await asyncio.wrap_future(submitted)
            self._settle_after_first()
            if result is not None and not embedded.is_host_document(uri):
                self.compiler.schedule(uri, result.version)
                if result.first:
                    self._rehearse_after_pause(uri, result.version, generation)
            self.collector.after_analysis()
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("publishing diagnostics for %s failed", uri)
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    # -- the open's rehearsal (Host.rehearse) ------------------------------------------

    def _rehearse_after_pause(self, uri: str, version: int, generation: int) -> None:
        """After a document's first diagnostics (event loop): rehearse an edit of it unless
        anything is scheduled within `rehearse_after_s` (schedule and cancel call it off)."""
        self._cancel_rehearsal()
        if self.loop is not None:
            self._rehearsal = self.loop.call_later(self.rehearse_after_s, self._start_rehearsal, uri, version,
                                                   generation)

    def _cancel_rehearsal(self) -> None:
        if self._rehearsal is not None:
            self._rehearsal.cancel()
            self._rehearsal = None

    def _start_rehearsal(self, uri: str, version: int, generation: int) -> None:
        self._rehearsal = None
        if not self.pending:
            self.submit(self._rehearse, uri, version, generation)

    def _rehearse(self, uri: str, version: int, generation: int) -> None:
        """The rehearsal (worker thread), for the version whose diagnostics were published,
        unless the document was edited, closed or scheduled again since. It edits the host's
        copy and takes the edit back: the document, its version and its result stay."""
        doc = self.docs.get(uri)
        if doc is None or doc.version != version or self._generations.get(uri) != generation:
            return
        if not embedded.is_host_document(uri) and self.host.rehearse(uri):
            self.rehearsals += 1

    def _analyse_and_post(self, uri: str, version: int | None, generation: int) -> Result | None:
        """`analyse`, then the push (worker thread), unless the event loop has scheduled `uri`
        again since (a newer edit, whose analysis comes next: what a cancelled task dropped)."""
        if self._generations.get(uri) != generation:
            return None
        result = self.analyse(uri, version)
        if result is not None and self._generations.get(uri) == generation:
            self.post(uri, result)
        return result

    def post(self, uri: str, result: Result) -> None:
        """Pushes `result` (worker thread): written from here over stdio, no hop to the event
        loop on a keystroke's way (issue 32; the pipe's writer writes each message whole under
        its lock), else through the loop. Every push leaves from the worker, in its order."""
        if not self.push_enabled():
            return
        if isinstance(getattr(self.protocol, "writer", None), StdoutWriter):
            self.publish(uri, result)
        elif self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.publish, uri, result)

    def analyse_and_push(self, uri: str, version: int | None = None) -> Result | None:
        """`analyse`, then the push (worker thread): a re-publication (clang's or a device's results)."""
        result = self.analyse(uri, version)
        if result is not None:
            self.post(uri, result)
        return result

    def merged(self, uri: str, result: Result) -> tuple[list[types.Diagnostic], str]:
        """Static diagnostics plus the device build's (build on save), and their result id."""
        gen, extra = self.device.extra(uri)
        rid = result.result_id(uri)
        clang = [convert.from_lsp_json(json.loads(t)) for t in self.compiler.texts(uri, result.version)]
        if clang:
            rid += "+clang"
        return (result.lsp + clang + extra, f"{rid}+dev{gen}") if extra else (result.lsp + clang, rid)

    def publish(self, uri: str, result: Result) -> None:
        """The notification written as text made from each diagnostic's remembered JSON:
        pygls would unstructure every diagnostic through cattrs, then serialise them all."""
        _, extra = self.device.extra(uri)
        texts = result.texts + self.compiler.texts(uri, result.version)
        texts += [json.dumps(convert.lsp_to_json(d), separators=(",", ":")) for d in extra]
        self._write_diagnostics({"uri": uri, "version": result.version}, texts)

    def clear(self, uri: str) -> None:
        """No diagnostics for `uri` (a closed document; worker thread, after its last push)."""
        if isinstance(getattr(self.protocol, "writer", None), StdoutWriter):
            self._write_diagnostics({"uri": uri}, [])
        elif self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.text_document_publish_diagnostics,
                                           types.PublishDiagnosticsParams(uri, []))

    def _write_diagnostics(self, params: dict[str, Any], texts: list[str]) -> None:
        writer = getattr(self.protocol, "writer", None)
        if writer is None:
            return
        head = json.dumps({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                           "params": params}, separators=(",", ":"))
        # `{"jsonrpc":...,"params":{"uri":...,"version":N}}` + the diagnostics, spliced in
        body = (head[:-2] + ',"diagnostics":[' + ",".join(texts) + "]}}").encode("utf-8")
        try:
            res = writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            if inspect.isawaitable(res):  # a TCP connection's writer
                asyncio.ensure_future(res)
        except BrokenPipeError:
            log.error("the client closed the connection")

    # -- the clang layer (server/compiler.py) -----------------------------------------------

    def compiler_input(self, uri: str, version: int) -> tuple | None:
        """What clang needs for this version (worker thread), or None when it is stale."""
        doc, result = self.docs.get(uri), self.results.get(uri)
        if doc is None or doc.version != version or result is None or result.version != version:
            return None
        folder = doc.path.parent if doc.path is not None else None
        return uri, doc.index.text, self.options_for(doc.path), folder, result.diagnostics

    def compiler_texts(self, uri: str, version: int, diags: list[Diagnostic]) -> list[str] | None:
        doc = self.docs.get(uri)
        if doc is None or doc.version != version:
            return None
        return to_texts(diags, doc.index)

    async def republish(self, uri: str, version: int) -> None:
        """clang's results changed for this version: push them, or ask pull clients to pull."""
        result = await self.on_host(self.analyse_and_push, uri, version)
        if result is None:
            return
        caps = self.client_capabilities.workspace
        if self.diagnostic_mode != "push" and caps is not None and caps.diagnostics and caps.diagnostics.refresh_support:
            self.workspace_diagnostic_refresh(None)

    def pull(self, uri: str, previous: str | None) -> types.DocumentDiagnosticReport:
        result = self.analyse(uri)
        if result is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        items, rid = self.merged(uri, result)
        if previous == rid:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=rid)


class _HeaderCache:
    """Included files' bytes, read again only when their size, time or inode changed:
    every keystroke re-resolves the file's includes, and a stat costs a fraction of a read.
    A file changed in the last RACY_NS is always read: file times are coarser than two
    quick writes of the same size (git's "racily clean" rule)."""

    LIMIT = 256
    RACY_NS = 2_000_000_000

    def __init__(self) -> None:
        self._files: dict[Path, tuple[tuple[int, int, int], bytes]] = {}

    def read(self, path: Path) -> bytes | None:
        try:
            st = path.stat()
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_INCLUDE_BYTES:
            return None
        sig = (st.st_mtime_ns, st.st_size, st.st_ino)
        hit = self._files.get(path)
        if hit is not None and hit[0] == sig:
            return hit[1]
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if time.time_ns() - st.st_mtime_ns > self.RACY_NS:
            if len(self._files) >= self.LIMIT:
                self._files.clear()
            self._files[path] = (sig, data)
        return data


_SAMPLE = b"""#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef struct { float x; } pair_t;
#ifdef cl_khr_fp16
half h(half x) { return x; }
#endif
float helper(float *p) { return p[0] * 0.5; }
kernel void sample(global float *in, local float *tmp, image2d_t img, global double *d) {
    int i = get_local_id(0);
    float priv[4];
    tmp[i] = in[get_global_id(0)] + helper(priv);
    if (i < 4) barrier(CLK_LOCAL_MEM_FENCE);
    d[i] = (double)tmp[i];
}
"""


class Collector:
    """Garbage collection between keystrokes instead of during them.

    CPython collects its middle generation every 10 young collections, which during an
    analysis means a pause of up to 4 ms at one keystroke in ten (on a 3,000-line
    file). The worker collects it right after each analysis is published instead (what
    one keystroke left: well under a millisecond), which also resets CPython's count.
    The oldest generation is never collected automatically once the server is warm: a
    full pass takes 3 to 10 ms on a 3,000-line file, and CPython starts one from inside
    whichever keystroke's analysis tips its count, about one keystroke in ten. It runs
    after a publication instead, once the heap has grown by a quarter since the last
    one (CPython's own measure of when a full pass pays, read here from the allocated
    block count) or after MIDDLE_PASSES middle passes, and once the server has been idle
    for a while. A document's first analysis (an open) is a whole file's: it keeps
    CPython's schedule, so that many files opened at once never pile up garbage. The
    young generation stays CPython's: collecting it as it fills keeps a whole-file
    analysis's peak memory low."""

    IDLE_S = 2.0
    GROWTH = 1.25  # heap growth since the last full pass that calls for the next
    MIDDLE_PASSES = 25  # middle-generation passes since the last full pass that do too
    NEVER = 1 << 30  # a threshold for the oldest generation that is never reached
    CPYTHON_OLDEST = gc.get_threshold()[2]

    def __init__(self, submit: Callable[..., Future]) -> None:
        self._submit = submit
        self._idle: asyncio.TimerHandle | None = None
        self._blocks = sys.getallocatedblocks()  # after the last full pass
        self.enabled = False  # set once the warm-up has run

    def busy(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def before_analysis(self, keystroke: bool) -> None:
        """On the worker, before an analysis: full passes left to CPython unless it is a keystroke's."""
        if self.enabled:
            _oldest_threshold(self.NEVER if keystroke else self.CPYTHON_OLDEST)

    def after_analysis(self) -> None:
        if not self.enabled:
            return
        # Blocks miss what cycles hold outside Python's allocator (a dead syntax tree is
        # megabytes in C), so a long run of middle passes (a whole-file analysis makes
        # dozens) calls for a full pass too.
        full = sys.getallocatedblocks() > self._blocks * self.GROWTH or gc.get_count()[2] >= self.MIDDLE_PASSES
        self._submit(self._collect, 2 if full else 1)
        self.busy()
        self._idle = asyncio.get_running_loop().call_later(self.IDLE_S, self._submit, self._collect, 2)

    def _collect(self, generation: int) -> None:
        gc.collect(generation)
        if generation == 2:
            self._blocks = sys.getallocatedblocks()


def _oldest_threshold(threshold: int) -> None:
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, threshold)


def _prepare() -> None:
    """At server start, on the worker: what any first lint loads before its file's own work."""
    from cllint.analysis.catalogue import catalogue
    from cllint.analysis.model.walk import queries_at_once
    from cllint.analysis.registry import all_rules

    queries_at_once()  # this thread's queries, compiled on first use (see _lint_sample)
    code_stamp()
    all_rules()
    catalogue()
    # All this lives as long as the server: out of the collector's full passes. Imports
    # leave no garbage in cycles (a collection here finds none), so nothing dead is kept.
    gc.freeze()


def _lint_sample() -> None:
    # This thread analyses every document from now on: queries compiled here, at warm-up,
    # not walked around on a small sample and compiled during the first file opened.
    from cllint.analysis.model.walk import queries_at_once

    queries_at_once()
    code_stamp()  # the results kept on disk are keyed on the installed code: stat it once, here
    host = Host()
    host.set_file("cllint-warm-up.cl", _SAMPLE)
    host.snapshot().diagnostics("cllint-warm-up.cl")
    # What the warm-up loaded (catalogue, rules, queries) lives as long as the server:
    # keep it out of the collector's full passes, which otherwise pause a keystroke.
    gc.collect()
    gc.freeze()


def _warm_up(collector: Collector) -> None:
    _lint_sample()
    _settle(collector)


def _settle(collector: Collector) -> None:
    _oldest_threshold(Collector.NEVER)  # full passes: Collector's, between keystrokes
    collector._collect(2)
    collector.enabled = True


def _unsaved(path: Path | None) -> bool:
    """Whether `path` names an OpenCL source on no disk (an editor's new, unsaved buffer)."""
    from cllint.project.model import OPENCL_SUFFIXES

    return path is not None and path.suffix in OPENCL_SUFFIXES and not path.exists()
