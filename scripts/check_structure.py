#!/usr/bin/env python3
"""Lists import cycles among cllint's modules and module-level mutable state (issue 33).

    .venv/bin/python scripts/check_structure.py            # report; exit 1 on a cycle or new state
    .venv/bin/python scripts/check_structure.py --list     # also print every allowed name

*Cycles*: every import counts, at module level, inside functions (late imports) and under
`TYPE_CHECKING`, since each says one module depends on the other. `from pkg import Name`,
where the package's `__init__` takes `Name` from a submodule (its lazy tables are declared
under `TYPE_CHECKING`), depends on that submodule, not on the package.

*Module-level mutable state*: a name bound at module scope (not in a function or class) that
code in a function changes: a dict, list, set, OrderedDict, deque, ... given items
(`X[k] = v`, `X.append(...)`, `X.update(...)`, ...), a name rebound through `global`, an
object whose attributes are assigned (`X.attr = v`), and memoising decorators on functions
with parameters (`@cache`, `@lru_cache`: a cache keyed by their arguments). Tables that are
never changed (a dict used as a lookup, frozenset, tuple, MappingProxyType) are not state.
The device worker (`server/runner/worker.py`) runs in a process of its own and is left out.

Names that stay outside the analysis database (analysis/database.py), each with its reason
(memos of fixed tables such as the catalogue, which depend on no input), are listed in
`scripts/structure_allow.txt` (`module:NAME`, one a line, `#` comments): only new ones fail.
An entry that no longer matches is printed so that the list can shrink.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOW = ROOT / "scripts" / "structure_allow.txt"
# Import name -> folder, as setup.py installs them.
PACKAGES = {"cllint": "cllint", "cllint.grammar": "grammar", "cllint.analysis": "analysis",
            "cllint.server": "server", "cllint.cli": "cli"}
SKIP_DIRS = frozenset({"node_modules", "src", "test", "bindings", "queries", "__pycache__"})
OWN_PROCESS = frozenset({"cllint.server.runner.worker"})  # the device worker: its own process

CONTAINERS = frozenset({"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Counter", "ChainMap",
                        "WeakKeyDictionary", "WeakValueDictionary", "WeakSet", "bytearray", "local"})
MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "pop", "popitem", "clear",
                      "remove", "discard", "move_to_end", "appendleft", "extendleft", "popleft", "rotate",
                      "difference_update", "intersection_update", "symmetric_difference_update",
                      "__setitem__", "__delitem__", "sort", "reverse"})
MEMOISERS = frozenset({"cache", "lru_cache"})


# -- modules ----------------------------------------------------------------------------

def modules(root: Path = ROOT, packages: dict[str, str] = PACKAGES) -> dict[str, Path]:
    """Every module of the project: import name -> file."""
    found: dict[str, Path] = {}
    for pkg, folder in packages.items():
        base = root / folder
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base)
            if any(part in SKIP_DIRS for part in rel.parts[:-1]):
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([pkg, *parts])] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


# -- imports ----------------------------------------------------------------------------

def _absolute(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, str | None, int]]:
    """(imported module, name taken from it or None, line) for every import statement."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node.level, node.module)
            for alias in node.names:
                yield source, alias.name, node.lineno


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int


def import_graph(mods: dict[str, Path]) -> dict[str, list[Edge]]:
    trees = {m: ast.parse(p.read_text(encoding="utf-8"), str(p)) for m, p in mods.items()}
    # What each package's __init__ takes from its submodules: (package, name) -> submodule.
    reexports: dict[tuple[str, str], str] = {}
    for m, tree in trees.items():
        if _is_package(mods[m]):
            for source, name, _ in _imports(tree, m, True):
                if name is not None and source.startswith(m + ".") and source in mods:
                    reexports[(m, name)] = source
    graph: dict[str, list[Edge]] = {m: [] for m in mods}
    for m, tree in trees.items():
        for source, name, line in _imports(tree, m, _is_package(mods[m])):
            target = source
            if name is not None:
                if f"{source}.{name}" in mods:
                    target = f"{source}.{name}"
                elif (source, name) in reexports:
                    target = reexports[(source, name)]
            while target and target not in mods:  # `import a.b.c` names a module or its package
                target = target.rpartition(".")[0]
            if target and target != m and Edge(m, target, line) not in graph[m]:
                graph[m].append(Edge(m, target, line))
    return graph


def cycles(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted({e.target for e in graph[start]})))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted({e.target for e in graph.get(nxt, [])}))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


# -- module-level state -------------------------------------------------------------------

def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements run at import, through if/try/with blocks, not into functions or classes."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try, ast.With)):
            for block in ("body", "orelse", "finalbody"):
                yield from _top_level(getattr(stmt, block, []))
            for handler in getattr(stmt, "handlers", []):
                yield from _top_level(handler.body)


