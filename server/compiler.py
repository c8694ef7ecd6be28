"""The clang layer in the editor (CL099): clang runs once typing pauses, in a thread off
the event loop, and its errors join the document's diagnostics while its version holds.

Never in an untrusted workspace: clang would read whatever headers, include paths and
defines the workspace's files and configuration name.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from cllint import compiler
from cllint.server import convert

T = TypeVar("T")

log = logging.getLogger("cllint.server")
DEBOUNCE_S = 1.0  # after the last analysis of a burst of edits
TIMEOUT_S = 10.0


class _Settings(Protocol):
    compiler_check: str


class CompilerHost(Protocol):
    """What the check asks of the server (server/lsp.py's CllintServer, which imports this
    module: described here so that the dependency runs one way)."""

    editor: _Settings

    def trusted(self) -> bool: ...

    def on_host(self, fn: Callable[..., T], *args: Any) -> Awaitable[T | None]: ...

    def compiler_input(self, uri: str, version: int) -> tuple | None: ...

    def compiler_texts(self, uri: str, version: int, diags: list) -> list[str] | None: ...

    async def republish(self, uri: str, version: int) -> None: ...


class CompilerCheck:
    def __init__(self, server: CompilerHost) -> None:
        self.server = server
        self.tasks: dict[str, asyncio.Task] = {}
        self.found: dict[str, tuple[int, list[str]]] = {}  # uri -> (version, LSP JSON texts)

    def enabled(self) -> bool:
        return self.server.editor.compiler_check != "off" and self.server.trusted()

    def texts(self, uri: str, version: int) -> list[str]:
        """clang's diagnostics of `uri` when they were made from this version, else none."""
        at, texts = self.found.get(uri, (None, []))
        return texts if at == version else []

    def forget(self, uri: str) -> None:
        task = self.tasks.pop(uri, None)
        if task is not None:
            task.cancel()
        self.found.pop(uri, None)

    def schedule(self, uri: str, version: int) -> None:
        """Run clang on `version` after the pause; a newer analysis cancels what waits."""
        old = self.tasks.pop(uri, None)
        if old is not None:
            old.cancel()
        if not self.enabled():
            self.found.pop(uri, None)
            return
        self.tasks[uri] = asyncio.get_running_loop().create_task(self._run(uri, version))

    async def _run(self, uri: str, version: int) -> None:
        try:
            await asyncio.sleep(DEBOUNCE_S)
            job = await self.server.on_host(self.server.compiler_input, uri, version)
            if job is None:
                return  # edited or closed meanwhile
            run: Callable[[], Any] = lambda: _check(*job)  # noqa: E731
            diags = await asyncio.get_running_loop().run_in_executor(None, run)
            texts = await self.server.on_host(self.server.compiler_texts, uri, version, diags)
            if texts is None:
                return  # stale: a newer version's run replaces it
            before = self.texts(uri, version)
            self.found[uri] = (version, texts)
            if texts or before:
                await self.server.republish(uri, version)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("the clang check of %s failed", uri)
        finally:
            if self.tasks.get(uri) is asyncio.current_task():
                del self.tasks[uri]


def _check(file: str, source: bytes, options, folder, native) -> list:
    exe = compiler.find_clang()
    if exe is None:
        return []  # "auto": no clang, no layer
    return compiler.check(exe, file, source, options, folder, native, TIMEOUT_S)


def to_texts(diags: list, index: convert.LineIndex) -> list[str]:
    return [json.dumps(convert.to_lsp_json(d, index), separators=(",", ":")) for d in diags]
