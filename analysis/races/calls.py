"""Accesses a kernel makes inside the helpers it calls, for the race check.

A helper's body is read at each call that passes it shared memory, its parameters
standing for the arguments (analysis/races/frames.py), as if its accesses were made at
the call. A helper that reaches a barrier on every path is a barrier at its call, and
that call is two points of the kernel's CFG: what the helper does before its first
barrier ends the interval before the call, what it does after its last one starts the
interval after it (`phase_node`, `reach_of`). Anything else stays out of the check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from cllint.analysis.races.accessor_macros import MacroSubscripts
from cllint.analysis.races.accesses import Access, BlockExits, Guard, collect, guards_around
from cllint.analysis.races.chosen_arguments import argument_choices, may_choose
from cllint.analysis.races.definitions import definitions
from cllint.analysis.races.evaluate import Evaluator
from cllint.analysis.races.frames import Frame, FrameEvaluator, Target, struct_fields
from cllint.analysis.races.struct_fills import filled
from cllint.analysis.races.struct_params import lent_to_reader, reads_fields_only, struct_argument
from cllint.analysis.syntax import walk
from cllint.analysis.uniformity import builtins as B
from cllint.analysis.uniformity.cfg import CFG, build_cfg
from cllint.analysis.uniformity.dataflow import callee_name
from cllint.analysis.uniformity.names import Names
from cllint.analysis.uniformity.summaries import _dead_within, _is_kernel

MAX_CALL_DEPTH = 4  # helpers followed, one inside another


def _text(node: Node | None, limit: int = 40) -> str:
    if node is None or not node.text:
        return ""
    s = " ".join(node.text.decode("utf-8", "replace").split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


class HelperCalls:
    """Mixed into the kernel's race check, whose facts it reads: `fa` (the file's
    functions and summaries), `facts` (its calls), `barriers`, `frame`, `body`, `cfg`,
    `file_live`, `helpers` (a helper's own facts, shared by the kernels of one file)."""

    fa: Any
    facts: Any
    barriers: dict[int, tuple[set[str], Node]]
    frame: Frame
    body: Node
    exits: BlockExits  # what each block's earlier statements decide, read once per kernel
    cfg: CFG
    file_live: tuple
    helpers: dict[str, tuple | None]
    int_returns: dict[tuple[int, int], tuple[Evaluator, Node] | None]  # `returned_value`, per call and caller
    name: str
    copies: set[int]  # CFG nodes that start an async work-group copy
    waits: set[int]  # CFG nodes that may wait for one (`wait_group_events`, a syncing helper)
    _constant: Callable[[Node], int | None]
    reach: Callable[..., set[int]]

    def helper_accesses(self) -> list[Access]:
        """Accesses a helper makes through the pointers a call passes it, as if made at the
        call (its CFG node), under the call's guards and then the helper's own. A helper
        that reaches a barrier on every path is a barrier at its call: what it does before
        its first barrier ends the interval before the call, what it does after its last
        one starts the interval after it (`phases`); anything else in it is not followed."""
        out: list[Access] = []
        syncing: dict[int, int] = {}  # barrier node -> the calls there that synchronise
        for site in self.facts.calls:
            sm = self.fa.summary(site.name) if B.sync_kind(site.name) is None else None
            if site.cfg_node in self.barriers and (B.sync_kind(site.name) is not None
                                                   or sm is not None and sm.sync is not None):
                syncing[site.cfg_node] = syncing.get(site.cfg_node, 0) + 1
        for site in self.facts.calls:
            if site.macro or not site.args_known or site.node.type != "call_expression" \
                    or callee_name(site.node) != site.name:
                continue
            # a barrier node holding more than this one call: which runs first is not modelled
            phased = site.cfg_node in self.barriers
            if phased and syncing.get(site.cfg_node) != 1:
                continue
            if not _passes_shared(site.node, self.frame) and not self.names_program_globals(site.name):
                continue  # the common call: nothing shared passed, no guards to read
            guards, unknown = guards_around(site.node, self.body, self.exits)
            out.extend(self.inline(site.node, site.name, self.frame, site.cfg_node, guards, unknown, site.node,
                                   (self.name,), phased))
        return out

    def returned(self, call: Node, caller: Frame, depth: int) -> Target | None:
        """The pointer a helper returns (`local float *slot(local float *b, int i) { return b +
        i; }`), its parameters bound to `call`'s arguments: the helper's body is its one
        `return` statement, and it does not synchronise."""
        callee = call.child_by_field_name("function")
        name = _text(callee, 200) if callee is not None and callee.type == "identifier" else ""
        parts = self.helper(name) if name in self.fa.functions and depth <= MAX_CALL_DEPTH * 2 else None
        if parts is None or parts[-1] is not None:
            return None
        _, body, names, defs, counters, moved, _, _ = parts
        stmts = [c for c in body.named_children if c.type != "comment"]
        value = stmts[0].named_children[0] if len(stmts) == 1 and stmts[0].type == "return_statement" \
            and stmts[0].named_children else None
        frame = _bind(names, defs, counters, moved, call, caller, self._constant, self.fa) if value is not None \
            else None
        if frame is None or not frame.bound:
            return None
        frame.returns = self.returned
        return frame.target_of(value, depth)

    def returned_value(self, call: Node, caller: Evaluator) -> tuple[Evaluator, Node] | None:
        """The integer a helper returns (`int slot(int l) { return l / 2; }`, `uint tid(void) {
        return get_local_id(0); }`), its parameters bound to `call`'s arguments as `caller`
        reads them: the helper's body is its one `return` statement, it does not synchronise and
        takes no pointer. Kept per call and caller (an index is evaluated for every work-item)."""
        key = (call.id, id(caller))
        if key in self.int_returns:
            return self.int_returns[key]
        self.int_returns[key] = None
        name = callee_name(call)
        if not name or name not in self.fa.functions or caller.helper_depth >= MAX_CALL_DEPTH:
            return None
        parts = self.helper(name)
        if parts is None or parts[-1] is not None:
            return None
        _, body, names, defs, counters, moved, _, _ = parts
        stmts = [c for c in body.named_children if c.type != "comment"]
        if len(stmts) != 1 or stmts[0].type != "return_statement" or not stmts[0].named_children:
            return None
        args = call.child_by_field_name("arguments")
        passed = [a for a in (args.named_children if args else []) if a.type != "comment"]
        params = sorted((v for v in names.variables if v.param_index is not None), key=lambda v: v.param_index or 0)
        if len(passed) != len(params) or any(v.pointer or v.array or v.key in moved for v in params):
            return None
        ev = FrameEvaluator(names, defs, counters, self._constant,
                            {v.key: (caller, arg) for v, arg in zip(params, passed)})
        ev.expander, ev.helper_value, ev.helper_depth = caller.expander, caller.helper_value, caller.helper_depth + 1
        got = self.int_returns[key] = (ev, stmts[0].named_children[0])
        return got

    def picked(self, call: Node, caller: Frame, depth: int) -> list[tuple[Target, tuple]]:
        """The pointers a helper returns by `c ? x : y` (`global int *pick(global int *x,
        global int *y, int c) { return c ? x : y; }`), `c` one of its parameters: `x` where
        the argument the call passes for `c` holds and `y` where it does not, that argument a
        condition of the caller's (a helper's body: its one `return` statement)."""
        callee = call.child_by_field_name("function")
        name = _text(callee, 200) if callee is not None and callee.type == "identifier" else ""
        parts = self.helper(name) if name in self.fa.functions and depth <= MAX_CALL_DEPTH * 2 else None
        if parts is None or parts[-1] is not None:
            return []
        _, body, names, defs, counters, moved, _, _ = parts
        stmts = [c for c in body.named_children if c.type != "comment"]
        value = stmts[0].named_children[0] if len(stmts) == 1 and stmts[0].type == "return_statement" \
            and stmts[0].named_children else None
        while value is not None and value.type == "parenthesized_expression" and value.named_child_count == 1:
            value = value.named_children[0]
        if value is None or value.type != "conditional_expression":
            return []
        cond = value.child_by_field_name("condition")
        while cond is not None and cond.type == "parenthesized_expression" and cond.named_child_count == 1:
            cond = cond.named_children[0]
        v = names.var(cond) if cond is not None and cond.type == "identifier" else None
        args = call.child_by_field_name("arguments")
        passed = [a for a in (args.named_children if args else []) if a.type != "comment"]
        if v is None or v.param_index is None or v.key in moved or v.pointer or v.param_index >= len(passed):
            return []
        frame = _bind(names, defs, counters, moved, call, caller, self._constant, self.fa)
        if frame is None or not frame.bound:
            return []
        frame.returns = self.returned
        yes = frame.target_of(value.child_by_field_name("consequence"), depth)
        no = frame.target_of(value.child_by_field_name("alternative"), depth)
        if yes is None or no is None:
            return []  # one side not followed: which work-items use the other is unknown
        arg = passed[v.param_index]
        return [(yes, ((arg, True),)), (no, ((arg, False),))]

    def inline(self, call: Node, name: str, caller: Frame, cfg_node: int, guards: tuple[Guard, ...],
               unknown: bool, site: Node, stack: tuple[str, ...], phased: bool = False) -> list[Access]:
        if name in stack or len(stack) > MAX_CALL_DEPTH:
            return []  # recursion (not OpenCL C) or too deep: not followed
        globals_ = self.names_program_globals(name)
        if not globals_ and not _passes_shared(call, caller):
            return []  # no shared memory passed: nothing it does is followed
        parts = self.helper(name)
        if parts is None or (parts[-1] is not None) != phased:
            return []
        func, body, names, defs, counters, moved, dead, phases = parts
        frame = _bind(names, defs, counters, moved, call, caller, self._constant, self.fa)
        alternatives = argument_choices(call, names, moved, caller, frame) if frame is not None else []
        if alternatives:  # `put(c ? A : B, g)`: the helper read once per choice, under its condition
            out: list[Access] = []
            for bound, when in alternatives:
                alt = _bind(names, defs, counters, moved, call, caller, self._constant, self.fa)
                if alt is not None:
                    alt.bound.update(bound)
                    out.extend(self._inline_frame(alt, parts, call, name, cfg_node, guards + when, unknown, site,
                                                  stack, globals_))
            return out
        if frame is None or not frame.bound and not frame.structs and not globals_:
            return []
        return self._inline_frame(frame, parts, call, name, cfg_node, guards, unknown, site, stack, globals_)

    def _inline_frame(self, frame: Frame, parts: tuple, call: Node, name: str, cfg_node: int,
                      guards: tuple[Guard, ...], unknown: bool, site: Node, stack: tuple[str, ...],
                      globals_: bool) -> list[Access]:
        """The accesses of helper `name` (`parts`: `helper`) in `frame`, bound at `call`, and of
        the helpers it calls in turn."""
        func, body, names, defs, counters, moved, dead, phases = parts
        if phases is None:
            self.add_helper_loops(counters, frame.ev)
        units = [(body, cfg_node)] if phases is None else \
            [(syntax, self.phase_node(cfg_node, after)) for syntax, after in phases]
        out: list[Access] = []
        macro_subscript = MacroSubscripts(self.expander, frame.ev)  # `AT(p, i, j)` in the helper
        for syntax, at in units:
            scalars = frame.scalar_of if globals_ else None  # (a program-scope scalar, `global int total;`)
            for a in collect(names, syntax, at, body, frame.target_of, self.exits, frame.targets_of, scalars,
                             macro_subscript=macro_subscript):
                if _within(dead, a.node.start_byte) or self.in_undecided_arm(a.node, body) or a.copy:
                    continue  # (an async copy in a helper: which wait ends it is not followed)
                a.guards = guards + tuple(g.within(frame.ev) for g in a.guards)
                a.unknown_guard = a.unknown_guard or unknown
                a.ev, a.site, a.helper, a.roots = a.ev or frame.ev, site, name, (site,)  # (a macro's: its own)
                out.append(a)
            for n in walk(syntax):
                callee = n.child_by_field_name("function") if n.type == "call_expression" else None
                if callee is None or callee.type != "identifier" or _within(dead, n.start_byte) \
                        or self.in_undecided_arm(n, body):
                    continue
                inner, inner_unknown = guards_around(n, body, self.exits)
                out.extend(self.inline(n, _text(callee, 200), frame, at,
                                       guards + tuple(g.within(frame.ev) for g in inner),
                                       unknown or inner_unknown, site, (*stack, name)))
        return out

    def add_helper_loops(self, counters: dict[int, tuple], ev: Evaluator) -> None:
        """The `for` loops of a helper with no barrier whose header every work-item shares
        (`for (d = 8; d > 0; d >>= 1)`: literals, sizes, the counter): enumerated as the kernel's
        own counters are, read in the frame of the call (`helper_loops`). Nothing orders two
        work-items' passes there. A helper called in two frames keeps the first's: another call
        with other arguments would read them otherwise (not followed: dropped)."""
        for k, (init, cond, update, loop) in counters.items():
            if not all(_shared_header(x, k, ev.names, ev.defs) for x in (init, cond, update) if x is not None):
                continue
            known = self.helper_loops.get(k, ())
            self.helper_loops[k] = (init, cond, update, loop, ev) if not known or known[4] is ev else None

    # -- a helper's barrier: its call is two points of the kernel's CFG -------------------
    def phase_node(self, call_node: int, after: bool) -> int:
        """A node id past the CFG's own for what a syncing helper called at `call_node`
        does before its barrier (`after` False) or after it."""
        return len(self.cfg.nodes) + 2 * call_node + int(after)

    def real_node(self, node: int) -> int:
        n = len(self.cfg.nodes)
        if node >= 3 * n:
            return node - 3 * n  # an async copy's node (`copy_node`)
        return node if node < n else (node - n) // 2

    # -- an async work-group copy: from its call to the next wait --------------------------
    def copy_node(self, call_node: int) -> int:
        """A node id past the phase nodes for the accesses of the async copy called at
        `call_node`: they go on past barriers until a `wait_group_events`."""
        return 3 * len(self.cfg.nodes) + call_node

    def reach_of(self, start: int, blocks: set[int], forward: bool = True) -> set[int]:
        """`reach`, with the two points of each syncing helper call: what comes before it
        meets what the helper does before its barrier; what it does after meets what comes
        after the call."""
        n = len(self.cfg.nodes)
        if start >= 3 * n:  # an async copy: it runs until a wait, barriers or not
            call = start - 3 * n
            if not forward:
                return self.reach(call, blocks, False)  # what comes before it: as its call
            seen = self.reach(call, self.waits, True)
            return seen | {self.copy_node(c) for c in seen if c in self.copies}
        if start >= n:
            call, after = self.real_node(start), (start - n) % 2 == 1
            if after != forward:
                return set()  # its own barrier is next (or was just before)
            start = call
        seen = self.reach(start, blocks, forward)
        if not forward:
            return seen
        edges = self.cfg.nodes
        touched = {b for v in (seen | ({start} if start not in blocks else set())) for b in edges[v].succs
                   if b in blocks}
        return seen | {self.phase_node(b, False) for b in touched} | {self.copy_node(c) for c in seen
                                                                       if c in self.copies}

    def in_undecided_arm(self, node: Node, body: Node) -> bool:
        """Inside a helper's `#if` arm the file does not decide: all of the helper's accesses
        count as one step at the call, and two arms (which no two work-items both take)
        would otherwise pair up."""
        if _within(self.file_live, node.start_byte):
            return False
        p = node.parent
        while p is not None and p != body:
            if p.type.startswith("preproc_"):
                return True
            p = p.parent
        return False

    def names_program_globals(self, name: str) -> bool:
        """Whether helper `name` names a program-scope `__global` variable (`global int g[64];`
        of OpenCL C 2.0): one object in every function, followed in a helper as in the kernel.
        Only files that declare one read the helper for it."""
        if not self.fa.program_globals or name not in self.fa.functions:
            return False
        return self._names_globals(name, (name,))

    def _names_globals(self, name: str, stack: tuple[str, ...]) -> bool:
        parts = self.helper(name)
        if parts is None:
            return False
        body, names = parts[1], parts[2]
        for n in walk(body):
            if n.type == "identifier" and (v := names.var(n)) is not None and v.shared and not v.pointer \
                    and v.param_index is None and _file_scope(v):
                return True
            callee = n.child_by_field_name("function") if n.type == "call_expression" else None
            inner = _text(callee, 200) if callee is not None and callee.type == "identifier" else ""
            if inner in self.fa.functions and inner not in stack and len(stack) <= MAX_CALL_DEPTH \
                    and self._names_globals(inner, (*stack, inner)):
                return True  # (through a helper it calls)
        return False

    def helper(self, name: str) -> tuple | None:
        """A helper's body and the facts read off it alone; None where it is not followed:
        not defined in the file, a kernel, reaching a collective, or a barrier on only some paths."""
        if name in self.helpers:
            return self.helpers[name]
        parts = None
        func = self.fa.functions[name] if name in self.fa.functions else None
        sm = self.fa.summary(name) if func is not None else None
        body = func.child_by_field_name("body") if func is not None else None
        if func is not None and sm is not None and body is not None and not _is_kernel(func) \
                and (sm.sync is None or sm.sync == "barrier" and not self.fa.macro_syncs.get(name)):
            names = self.fa.names(name)
            # (`put(&s, ...)` to a helper that only reads `s`'s fields leaves them defined)
            defs, counters, _, moved = definitions(
                body, names, CFG([], 0, 0), lambda amp: lent_to_reader(amp, self.fa.functions, self.fa.names),
                lambda node: filled(node, self.fa.functions, self.fa.names))
            dead = _dead_within(self.fa.dead, func.start_byte, func.end_byte)
            phases = self.phases(body, dead, _dead_within(self.file_live, func.start_byte, func.end_byte)) \
                if sm.sync is not None else None
            if sm.sync is None or phases is not None:
                # (the counters' loops kept: a helper with no barrier has its passes enumerated)
                parts = (func, body, names, defs, counters, moved, dead, phases)
        self.helpers[name] = parts
        return parts

    def phases(self, body: Node, dead: tuple, live: tuple) -> list[tuple[Node, bool]] | None:
        """A syncing helper's statements that run before its first barrier (False) or after
        its last (True); None unless every path through it crosses a barrier and nothing
        in it synchronises otherwise (a collective, a barrier behind a macro)."""
        cfg = build_cfg(body, dead, live)
        sync: set[int] = set()
        for node in cfg.nodes:
            for n in walk(node.syntax) if node.syntax is not None else ():
                name = callee_name(n) if n.type == "call_expression" else None
                kind = B.sync_kind(name) if name else None
                sm = self.fa.summary(name) if name and kind is None and name in self.fa.functions else None
                if kind not in (None, "barrier") or sm is not None and sm.sync not in (None, "barrier"):
                    return None
                if kind == "barrier" or sm is not None and sm.sync == "barrier":
                    sync.add(node.id)
        preds = cfg.preds()

        def reach(start: int, edges) -> set[int]:
            seen, work = set(), [start]
            while work:
                v = work.pop()
                if v in seen or v in sync:
                    continue
                seen.add(v)
                work.extend(edges(v))
            return seen
        before = reach(cfg.entry, lambda v: cfg.nodes[v].succs)
        after = reach(cfg.exit, lambda v: preds[v])
        if cfg.exit in before:
            return None  # a path that crosses no barrier
        return [(n.syntax, n.id in after) for n in cfg.nodes
                if n.syntax is not None and (n.id in before) != (n.id in after)]


def _bind(names: Names, defs: dict[int, Node], counters: set[int], moved: set[int], call: Node, caller: Frame,
          constant: Callable[[Node], int | None], fa: Any = None) -> Frame | None:
    """A helper's frame at one call: each parameter the helper never assigns is the
    argument passed (a pointer: the argument's target; a value: the argument, evaluated
    in the caller's frame). None when the arguments do not match the parameters."""
    args = call.child_by_field_name("arguments")
    passed = [a for a in (args.named_children if args else []) if a.type != "comment"]
    params = sorted((v for v in names.variables if v.param_index is not None), key=lambda v: v.param_index or 0)
    if len(passed) != len(params):
        return None
    values: dict[int, tuple[Evaluator, Node]] = {}
    frame = Frame(names, FrameEvaluator(names, defs, counters, constant, values), defs, moved, kernel=False)
    frame.ev.expander = caller.ev.expander
    frame.ev.helper_value, frame.ev.helper_depth = caller.ev.helper_value, caller.ev.helper_depth + 1
    frame.returns = caller.returns
    frame.picks = caller.picks
    body = None
    for v, arg in zip(params, passed):
        if v.key in moved:
            continue
        if v.pointer or v.array:
            t = caller.target_of(arg)
            if t is not None:
                frame.bound[v.key] = t
        else:
            values[v.key] = (caller.ev, arg)
        struct = struct_argument(arg, caller.names, caller.structs) if not (v.key in frame.bound or v.array) \
            else None
        if struct is not None:  # `put(s, ...)`, `put(&s, ...)`: the helper's `s.p` is the caller's
            body = body if body is not None else _body_of(v)
            if body is not None and reads_fields_only(body, names, v, fa.functions if fa is not None else None,
                                                      fa.names if fa is not None else None):
                frame.structs[v.key] = (caller, struct)
    return frame


def _body_of(v: Any) -> Node | None:
    d = v.decl.parent
    while d is not None and d.type != "function_definition":
        d = d.parent
    return d.child_by_field_name("body") if d is not None else None


def _file_scope(v: Any) -> bool:
    d = v.decl.parent
    while d is not None and d.type not in ("translation_unit", "function_definition"):
        d = d.parent
    return d is not None and d.type == "translation_unit"


def _passes_shared(call: Node, caller: Frame) -> bool:
    """Whether some argument of `call` points into shared memory the caller follows."""
    args = call.child_by_field_name("arguments")
    return any(caller.target_of(a) is not None or _holds_shared(a, caller)
               or may_choose(a, caller) and len(caller.targets_of(a)) > 1  # (`c ? A : B`)
               for a in (args.named_children if args else ()))


def _holds_shared(arg: Node, caller: Frame) -> bool:
    """A private struct handed over (`s`, `&s`) one of whose fields the caller follows into
    shared memory (`s.p = A;`); its fields are read off the file's typedef of the struct."""
    struct = struct_argument(arg, caller.names, caller.structs)
    if struct is None:
        return False
    v = caller.names.var(struct)
    if v is None:
        return False
    fields = [f.encode() for f in caller.names.fields.get(v.key, {}) if "." not in f]
    decl = v.decl.parent
    while decl is not None and decl.type not in ("declaration", "parameter_declaration"):
        decl = decl.parent
    named = decl.child_by_field_name("type") if decl is not None else None
    if named is not None and named.type == "type_identifier":
        fields += struct_fields(named) or []  # (a struct given by its initialiser: `ref_t s = { A };`)
    return any(caller.field_target(struct, f, 0) is not None for f in dict.fromkeys(fields))


def _within(ranges: tuple, offset: int) -> bool:
    return any(a <= offset < b for a, b in ranges)


_SIZES = frozenset({"get_local_size", "get_enqueued_local_size", "get_num_groups", "get_global_size",
                    "get_work_dim"})


def _shared_header(node: Node, key: int, names: Names, defs: dict[int, Node], depth: int = 0) -> bool:
    """Whether a loop header's part reads only literals, the counter `key`, the sizes every
    work-item shares and variables defined once from those (`int n = get_global_size(0)`); a
    helper's parameters may be anything (`l`)."""
    for n in walk(node):
        if n.type == "call_expression":
            if callee_name(n) not in _SIZES:
                return False
        elif n.type == "identifier":
            v = names.var(n)
            if v is not None and v.key != key and not (
                    depth < 4 and v.key in defs and v.param_index is None
                    and _shared_header(defs[v.key], key, names, defs, depth + 1)):
                return False
            if v is None and not (n.parent is not None and n.parent.type == "call_expression"
                                  and n.parent.child_by_field_name("function") == n):
                return False  # (a macro's value: not read here)
    return True