def _callee(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _is_container(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return isinstance(value, ast.Call) and _callee(value) in CONTAINERS


def _bound(stmt: ast.stmt) -> Iterator[tuple[str, ast.expr | None]]:
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    yield name.id, stmt.value if isinstance(target, ast.Name) else None
    elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        yield stmt.target.id, stmt.value


@dataclass(frozen=True)
class State:
    module: str
    name: str
    kind: str  # "container", "rebound", "attributes", "memo"
    line: int

    @property
    def key(self) -> str:
        return f"{self.module}:{self.name}"


def _changed_names(tree: ast.AST, names: set[str], module_alias: dict[str, str]) -> dict[str, set[str]]:
    """Per name of `names` (or `alias.NAME` for another module's), how the code changes it:
    'items', 'rebound' or 'attributes'. `module_alias` maps local names of imported modules
    to their import names, for `other.NAME[k] = v`."""
    changed: dict[str, set[str]] = {}

    def subject(node: ast.expr) -> str | None:
        if isinstance(node, ast.Name) and node.id in names:
            return node.id
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in module_alias):
            return f"{module_alias[node.value.id]}:{node.attr}"
        return None

    def mark(name: str | None, how: str) -> None:
        if name is not None:
            changed.setdefault(name, set()).add(how)

    # Only what runs after import counts: a table filled by a loop at module scope is built, not changed.
    run_later = [n for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                 for n in ast.walk(f)]
    for node in run_later:
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for t in targets:
                if isinstance(t, ast.Subscript):
                    mark(subject(t.value), "items")
                elif isinstance(t, ast.Attribute):
                    mark(subject(t.value), "attributes")
                    if isinstance(t.value, ast.Name) and t.value.id in module_alias:
                        mark(subject(t), "rebound")  # other.NAME = v
                if isinstance(node, ast.AugAssign) and isinstance(t, ast.Name):
                    mark(subject(t), "items")  # X += [...] / X |= {...} on a module-level container
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            mark(subject(node.func.value), "items")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            declared = {n for g in ast.walk(node) if isinstance(g, ast.Global) for n in g.names}
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    for t in (inner.targets if isinstance(inner, ast.Assign) else [inner.target]):
                        if isinstance(t, ast.Name) and t.id in declared and t.id in names:
                            mark(t.id, "rebound")
    return changed


def mutable_state(mods: dict[str, Path]) -> list[State]:
    trees = {m: ast.parse(p.read_text(encoding="utf-8"), str(p)) for m, p in mods.items()}
    bound: dict[str, dict[str, tuple[ast.expr | None, int]]] = {}
    memos: list[State] = []
    for m, tree in trees.items():
        names: dict[str, tuple[ast.expr | None, int]] = {}
        for stmt in _top_level(tree.body):  # type: ignore[attr-defined]
            for name, value in _bound(stmt):
                names.setdefault(name, (value, stmt.lineno))
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                takes = stmt.args.args or stmt.args.posonlyargs or stmt.args.kwonlyargs or stmt.args.vararg
                if takes and any(_callee(d) in MEMOISERS for d in stmt.decorator_list):
                    memos.append(State(m, stmt.name, "memo", stmt.lineno))
        bound[m] = names
    found: dict[str, State] = {}
    for m, tree in trees.items():
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in mods and a.asname:  # `import cllint.x.y as y`
                        aliases[a.asname] = a.name
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(m, _is_package(mods[m]), node.level, node.module)
                for a in node.names:
                    if f"{source}.{a.name}" in mods:
                        aliases[a.asname or a.name] = f"{source}.{a.name}"
        for name, hows in _changed_names(tree, set(bound[m]), aliases).items():
            owner, _, attr = name.partition(":") if ":" in name else (m, "", name)
            value, line = bound.get(owner, {}).get(attr, (None, 0))
            if attr not in bound.get(owner, {}):
                continue
            if "rebound" in hows:
                kind = "rebound"
            elif "items" in hows and _is_container(value):
                kind = "container"
            elif "attributes" in hows and isinstance(value, ast.Call):
                kind = "attributes"
            else:
                continue
            found.setdefault(f"{owner}:{attr}", State(owner, attr, kind, line))
    out = [s for s in [*found.values(), *memos] if s.module not in OWN_PROCESS]
    return sorted(out, key=lambda s: (s.module, s.line, s.name))


# -- the allow-list and the report ----------------------------------------------------------

def read_allowed(path: Path = ALLOW) -> set[str]:
    if not path.exists():
        return set()
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            out.add(entry)
    return out


def _where(mods: dict[str, Path], module: str, line: int) -> str:
    path = mods.get(module)
    if path is None:
        return module
    root = next((p for p in path.parents if (p / "setup.py").exists()), path.parent)
    return f"{path.relative_to(root)}:{line}"


def report(mods: dict[str, Path], allowed: set[str], show_allowed: bool = False,
           out=sys.stdout) -> int:
    graph = import_graph(mods)
    found_cycles = cycles(graph)
    state = mutable_state(mods)
    new = [s for s in state if s.key not in allowed]
    stale = sorted(allowed - {s.key for s in state})
    for component in found_cycles:
        members = set(component)
        edges = [e for m in component for e in graph[m] if e.target in members]
        print(f"import cycle: {' <-> '.join(component)}", file=out)
        for e in sorted(edges, key=lambda e: (e.source, e.line)):
            print(f"  {_where(mods, e.source, e.line)}: {e.source} imports {e.target}", file=out)
    for s in new:
        print(f"new module-level state: {_where(mods, s.module, s.line)}: {s.key} ({s.kind})", file=out)
    if show_allowed:
        for s in state:
            if s.key in allowed:
                print(f"allowed: {_where(mods, s.module, s.line)}: {s.key} ({s.kind})", file=out)
    for key in stale:
        print(f"no longer found (remove from {ALLOW.name}): {key}", file=out)
    kinds = {k: sum(s.kind == k for s in state) for k in ("container", "rebound", "attributes", "memo")}
    print(f"{len(mods)} modules, {len(found_cycles)} import cycles; module-level state: {len(state)} names "
          f"({', '.join(f'{n} {k}' for k, n in kinds.items())}), {len(state) - len(new)} allowed, {len(new)} new",
          file=out)
    return 1 if found_cycles or new else 0


def main(argv: Iterable[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="print the allowed names too")
    ap.add_argument("--root", type=Path, default=ROOT, help="another checkout (e.g. an older commit's)")
    args = ap.parse_args(list(argv) if argv is not None else None)
    return report(modules(args.root), read_allowed(), args.list)


if __name__ == "__main__":
    raise SystemExit(main())
