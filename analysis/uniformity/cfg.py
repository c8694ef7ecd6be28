"""A statement-level control-flow graph of one function body, with post-dominators
and control dependence.

Nodes are simple statements, declarations and branch conditions. Intra-expression
control flow (`&&`, `?:`) is not split: a barrier inside an expression is not a
pattern worth the cost.
"""

from __future__ import annotations

from bisect import bisect_right

from tree_sitter import Node

# Byte ranges of preprocessor arms the target never compiles (`#ifdef X ... #else` with X
# defined above), sorted and disjoint: what starts there is not part of the function.
DeadRanges = tuple[tuple[int, int], ...]

SKIP = {"comment", "preproc_conditional", "preproc_conditional_text", "preproc_skipped",
        "{", "}", ";", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include"}
PREPROC_GROUPS = {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"}


class CFGNode:
    id: int
    kind: str  # 'entry', 'exit', 'stmt', 'branch', 'jump', 'label', 'return'
    syntax: Node | None  # statement, declaration or condition expression
    owner: Node | None  # for branches: the if/for/while/do/switch statement
    succs: list[int]
    uniform_choice: bool  # preprocessor alternatives: one is taken for every work-item

    __match_args__ = ("id", "kind", "syntax", "owner", "succs", "uniform_choice")

    def __init__(
        self,
        id: int,
        kind: str,
        syntax: Node | None = None,
        owner: Node | None = None,
        succs: list[int] | None = None,
        uniform_choice: bool = False,
    ) -> None:
        self.id = id
        self.kind = kind
        self.syntax = syntax
        self.owner = owner
        self.succs = [] if succs is None else succs
        self.uniform_choice = uniform_choice

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"id={self.id!r}, " f"kind={self.kind!r}, "
                f"syntax={self.syntax!r}, " f"owner={self.owner!r}, " f"succs={self.succs!r}, "
                f"uniform_choice={self.uniform_choice!r})")


class CFG:
    nodes: list[CFGNode]
    entry: int
    exit: int

    __match_args__ = ("nodes", "entry", "exit")

    def __init__(self, nodes: list[CFGNode], entry: int, exit: int) -> None:
        self.nodes = nodes
        self.entry = entry
        self.exit = exit

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(nodes={self.nodes!r}, entry={self.entry!r}, exit={self.exit!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.nodes, self.entry, self.exit) == (other.nodes, other.entry, other.exit)

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def preds(self) -> list[list[int]]:
        out: list[list[int]] = [[] for _ in self.nodes]
        for n in self.nodes:
            for s in n.succs:
                out[s].append(n.id)
        return out


class _Builder:
    def __init__(self, dead: DeadRanges = (), live: DeadRanges = ()) -> None:
        self.dead, self.live = dead, live
        self._dead_starts = [a for a, _ in dead]
        self._live_starts = [a for a, _ in live]
        self.nodes: list[CFGNode] = []
        self.labels: dict[str, CFGNode] = {}
        self.gotos: list[tuple[CFGNode, str]] = []
        self.exit = self.new("exit")

    def new(self, kind: str, syntax: Node | None = None, succs: list[int] | None = None,
            owner: Node | None = None) -> CFGNode:
        n = CFGNode(len(self.nodes), kind, syntax, owner, list(succs or []))
        self.nodes.append(n)
        return n

    def label(self, name: str) -> CFGNode:
        if name not in self.labels:
            self.labels[name] = self.new("label")
        return self.labels[name]

    def seq(self, stmts: list[Node], succ: int, brk: int | None, cont: int | None) -> int:
        for s in reversed(stmts):
            succ = self.stmt(s, succ, brk, cont)
        return succ

    def is_dead(self, s: Node) -> bool:
        i = bisect_right(self._dead_starts, s.start_byte) - 1
        return i >= 0 and s.start_byte < self.dead[i][1]

    def is_live(self, s: Node) -> bool:
        i = bisect_right(self._live_starts, s.start_byte) - 1
        return i >= 0 and s.start_byte < self.live[i][1]

    def stmt(self, s: Node, succ: int, brk: int | None, cont: int | None) -> int:
        t = s.type
        if t in SKIP or not s.is_named or (self.dead and self.is_dead(s)):
            return succ
        if t == "compound_statement":
            return self.seq(list(s.children), succ, brk, cont)
        if t in PREPROC_GROUPS:
            alt = s.child_by_field_name("alternative")
            body = [c for c in s.children if c.is_named and c != alt
                    and c != s.child_by_field_name("condition") and c != s.child_by_field_name("name")]
            first = self.seq(body, succ, brk, cont)
            if t == "preproc_else":
                return first  # reached only where every earlier arm is dropped: always taken
            second = self.stmt(alt, succ, brk, cont) if alt is not None else succ
            live = [c for c in body if c.type not in SKIP and c.is_named]
            if live and all(self.is_dead(c) for c in live):
                return second  # a dropped arm is no path: the group is its later arms
            if live and self.is_live(live[0]):
                return first  # the arm the compiler keeps: the later arms are dropped
            if first == second:
                return first
            b = self.new("branch", None, [first, second], owner=s)
            b.uniform_choice = True
            return b.id
        if t == "if_statement":
            cons = s.child_by_field_name("consequence")
            alt = s.child_by_field_name("alternative")
            if alt is not None and alt.type == "else_clause":
                alt = alt.named_children[0] if alt.named_children else None
            then_ = self.stmt(cons, succ, brk, cont) if cons is not None else succ
            else_ = self.stmt(alt, succ, brk, cont) if alt is not None else succ
            return self.new("branch", s.child_by_field_name("condition"), [then_, else_], owner=s).id
        if t == "while_statement":
            head = self.new("branch", s.child_by_field_name("condition"), owner=s)
            body = s.child_by_field_name("body")
            entry = self.stmt(body, head.id, succ, head.id) if body is not None else head.id
            head.succs = [entry, succ]
            return head.id
        if t == "do_statement":
            head = self.new("branch", s.child_by_field_name("condition"), owner=s)
            body = s.child_by_field_name("body")
            entry = self.stmt(body, head.id, succ, head.id) if body is not None else head.id
            head.succs = [entry, succ]
            return entry
        if t == "for_statement":
            cond = s.child_by_field_name("condition")
            head = self.new("branch", cond, owner=s)
            update = s.child_by_field_name("update")
            upd = self.new("stmt", update, [head.id]).id if update is not None else head.id
            body = s.child_by_field_name("body")
            entry = self.stmt(body, upd, succ, upd) if body is not None else upd
            # `for (;;)` leaves only through break/return: the header is not a real branch.
            head.succs = [entry, succ] if cond is not None else [entry]
            init = s.child_by_field_name("initializer")
            return self.new("stmt", init, [head.id]).id if init is not None else head.id
        if t == "switch_statement":
            head = self.new("branch", s.child_by_field_name("condition"), owner=s)
            body = s.child_by_field_name("body")
            cases = [c for c in (body.children if body else []) if c.type == "case_statement"]
            entries: list[int] = []
            nxt = succ
            has_default = False
            for c in reversed(cases):
                if c.child_by_field_name("value") is None:
                    has_default = True
                stmts = [x for x in c.children if x.is_named and x != c.child_by_field_name("value")]
                nxt = self.seq(stmts, nxt, succ, cont)
                entries.append(nxt)
            entries.reverse()
            head.succs = entries + ([] if has_default else [succ])
            if not head.succs:
                head.succs = [succ]
            return head.id
        if t == "case_statement":  # stray case outside a switch body we understood
            return self.seq([x for x in s.children if x.is_named], succ, brk, cont)
        if t == "break_statement":
            return self.new("jump", s, [brk if brk is not None else succ]).id
        if t == "continue_statement":
            return self.new("jump", s, [cont if cont is not None else succ]).id
        if t == "return_statement":
            return self.new("return", s, [self.exit.id]).id
        if t == "goto_statement":
            n = self.new("jump", s)
            lab = s.child_by_field_name("label")
            self.gotos.append((n, lab.text.decode() if lab is not None and lab.text else ""))
            return n.id
        if t == "labeled_statement":
            lab = s.child_by_field_name("label")
            node = self.label(lab.text.decode() if lab is not None and lab.text else "")
            inner = [c for c in s.named_children if c.type != "statement_identifier"]
            node.succs = [self.seq(inner, succ, brk, cont)]
            return node.id
        return self.new("stmt", s, [succ]).id


def build_cfg(body: Node, dead: DeadRanges = (), live: DeadRanges = ()) -> CFG:
    """`dead`: arms of conditional groups the preprocessor drops; their statements are
    left out, so a group with one live arm is no branch at all. `live`: arms known to be
    kept (`#if R == 1` with R defined above): the group is that arm only, with no path
    around it. An `#else` arm is always taken where it is reached."""
    b = _Builder(dead, live)
    first = b.stmt(body, b.exit.id, None, None)
    for node, name in b.gotos:
        target = b.labels.get(name)
        node.succs = [target.id if target is not None else b.exit.id]
    for lab in b.labels.values():
        if not lab.succs:
            lab.succs = [b.exit.id]
    entry = b.new("entry", None, [first])
    return CFG(b.nodes, entry.id, b.exit.id)


def postdominators(cfg: CFG) -> list[int]:
    """Immediate post-dominator of every node (-1 for the exit and unreachable nodes).

    Nodes that cannot reach the exit (`for (;;)` without break) get a virtual edge
    to it, so every node has an immediate post-dominator.
    """
    n = len(cfg.nodes)
    succs = [list(x.succs) for x in cfg.nodes]
    preds = [[] for _ in range(n)]
    for i, ss in enumerate(succs):
        for s in ss:
            preds[s].append(i)
    # Nodes reaching the exit.
    reach = {cfg.exit}
    work = [cfg.exit]
    while work:
        x = work.pop()
        for p in preds[x]:
            if p not in reach:
                reach.add(p)
                work.append(p)
    for i in range(n):
        if i not in reach:
            succs[i].append(cfg.exit)
            preds[cfg.exit].append(i)
    # Reverse post-order on the reversed graph (Cooper, Harvey, Kennedy).
    order: list[int] = []
    seen = {cfg.exit}
    stack = [(cfg.exit, iter(preds[cfg.exit]))]
    while stack:
        v, it = stack[-1]
        for p in it:
            if p not in seen:
                seen.add(p)
                stack.append((p, iter(preds[p])))
                break
        else:
            stack.pop()
            order.append(v)
    order.reverse()
    index = {v: i for i, v in enumerate(order)}
    ipdom = [-1] * n
    ipdom[cfg.exit] = cfg.exit
    changed = True
    while changed:
        changed = False
        for v in order:
            if v == cfg.exit:
                continue
            new = -1
            for s in succs[v]:
                if ipdom[s] == -1:
                    continue
                if new == -1:
                    new = s
                    continue
                a, b = s, new
                while a != b:
                    while index[a] > index[b]:
                        a = ipdom[a]
                    while index[b] > index[a]:
                        b = ipdom[b]
                new = a
            if new != -1 and ipdom[v] != new:
                ipdom[v] = new
                changed = True
    ipdom[cfg.exit] = -1
    return ipdom


def control_dependence(cfg: CFG, ipdom: list[int]) -> list[set[int]]:
    """For each node, the branch nodes it is directly control dependent on (Ferrante et al.)."""
    deps: list[set[int]] = [set() for _ in cfg.nodes]
    for b in cfg.nodes:
        if b.kind != "branch" or len(set(b.succs)) < 2:
            continue
        stop = ipdom[b.id]
        for s in set(b.succs):
            v = s
            while v != -1 and v != stop:
                deps[v].add(b.id)
                v = ipdom[v]
    return deps


def region(cfg: CFG, branch: int, stop: int) -> set[int]:
    """Nodes reachable from a branch before its immediate post-dominator."""
    seen: set[int] = set()
    work = [s for s in cfg.nodes[branch].succs if s != stop]
    while work:
        v = work.pop()
        if v in seen or v == stop:
            continue
        seen.add(v)
        work.extend(cfg.nodes[v].succs)
    return seen
