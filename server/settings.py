"""Editor settings (section "cllint") merged over the project's configuration file, so
the editor and `cllint check` agree; editor values win."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cllint.analysis.records import replace
from cllint.analysis.lint import LintOptions
from cllint.analysis.registry import is_valid_selector
from cllint.analysis.target import Target
from cllint.config import lint_options as config_lint_options
from cllint.config import ConfigError, Settings, declared_launches, find_config, load_config, merge

KEYS = ("std", "target", "features", "includePaths", "defines", "select", "ignore", "device",
        "buildOnSave", "runOnSave", "trustedWorkspace", "timeout", "analysisBudget",
        "compilerCheck", "projectModel")
DEFAULT_TIMEOUT_S = 60.0
# Seconds of analysis per file and edit in the editor: past it the file keeps what was
# found and one CL091 names what was skipped (a pathological file never stalls the server).
DEFAULT_BUDGET_S = 2.0


@dataclass(frozen=True)
class EditorSettings:
    std: str | None = None
    target: str | None = None
    features: str | None = None
    include_paths: tuple[str, ...] = ()
    defines: tuple[tuple[str, str], ...] = ()
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    device: str | None = None
    build_on_save: bool = False
    run_on_save: bool = False
    trusted_workspace: bool = True  # false: no device build or run (untrusted workspace)
    timeout_s: float = DEFAULT_TIMEOUT_S  # per device build or run
    budget_s: float | None = DEFAULT_BUDGET_S  # per file analysis; None: unbounded
    compiler_check: str = "auto"  # "auto": clang in the background when found (CL099); "off"
    # Each file read through its program (the workspace's other sources, host `-D` names):
    # `projectModel: false` judges every file alone, as before issue 29.
    project_model: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def _strs(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    return tuple(str(v) for v in value or ())


def _defines(value: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(value, dict):
        return tuple((str(k), str(v)) for k, v in value.items())
    out = []
    for d in _strs(value):
        name, _, val = d.partition("=")
        out.append((name, val or "1"))
    return tuple(out)


def _seconds(value: Any) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    return float(value) if ok else DEFAULT_TIMEOUT_S


def _budget(value: Any) -> float | None:
    """`analysisBudget`: seconds (> 0), or 0 for no budget; anything else the default."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value) if value > 0 else None if value == 0 else DEFAULT_BUDGET_S
    return DEFAULT_BUDGET_S


def from_json(obj: Any) -> EditorSettings:
    """Tolerant reading: unknown keys are kept in `extra`, wrong types are dropped."""
    if not isinstance(obj, dict):
        return EditorSettings()
    def s(key: str) -> str | None:
        v = obj.get(key)
        return v if isinstance(v, str) and v else None
    return EditorSettings(
        std=s("std"), target=s("target"), features=s("features"),
        include_paths=_strs(obj.get("includePaths")), defines=_defines(obj.get("defines")),
        select=_strs(obj["select"]) if obj.get("select") else None, ignore=_strs(obj.get("ignore")),
        device=s("device"), build_on_save=bool(obj.get("buildOnSave")), run_on_save=bool(obj.get("runOnSave")),
        trusted_workspace=obj.get("trustedWorkspace") is not False, timeout_s=_seconds(obj.get("timeout")),
        budget_s=_budget(obj.get("analysisBudget")),
        compiler_check="off" if obj.get("compilerCheck") in ("off", False) else "auto",
        project_model=obj.get("projectModel") is not False,
        extra={k: v for k, v in obj.items() if k not in KEYS},
    )


def file_settings(path: Path | None) -> Settings:
    """The project's configuration for `path` (raises ConfigError for a bad file)."""
    if path is None:
        return Settings()
    found = find_config(path)
    return load_config(found, is_valid_selector) if found else Settings()


def lint_options(path: Path | None, editor: EditorSettings,
                 device_reader: Callable[[int], Target] | None = None) -> LintOptions:
    """Options for one document; raises ConfigError or TargetError (ValueError).
    `device_reader` turns a `device:N` target into a Target (see server/device.py)."""
    base = file_settings(path)
    merged = merge(base, {
        "std": editor.std, "target": editor.target, "features": editor.features,
        "include": list(editor.include_paths) or None, "define": dict(editor.defines) or None,
        "select": list(editor.select) if editor.select else None, "ignore": list(editor.ignore) or None,
    })
    ignore = list(merged.ignore)
    if path is not None and merged.source is not None:
        rel = path.relative_to(merged.source.parent).as_posix() if path.is_relative_to(merged.source.parent) else path.name
        for glob, codes in merged.per_file_ignores.items():
            if fnmatch.fnmatch(rel, glob):
                ignore += codes
    options = config_lint_options(merged, device_reader, extra_ignore=ignore[len(merged.ignore):])
    launches = declared_launches(merged, path) if path is not None else ()
    return replace(options, budget=editor.budget_s, launches=launches)


__all__ = ["ConfigError", "EditorSettings", "from_json", "lint_options"]
