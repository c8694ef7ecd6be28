"""CL012's quick fix: define the macro for the project, in the configuration `cllint check`
reads, instead of in the kernel (the host passes it with `-D`, the kernel must not).

The edit adds `"NAME"` (`-D NAME`, the value 1) to the top-level `define` array of the
nearest `.cllint.toml`, or of `[tool.cllint]` in a `pyproject.toml`; with no configuration it
creates `.cllint.toml` in the workspace folder. It is offered, never preferred: only the user
knows the value the host passes, so the action's title asks for it to be set.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from cllint.config import CONFIG_NAME, ConfigError, find_config

_TABLE = re.compile(r"^[ \t]*\[")
_DEFINE = re.compile(r"^[ \t]*define[ \t]*=[ \t]*\[")


def define_edit(config: Path | None, folder: Path, name: str) -> types.WorkspaceEdit:
    """The edit that defines `name`, in `config` (a `.cllint.toml` or a `pyproject.toml` with
    `[tool.cllint]`) or in a new `.cllint.toml` in `folder`."""
    if config is None:
        new = (folder / CONFIG_NAME).as_uri()
        return types.WorkspaceEdit(document_changes=[
            types.CreateFile(new, options=types.CreateFileOptions(ignore_if_exists=True)),
            types.TextDocumentEdit(types.OptionalVersionedTextDocumentIdentifier(new, None), [
                types.TextEdit(types.Range(types.Position(0, 0), types.Position(0, 0)),
                               f'# Macros the host passes with -D when it builds the kernels.\ndefine = ["{name}"]\n')]),
        ])
    lines = config.read_text(encoding="utf-8", errors="replace").split("\n")
    start, end = _table(lines, config.name != CONFIG_NAME)
    for i in range(start, end):
        m = _DEFINE.match(lines[i])
        if m is not None:  # (code units: ASCII up to the bracket)
            at = types.Position(i, m.end())
            rest = lines[i][m.end():].strip()
            text = f'"{name}"' + ("" if rest.startswith("]") else ", ")
            return _at(config, at, text)
    # no `define` yet: first in its table (a top-level key must come before any table)
    return _at(config, types.Position(start, 0), f'define = ["{name}"]\n')


def _table(lines: list[str], pyproject: bool) -> tuple[int, int]:
    """Line range of cllint's keys: the file's top level, or `[tool.cllint]`'s body."""
    if not pyproject:
        end = next((i for i, line in enumerate(lines) if _TABLE.match(line)), len(lines))
        return 0, end
    header = next((i for i, line in enumerate(lines) if line.strip() == "[tool.cllint]"), None)
    if header is None:  # (find_config only returns a pyproject.toml that has the section)
        return len(lines), len(lines)
    end = next((i for i in range(header + 1, len(lines)) if _TABLE.match(lines[i])), len(lines))
    return header + 1, end


def _at(config: Path, at: types.Position, text: str) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(changes={config.as_uri(): [types.TextEdit(types.Range(at, at), text)]})


def define_action(path: Path, folder: Path, name: str, lsp_diag: types.Diagnostic) -> types.CodeAction | None:
    """'Define NAME for the project in .cllint.toml' for a CL012 report on `name` in `path`."""
    try:
        config = find_config(path)
    except ConfigError:
        return None  # a configuration cllint cannot read: the report on it says why
    where = config.name if config is not None else CONFIG_NAME
    return types.CodeAction(
        title=f"Define '{name}' for the project in {where} (then set the value the host passes)",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diag],
        edit=define_edit(config, folder, name),
    )
