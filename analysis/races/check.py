"""Barrier intervals and the search for two work-items of one work-group that touch one
element of shared memory between the same two barriers, at least one of them writing;
and, for `__global` memory, for two work-items of two work-groups that touch one element
anywhere in the kernel (no barrier orders work-groups).

Two accesses are in one interval when a path of the control-flow graph leads from one to
the other without crossing a barrier whose flags fence that memory (through loops: the
end of an iteration meets the start of the next; through calls: a call to a function
that reaches a barrier is one). Indices are evaluated for every work-item of a model
work-group; a loop counter takes the values its loop gives it (the same value at both
accesses unless a path between them crosses its update), and a uniform value nothing
here computes takes two unrelated samples: a race is reported only when it shows for
both, so it does not hang on their values. Anything else unknown stays silent.
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tree_sitter import Node, Tree

from cllint.analysis.lazy_re import lazy
from cllint.analysis.records import replace
from cllint.analysis.model.walk import meets_range, nodes_of_kinds
from cllint.analysis.preprocessor.decided import decided_live_ranges
from cllint.analysis.races.accessor_macros import MacroSubscripts
from cllint.analysis.races.accesses import VECTOR_MEMORY, Access, BlockExits, collect, parts_overlap, sized_halves
from cllint.analysis.races.calls import HelperCalls
from cllint.analysis.races.cas_seeds import cas_seed
from cllint.analysis.races.choices import branch_choices, scalar_choices
from cllint.analysis.races.definitions import definitions
from cllint.analysis.races.evaluate import DATA, LOAD, Env, Evaluator
from cllint.analysis.races.frames import Frame, FrameEvaluator, declared_dims, element_size, vector_width
from cllint.analysis.races.launches import one_work_group
from cllint.analysis.races.macros import Expander
from cllint.analysis.races.prefilter import may_share, may_write
from cllint.analysis.races.struct_fills import filled
from cllint.analysis.races.struct_params import lent_to_reader
from cllint.analysis.races.uniform_choices import choice_conditions, forced_value, kernel_terms
from cllint.analysis.syntax import walk
from cllint.analysis.uniformity import builtins as B
from cllint.analysis.uniformity.cfg import CFG, build_cfg
from cllint.analysis.uniformity.dataflow import Facts, _Eval, analyse, callee_name
from cllint.analysis.uniformity.macros import MacroSync
from cllint.analysis.uniformity.names import declared_name
from cllint.analysis.uniformity.summaries import _dead_within, _FileAnalysis, _is_kernel, file_analysis
from cllint.grammar import parse

# Collectives whose result needs every work-item's argument: each work-item's reads in the
# arguments come before any work-item's use of the result.
ALL_INPUTS = {"work_group_reduce_add", "work_group_reduce_min", "work_group_reduce_max",
              "work_group_any", "work_group_all"}
MAX_VALUES = 16  # of one loop counter
MAX_COMBOS = 256  # counter assignments tried per pair
MAX_ACCESSES = 64  # per kernel and memory object; beyond, stay silent
ROUNDS = 2  # samples for unknown uniform values
SAMPLED = 500_000  # an element this far out was picked by a sample (`_sample`: 1,000,003 and up)
ELEMENTS_KEPT = 4096  # accesses' elements kept per kernel (`elements`)
GUARDS_KEPT = 1 << 16  # guards' values kept per kernel (`_elements_of`)
_UNSEEN = object()
_CALLS = frozenset({"call_expression"})
_IDENTIFIERS = frozenset({"identifier"})
_MACRO_USES = frozenset({"identifier", "call_expression"})
_NUMBERS = frozenset({"number_literal"})
_QUERY = lazy(r"\b(get_(?:local_id|local_size|enqueued_local_size|global_id|group_id|num_groups|global_size"
                    r"|local_linear_id|global_linear_id))\s*\(\s*\(*\s*(\w*)")
_LOCAL_QUERIES = {"get_local_id", "get_local_size", "get_enqueued_local_size", "get_local_linear_id",
                  "get_global_linear_id"}
_GRID_QUERIES = {"get_global_id", "get_group_id", "get_num_groups", "get_global_size", "get_global_linear_id"}
_GROUP_IDS = frozenset({"get_group_id", "get_global_id", "get_global_linear_id"})
# what shows a work-item its work-group (check._Kernel._flat); `\w` on both sides: whole words only
_GROUP_WORDS = lazy(rb"(?<!\w)(?:get_(?:group_id|num_groups|local_id|local_size|enqueued_local_size|"
                          rb"local_linear_id|sub_group\w*|max_sub_group_size)|(?:work_group|sub_group)_\w+|"
                          rb"\w*barrier|mem_fence|async_work_group\w*|read_mem_fence|write_mem_fence)(?!\w)")
_GRID_WORD = lazy(r"\bget_(group_id|global_id|global_linear_id)\s*\(\s*\(*\s*(\w*)")
_READS_MEMORY = ("atomic_", "atom_", "read_image", "vload", "work_group_", "sub_group_")
MAX_MACRO_WORDS = 64  # names read as possible id macros per kernel
MAX_COPIED = 4096  # elements of one async copy followed; beyond (or unknown), not judged
WIDEST_NAMED = 128  # the widest model a constant naming a work-item or element grows to (`_named_items`)
MAX_MODEL_ITEMS = 1024  # work-items of a stated work-group size followed; beyond, the usual models


class Race:
    __slots__ = ("code", "start", "end", "message", "notes", "fix", "fix_title", "across_groups", "target")
    code: str  # CL210 local, CL211 global, CL212 fence flags
    start: int
    end: int
    message: str
    notes: tuple[tuple[int, int, str], ...]
    fix: tuple[tuple[int, int, str], ...]
    fix_title: str
    across_groups: bool  # two work-groups: no barrier can order them
    # (kernel, base key, base name): the memory object raced on, in which kernel; races of one
    # rule on one target are said once (per_object.py)
    target: tuple[str, int, str]

    __match_args__ = ("code", "start", "end", "message", "notes", "fix", "fix_title", "across_groups", "target")

    def __init__(
        self,
        code: str,
        start: int,
        end: int,
        message: str,
        notes: tuple[tuple[int, int, str], ...],
        fix: tuple[tuple[int, int, str], ...] = (),
        fix_title: str = "",
        across_groups: bool = False,
        target: tuple[str, int, str] = ("", 0, ""),
    ) -> None:
        self.code = code
        self.start = start
        self.end = end
        self.message = message
        self.notes = notes
        self.fix = fix
        self.fix_title = fix_title
        self.across_groups = across_groups
        self.target = target

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"code={self.code!r}, " f"start={self.start!r}, "
                f"end={self.end!r}, " f"message={self.message!r}, " f"notes={self.notes!r}, "
                f"fix={self.fix!r}, " f"fix_title={self.fix_title!r}, "
                f"across_groups={self.across_groups!r}, target={self.target!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.code, self.start, self.end, self.message, self.notes, self.fix, self.fix_title,
                self.across_groups, self.target)
        theirs = (other.code, other.start, other.end, other.message, other.notes, other.fix, other.fix_title,
                  other.across_groups, other.target)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.code, self.start, self.end, self.message, self.notes, self.fix, self.fix_title,
                     self.across_groups, self.target))


def _text(node: Node | None, limit: int = 40) -> str:
    if node is None or not node.text:
        return ""
    s = " ".join(node.text.decode("utf-8", "replace").split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def analyse_races(tree: Tree, source: bytes, focus: list[tuple[int, int]] | None = None, file: str = "",
                  view: Any = None, portable: Any = None, one_group: frozenset[str] = frozenset(),
                  launches: tuple[tuple[str, tuple[int, int, int] | None, tuple[int, int, int] | None], ...] = ()
                  ) -> list[Race]:
    """`one_group`: kernels every launch of which is known to be one work-group (the host's,
    through `LintOptions.one_group_kernels`): no race between work-groups is looked for in them.
    `launches`: those the configuration states (`LintOptions.launches`, `[[launch]]`)."""
    if b"local" not in source and b"global" not in source:
        return []
    fa = file_analysis(tree, source, file, view, portable)
    try:
        live = decided_live_ranges(view, portable)
    except Exception:  # noqa: BLE001 - a view we cannot read keeps every arm possible
        live = ()
    out: list[Race] = []
    helpers: dict[str, tuple | None] = {}  # a helper's own facts, shared by the kernels calling it
    program = frozenset(n.text for _, d in fa.program_globals if (n := declared_name(d)) is not None and n.text)
    for name in fa.functions:
        func = fa.functions[name]
        spelt = fa.spellings
        # the focus first: a keystroke's run would read every definition's specifiers
        if not meets_range(focus, func.start_byte, func.end_byte) \
                or not (_is_kernel(func) or spelt is not None and spelt.is_kernel(func)):
            continue
        words = spelt.words() if spelt is not None else frozenset()  # `GLOBAL`, `gptr`: the qualifier's
        if not (may_share(source, func.start_byte, func.end_byte, words) or program) \
                or not may_write(func, fa.functions, program, words):
            continue  # no shared memory declared, or none written: no race, no CFG or dataflow built
        try:
            declared = [(size, groups) for kernel, size, groups in launches if kernel in ("", name)]
            single = bool(declared) and all(groups == (1, 1, 1) for _, groups in declared)
            sizes = {size for size, _ in declared}
            size = next(iter(sizes)) if len(sizes) == 1 else None  # (None among them: the implementation's)
            # the dimensions some stated launch runs several work-groups along
            several = {d for _, groups in declared if groups is not None for d in range(3) if groups[d] > 1}
            out.extend(_Kernel(fa, name, view, source, live, helpers, name in one_group or single, size,
                               several).races())
        except RecursionError:
            continue
    out.sort(key=lambda r: (r.start, r.code))
    return out


class _Kernel(HelperCalls):
    def __init__(self, fa: _FileAnalysis, name: str, view: Any, source: bytes, live: tuple = (),
                 helpers: dict[str, tuple | None] | None = None, launched_one_group: bool = False,
                 launched_size: tuple[int, int, int] | None = None, launched_wide: set[int] | None = None) -> None:
        self.source = source
        self.launched_wide = launched_wide or set()  # dimensions a stated launch has several work-groups along
        self.launched_one_group = launched_one_group  # the host launches it as one work-group only
        self.fa, self.name = fa, name
        self.file_live = live
        self.helpers = {} if helpers is None else helpers
        self.int_returns = {}
        # loops of helpers with no barrier, counter key -> (init, condition, update, loop, the
        # call's evaluator), None where two calls read it differently (calls.add_helper_loops)
        self.helper_loops: dict[int, tuple | None] = {}
        self.func = func = fa.functions[name]
        self.body = func.child_by_field_name("body")
        self.exits = BlockExits()
        self._elements: dict[tuple, dict | None] = {}
        self._load_guarded: set[int] = set()  # accesses made under a test of loaded data (`LOAD`)
        self._is_flat: bool | None = None  # `_flat`, read once
        self._one_group: bool | None = None  # `one_group_launched`, read once
        self._selective_guards: dict[int, bool] = {}  # a data guard's node id -> whether it is a key's test
        self.copies: set[int] = set()  # CFG nodes that start an async copy (`accesses`)
        self.waits: set[int] = set()  # and those that may end one
        self.bytes: dict[int, int] = {}  # base key -> its element size, where a cast views its bytes
        self.round: tuple = ()  # (work-group size, sample round) of the witness search
        self.forced: dict[bytes, Any] = {}  # conditions on arguments read one way (uniform_choices.py)
        self._helper_keys: dict[tuple[int, int], bytes | None] = {}  # a helper's guard's, in the kernel's terms
        self.stored: list[Access] = []  # every access (`races`), for what loads read back (`value_dims`)
        self._value_dims: dict[int, set[int]] = {}
        self._assigned: dict[int, list[Node]] | None = None  # variable key -> every value assigned
        self.global_wrap = 0  # where an index of ids wraps (`gid & 31`: 32), uncapped (`_wrapped`)
        self.global_mirror = 0  # the widest mirror of a place (`127 - gid`: 127), uncapped (`_mirror_groups`)
        self.global_shift = 0  # the widest shift of a place (`a[gid + 64]`: 64), uncapped (`_shift_groups`)
        self.global_half = False  # an index names half the NDRange (`gid + get_global_size(0) / 2`)
        self._middles: set[tuple[int, int, int]] = set()  # the work-groups `_halved` paired
        # Per access, asked again for every pair it is in: the loop counters its element
        # follows, and the grid dimensions it follows (`guards`: of its guards only).
        self._counters_of: dict[int, list[int]] = {}
        # per access, the same-value policy's `stores_divergent` (both sides of every pair, within
        # and across work-groups): the access kept with its answer, so a reused id cannot match
        self._divergent_stores: dict[int, tuple[Access, bool]] = {}
        self._grid_dims: dict[tuple[int, bool], set[int]] = {}
        # A counter's values, asked again by every pair and round: by counter, the outer
        # counters' values, the model size and the sample function (one per round, `_sample`).
        self._values: dict[tuple, list[int]] = {}
        self._samples: dict[tuple[str, int], Callable[[object], int]] = {}
        self._guards: dict[tuple, Any] = {}  # a guard's value at a work-item (`_elements_of`)
        self._reach: dict[tuple[int, frozenset[int], bool], set[int]] = {}  # see `reach`
        self._edges: tuple[list[list[int]], list[list[int]]] | None = None  # successors, predecessors
        self.view = view
        self.names = names = fa.names(name)  # resolved once per tree
        # The code the compiler compiles: arms the file decides are dropped are no path, and
        # an arm it decides is kept is the only one (no path around it).
        dead = _dead_within(fa.dead, func.start_byte, func.end_byte)
        live = _dead_within(live, func.start_byte, func.end_byte)
        self.cfg = build_cfg(self.body, dead, live) if self.body is not None else CFG([], 0, 0)
        if self.body is None:
            return
        params = [v for v in names.variables if v.param_index is not None]
        read = {func.start_byte + a: m for a, _, m in fa.macro_syncs.get(name, ())}
        # `#define WG_SUM(x) work_group_reduce_add(x)` is the built-in under another name.
        macros = {at: replace(m, alias=True) if not m.alias and self._wrapper(m, at) else m
                  for at, m in read.items()}
        values = {func.start_byte + a: t for a, t in fa.values(name)}
        # The uniformity family's facts of this kernel, where its analysis saw what this one
        # would: no kept arm, no macro read as the built-in it wraps, no call of itself (its
        # summary is unknown there). Its CFG is built as this one is, node for node.
        shared = None
        if not live and name not in fa.callees.get(name, ()) and macros == read:
            shared = fa.kernel_facts(name)
        if shared is not None:
            self.facts: Facts = shared
            self.names = names = shared.names
        else:
            self.facts = analyse(names, self.cfg, params, True, fa.summary, fa.flat_dims, macros, values)
        # Tags of any expression, read as the dataflow reads it (fields, helpers' results, macros).
        self.tagger = _Eval(names, fa.summary, {}, {}, fa.flat_dims, macros, values)
        direct = {at for at, m in macros.items() if m.alias}
        self.branch_of = {n.syntax.id: n.id for n in self.cfg.nodes if n.kind == "branch" and n.syntax is not None}
        # Calls (macros standing for one included) whose result the whole work-group shares.
        self.uniform_calls = {site.node.id: site.name for site in self.facts.calls if site.name in B.WG_UNIFORM_RESULT
                              and (site.node.start_byte in direct or callee_name(site.node) == site.name)}
        # Barriers: node -> the spaces its flags fence (a helper that reaches one: both).
        self.barriers: dict[int, tuple[set[str], Node]] = {}
        for site in self.facts.calls:
            if site.name in B.BARRIERS:
                from cllint.analysis.races.fences import fenced_spaces  # (kernels with barriers only)

                arg = _arg(site.node, 0) if site.args_known else None
                spaces = set(fenced_spaces(_text(arg, 10_000), site.node.start_byte, view)) if arg is not None \
                    else {"local", "global"}
                self.barriers[site.cfg_node] = (spaces, site.node)
            else:
                sm = fa.summary(site.name)
                if sm is not None and sm.sync == "barrier":
                    from cllint.analysis.races.fences import helper_fenced_spaces

                    self.barriers[site.cfg_node] = (set(helper_fenced_spaces(fa, site.name, view)), site.node)
        shifts: dict[int, tuple[tuple[Node, int], ...]] = {}  # (fields a filler gave `buf + o`)
        self.defs, self.counters, self.assigning, self.moved = definitions(
            self.body, names, self.cfg, lambda amp: lent_to_reader(amp, fa.functions, fa.names),
            lambda node: filled(node, fa.functions, fa.names), shifts)
        # A counter takes the same values in every work-item only if its header is uniform
        # (`for (i = lid; ...)` is no counter: its values follow the work-item).
        heads = {n.owner.id: n.id for n in self.cfg.nodes if n.kind == "branch" and n.owner is not None}
        # One whose start follows the work-item but whose step is uniform (`for (i = lid; i < n;
        # i += get_local_size(0))`) counts iterations instead (`item_counters`, `_env`).
        self.item_counters: dict[int, tuple] = {}
        for k, (start, cond, update, loop) in list(self.counters.items()):
            at = heads.get(loop.id)
            if at is None or any(self.divergent(x, at) for x in (start, cond, update) if x is not None):
                del self.counters[k]
                step = _additive_step(update, k, names) if at is not None and start is not None else None
                if step is not None and (step[0] is None or not self.divergent(step[0], at)) \
                        and _monotone(cond, k, names):
                    self.item_counters[k] = (start, cond, update, loop, step)
        self.loop_conditions = {loop.child_by_field_name("condition").id
                                for _, _, _, loop in self.counters.values()
                                if loop.child_by_field_name("condition") is not None}
        # A scalar argument is the same in every work-item until the body gives it a value that
        # is not (`dst_offset += j * pitch + i`: the work-item's own place from there on; `step /=
        # 4` keeps it shared), as the uniformity analysis has it anywhere in the body.
        apart = _divergent_parameters(self.facts, names, self.moved)
        self.ev = Evaluator(names, self.defs, set(self.counters) | set(self.item_counters), self._constant,
                            lambda v: v.key not in apart)
        self.expander = self.ev.expander = Expander(view, parse)
        self.ev.chooser = lambda: scalar_choices(self.body, names, self.counters)  # (asked for lazily)
        self.ev.helper_value = self.returned_value
        self.frame = Frame(names, self.ev, self.defs, self.moved, kernel=True,
                           choices=branch_choices(self.body, names, self.counters))
        self.frame.shifts = shifts
        self.frame.returns = self.returned
        self.frame.picks = self.picked
        self.frame.loops = self.counters
        if any(v.pointer and v.array and v.param_index is None for v in names.variables):
            from cllint.analysis.races.pointer_arrays import pointer_arrays  # (kernels with such arrays only)

            self.frame.arrays = pointer_arrays(self.body, names)
        self.walks: dict[int, Any] = {}  # `while` loops walking a pointer, by loop id (pointer_walks.py)
        if any(n.type in ("while_statement", "for_statement") for n in self.body.named_children) \
                and any(v.pointer and not v.array and v.param_index is None for v in names.variables):
            from cllint.analysis.races.pointer_walks import while_walks  # (kernels with such loops only)

            self.walks = self.frame.walks = while_walks(self.body, names)
        via_macros = self._macro_queries()
        self.asked = _asked(func, via_macros, self._constant)
        if not self.asked.anything:  # its place asked only through helpers that return it
            self.asked = _asked_in_returns(func, fa.functions, self._constant)
        # (the file's flat dimensions count calls only: one a macro asks about is not flat)
        flat = fa.flat_dims - _asked(None, via_macros).local
        self.sizes, self.reqd = _model_sizes(func, flat, self.asked, launched_size, self._int_value)
        self.size = self.sizes[0]
        self._enter_loops(heads)
        # A counter that follows the work-item along some of the work-group's dimensions only
        # (`for (l = lid_x; ...; l += lsz_x)` in a kernel that also asks `get_local_id(1)`) is
        # one row's cooperative loop, launched with that row alone as often as not: not followed.
        wide = {d for s in self.sizes for d in range(3) if s[d] > 1}
        for k in [k for k, loop in self.item_counters.items() if not wide <= self._place_dims(loop[0])]:
            del self.item_counters[k]
        for k, w in self.walks.items():  # a walk's passes: a counter of its own, keyed by the loop
            self.item_counters[k] = (None, w.cond, None, w.loop, (None, 1))
            self.assigning[k] = {n.id for n in self.cfg.nodes if n.syntax is not None and n.syntax == w.step}

    def _enter_loops(self, heads: dict[int, int]) -> None:
        """A loop whose counter's first value meets its condition, at every model size and
        sample (`for (d = n >> 1; d > 0; ...)` with `n = 2 * get_local_size(0)`), runs its
        body at least once: the CFG's way from before the loop to past it without entering it
        is no path (its barrier, if any, always runs first). Edges into the head from outside
        the body go straight into the body instead."""
        for k, (_, _, update, loop) in self.counters.items():
            at = heads.get(loop.id)
            body = loop.child_by_field_name("body")
            if at is None or body is None or not self._always_enters(k):
                continue
            head = self.cfg.nodes[at]
            if len(head.succs) != 2:
                continue
            for n in self.cfg.nodes:
                if at in n.succs and n.syntax is not None and n.syntax != update \
                        and not body.start_byte <= n.syntax.start_byte < body.end_byte \
                        and not (n.syntax.parent is not None and n.syntax.parent == update.parent
                                 and update.parent.type == "expression_statement" and n.syntax == update.parent):
                    n.succs = [head.succs[0] if s == at else s for s in n.succs]

    def _place_dims(self, expr: Node, depth: int = 0) -> set[int]:
        """The dimensions of the work-item's place `expr` follows (ids, through variables
        defined once and macros)."""
        out: set[int] = set()
        for n in walk(expr):
            if n.type == "call_expression" and callee_name(n) in ("get_local_id", "get_global_id"):
                out |= self._dims_of(n)
            elif n.type == "call_expression" and callee_name(n) in ("get_local_linear_id", "get_global_linear_id"):
                out |= {0, 1, 2}
            elif n.type == "identifier" and depth < 8:
                v = self.names.var(n)
                d = self.defs.get(v.key) if v is not None else None
                if d is not None:
                    out |= self._place_dims(d, depth + 1)
                elif v is None:
                    out |= {int(d) for q, d in _QUERY.findall(self.expander.text_of(n, n.start_byte) or "")
                            if q in ("get_local_id", "get_global_id") and d in ("0", "1", "2")}
        return out

    def _always_enters(self, key: int) -> bool:
        try:
            for size, r in itertools.product(self.sizes, range(ROUNDS)):
                self.size = size
                if not self.values(key, {}, self._sample("plain", r)):
                    return False
            return True
        finally:
            self.size = self.sizes[0]

    # -- facts ---------------------------------------------------------------------------
    def _dims_of(self, query: Node) -> set[int]:
        """The dimension a work-item query asks (`get_group_id(1)`, `get_local_id(X_DIM)` with
        `#define X_DIM 0`); all three where it is not a constant."""
        arg = _arg(query, 0)
        text = _text(arg)
        d = int(text) if text in ("0", "1", "2") else \
            self._constant(arg) if arg is not None and arg.type == "identifier" else None
        return {d} if d in (0, 1, 2) else {0, 1, 2}

    def _constant(self, ident: Node) -> int | None:
        """The integer an object-like macro stands for, its macros expanded (`#define T 16`,
        `#define MASK (T - 1)` no: only a literal)."""
        text = self.expander.text_of(ident, ident.start_byte) if ident.type == "identifier" else None
        got = re.fullmatch(r"\s*\(?\s*(\d+)[uUlL]*\s*\)?\s*", text or "")
        return int(got.group(1)) if got else None

    def _int_value(self, n: Node) -> int | None:
        """An integer argument's value: a literal, or a macro's expansion evaluated as `#if`
        does (`#define WG (WARP_COUNT * WARP_SIZE)`, `(1U << 5U)`)."""
        if n.type == "number_literal" and n.text:
            return _evaluated(n.text.decode("latin-1"))
        text = self.expander.text_of(n, n.start_byte) if n.type == "identifier" else None
        return _evaluated(text) if text else None

    def _macro_queries(self) -> list[tuple[str, str]]:
        """(query, argument text) of the work-item queries the kernel makes through macros
        (`#define tid get_local_id(0)`, `#define IDX(d) get_local_id(d)` used as `IDX(0)`):
        read in each use's expansion, so a macro's parameter is the argument it is given."""
        if self.view is None or self.body is None:
            return []
        uses: dict[bytes, Node] = {}
        for m in nodes_of_kinds(self.body, _MACRO_USES, ordered=False):
            if m.type == "identifier":
                if m.text and self.names.var(m) is None and not (
                        m.parent is not None and m.parent.type == "call_expression"
                        and m.parent.child_by_field_name("function") == m):
                    uses.setdefault(m.text, m)
            else:
                fn = m.child_by_field_name("function")
                name = fn.text.decode() if fn is not None and fn.type == "identifier" and fn.text else ""
                if name and name not in self.fa.functions and not name.startswith("get_") and m.text:
                    uses.setdefault(m.text, m)
        out: list[tuple[str, str]] = []
        for text in sorted(uses)[:MAX_MACRO_WORDS]:
            node = uses[text]
            out += _QUERY.findall(self.expander.text_of(node, node.start_byte) or "")
        return out

    def _placed(self, expr: Node | None, depth: int = 0) -> bool:
        """Whether `expr` is computed from work-item ids and constants only (through
        variables defined once): no loop counter, argument, load or unknown name."""
        if expr is None or depth > 8:
            return False
        ids = False
        for n in walk(expr):
            if n.type == "call_expression":
                name = callee_name(n)
                if name not in _LOCAL_QUERIES and name not in _GRID_QUERIES:
                    return False
                ids = True
            elif n.type in ("subscript_expression", "field_expression", "pointer_expression"):
                return False
            elif n.type == "identifier" and not (n.parent is not None and n.parent.type == "call_expression"):
                v = self.names.var(n)
                if v is None:
                    text = self.expander.text_of(n, n.start_byte) or ""
                    if _QUERY.search(text):
                        ids = True
                    elif self._constant(n) is None:
                        return False
                    continue
                d = self.defs.get(v.key)
                if d is None or not self._placed(d, depth + 1):
                    return False
                ids = True
        return ids

    def _placed_locally(self, expr: Node | None) -> bool:
        """`_placed`, by the work-item's place in its work-group alone (no group or global id)."""
        return self._placed(expr) and not self._asks_grid(expr, 0)

    def _asks_grid(self, expr: Node | None, depth: int) -> bool:
        """Whether `expr` asks a group or global id (directly, through variables defined once or macros)."""
        if expr is None or depth > 8:
            return True
        for n in walk(expr):
            if n.type == "call_expression" and callee_name(n) in _GRID_QUERIES:
                return True
            if n.type == "identifier" and not (n.parent is not None and n.parent.type == "call_expression"):
                v = self.names.var(n)
                if v is None:
                    m = _QUERY.search(self.expander.text_of(n, n.start_byte) or "")
                    if m is not None and m.group(1) in _GRID_QUERIES:
                        return True
                elif (d := self.defs.get(v.key)) is not None and self._asks_grid(d, depth + 1):
                    return True
        return False

    def _wrapper(self, m: MacroSync, at: int) -> bool:
        """A function-like macro whose body is just the call of its built-in on its parameters."""
        try:
            d = self.view.macro_at(m.macro, at) if self.view is not None else None
        except Exception:  # noqa: BLE001 - someone else's code
            return False
        params = getattr(d, "params", None)
        if not params or getattr(d, "variadic", False):
            return False
        args = r"\s*,\s*".join(r"\(?\s*" + re.escape(x) + r"\s*\)?" for x in params)
        return re.fullmatch(rf"\s*\(?\s*{re.escape(m.call)}\s*\(\s*{args}\s*\)\s*\)?\s*", d.body) is not None

    def accesses(self) -> list[Access]:
        out: list[Access] = []
        macro_subscript = MacroSubscripts(self.expander, self.ev)
        for node in self.cfg.nodes:
            if node.syntax is None or node.id in self.barriers:
                continue
            out.extend(collect(self.names, node.syntax, node.id, self.body, self.frame.target_of, self.exits,
                               self.frame.targets_of, self.frame.scalar_of, macro_subscript))
        out.extend(self.helper_accesses())
        for a in out:  # a counter's values already satisfy its loop's condition
            a.guards = tuple(g for g in a.guards if g.cond.id not in self.loop_conditions)
        if any(a.copy for a in out):
            for a in out:
                if a.copy:
                    self.copies.add(a.cfg_node)
                    a.cfg_node = self.copy_node(a.cfg_node)
            for site in self.facts.calls:  # a helper that synchronises may wait, too
                sm = self.fa.summary(site.name) if site.name in self.fa.functions else None
                if site.name == "wait_group_events" or sm is not None and sm.sync is not None:
                    self.waits.add(site.cfg_node)
        return out

    def reach(self, start: int, blocks: set[int], forward: bool = True) -> set[int]:
        """The CFG nodes a path from `start` reaches (back to it, `forward` False) without
        passing a node of `blocks`. Asked for both sides of every pair: kept per start, blocks
        and direction, and the edges read once (the CFG is final once `__init__` is done)."""
        key = (start, frozenset(blocks), forward)
        got = self._reach.get(key)
        if got is None:
            if self._edges is None:
                self._edges = ([n.succs for n in self.cfg.nodes], self.cfg.preds())
            got = self._reach[key] = self._reach_along(self._edges[0] if forward else self._edges[1], start, blocks)
        return set(got)

    @staticmethod
    def _reach_along(edges: list[list[int]], start: int, blocks: set[int]) -> set[int]:
        seen: set[int] = set()
        work = list(edges[start])
        while work:
            v = work.pop()
            if v in seen or v in blocks:
                continue
            seen.add(v)
            work.extend(edges[v])
        return seen

    # -- the search ----------------------------------------------------------------------
    def races(self) -> Iterator[Race]:
        if self.body is None:
            return
        by_base: dict[int, list[Access]] = {}
        accesses = self.stored = self.accesses()
        for a in accesses:
            by_base.setdefault(a.base.key, []).append(a)
            if a.view:
                # (a pointer to a typedef'd array, `global block_t *A`: its element's bytes, `inner`)
                self.bytes[a.base.key] = element_size(a.base) or (a.inner[0] if a.inner else 0)
        self.global_wrap = _wraps(accesses, 1 << 16, self._placed)
        self.global_mirror = _global_mirror(accesses, self._placed, self._macro_int)
        self.global_shift = _global_shift(accesses, self._placed)
        self.global_half = _names_half_the_range(self.body)
        if self.reqd is None:
            self.sizes = self._copy_width(accesses) or _fit_constants(self.sizes, accesses, self._placed,
                                                                      self._macro_int, self._placed_locally)
            self.size = self.sizes[0]
        used: set[int] = set()
        found: list[Race] = []
        # its launches are one work-group each (the host's, or a piglit header's)
        one_group = self.one_group_launched()
        for group in by_base.values():
            if len(group) > MAX_ACCESSES or not any(a.write for a in group):
                continue
            space = group[0].space
            all_blocks = set(self.barriers)
            covering = {n for n, (spaces, _) in self.barriers.items() if space in spaces}
            reach_all = {a.cfg_node: self.reach_of(a.cfg_node, all_blocks) for a in group}
            reach_cov = reach_all if covering == all_blocks else \
                {a.cfg_node: self.reach_of(a.cfg_node, covering) for a in group}
            pairs = sorted(((a, b) for a, b in itertools.combinations_with_replacement(group, 2)
                            if (a.write or b.write) and not (a.atomic and b.atomic)
                            and not (a.copy and b.copy and a.node == b.node and a is not b)  # one copy's two sides
                            and not cas_seed(a, b)  # a swap loop's guess, checked by the swap (cas_seeds.py)
                            and (self.asked.anything or _one_update(a, b) or self.updated_through(a, b)
                                 or a.atomic != b.atomic)),  # (an atomic means many work-items share it)
                           key=lambda p: max(p[0].anchor.start_byte, p[1].anchor.start_byte))
            for a, b in pairs:
                if a.ident in used or b.ident in used or a is b and a.copy:
                    continue  # (a copy with itself: one work-group's, met by another's only)
                race = self.pair(a, b, reach_all, all_blocks, space, fence=False)
                if race is None and covering != all_blocks:
                    race = self.pair(a, b, reach_cov, covering, space, fence=True)
                if race is not None:
                    used.update((a.ident, b.ident))
                    found.append(race)
            if space != "global" or one_group:
                continue
            for a, b in pairs:  # what no barrier orders: two work-groups
                if a.ident in used or b.ident in used:
                    continue
                if a.read or b.read:
                    dims = self.grid_dims(a) | self.grid_dims(b)
                    if not dims and (a.atomic or b.atomic) and a is not b:
                        dims = set(self.asked.grid)  # an atomic every work-group makes, met by a plain access
                    if not dims:  # one element every work-group reads and writes (`x = p[lid]; ...
                        # p[lid] = x + 1`): they meet where several run, which a stated launch says, or
                        # a kernel that asks its place among work-groups is written for
                        dims = set(self.launched_wide) or set(self.asked.grid)
                else:
                    dims = self.stores_across(a, b)
                if not dims:
                    continue
                race = self.across(a, b, dims)
                if race is not None:
                    used.update((a.ident, b.ident))
                    found.append(race)
        yield from found

    def _macro_int(self, n: Node) -> int | None:
        """`_constant` below 100,000: a place a model may be widened to (`#define MASK 15`)."""
        got = self._constant(n)
        return got if got is not None and got < 100_000 else None

    def _copy_width(self, accesses: list[Access]) -> list[tuple[int, int, int]]:
        """A one-dimensional kernel whose work-groups each copy a constant `n` elements at an
        offset that follows the group (`async_work_group_copy(tile, in + get_group_id(0) *
        32, 32, e)`) is written for `n`-wide work-groups: the one model, where each work-group's
        copy meets its own work-items' elements (a narrower one would pair them across groups)."""
        if any(n > 1 for s in self.sizes for n in s[1:]):
            return []
        widths = set()
        for a in accesses:
            if a.copy and self.grid_dims(a) == {0}:
                n = self.ev.value(a.copy[1], Env((0, 0, 0), self.sizes[0], (0, 0, 0)))
                widths.add(n)
        if len(widths) != 1 or not isinstance(n := next(iter(widths)), int) or not 1 < n <= 256:
            return []
        return [(n, 1, 1)]

    def pair(self, a: Access, b: Access, reach: dict[int, set[int]], blocks: set[int], space: str,
             fence: bool) -> Race | None:
        if a.unknown_guard or b.unknown_guard or not self.overlap(a, b) \
                or self.ordered_by_collective(a, b):
            return None
        ab, ba = b.cfg_node in reach[a.cfg_node], a.cfg_node in reach[b.cfg_node]
        same = a.cfg_node == b.cfg_node
        if not (same or ab or ba):
            return self.apart(a, b, blocks, space, fence)
        first, second = (a, b) if (same or ab and not ba) and _order(a) <= _order(b) \
            or ab and not ba else (b, a)
        if same or (ab and ba):
            first, second = sorted((a, b), key=_order)
        between = self.reach_of(first.cfg_node, blocks) & self.reach_of(second.cfg_node, blocks, forward=False)
        if same:
            between |= {first.cfg_node} & self.reach_of(first.cfg_node, blocks)
        witness = self.witness(first, second, between)
        if witness is None:
            return None
        return self.report(first, second, witness, between, space, fence)

    def overlap(self, a: Access, b: Access) -> bool:
        """Whether the parts of one element two accesses name share bytes, a half (`.hi`) of
        a vector element read as the components its declared width gives it."""
        if not any(p and isinstance(p[0], tuple) for p in (a.part, b.part)):
            return parts_overlap(a.part, b.part)
        width = vector_width(a.base) if a.base.key == b.base.key and not (a.view or b.view) else None
        return parts_overlap(sized_halves(a.part, width), sized_halves(b.part, width))

    def apart(self, a: Access, b: Access, blocks: set[int], space: str, fence: bool) -> Race | None:
        """Two accesses neither of which reaches the other, but both reached from one point
        with no barrier (`blocks`) on the way: the two arms of one branch (`if (lid & 1)
        l[lid] = v; else x = l[lid + 1];`). Work-items taking either arm run them in one
        barrier interval. What lies on the way to one only is between them (a counter
        updated there differs); no barrier can go between them (the fix would sit in an arm).
        An async copy runs on until its wait: its own reach says what it meets."""
        if a.copy or b.copy:
            return None
        back_a = self.reach_of(a.cfg_node, blocks, forward=False)
        back_b = self.reach_of(b.cfg_node, blocks, forward=False)
        common = back_a & back_b
        if not any(self._splits(d, a.cfg_node, back_a, b.cfg_node, back_b) for d in common):
            return None  # (a uniform branch: every work-item takes the same arm)
        first, second = sorted((a, b), key=_order)
        between = (back_a | back_b) - common
        witness = self.witness(first, second, between)
        if witness is None:
            return None
        return self.report(first, second, witness, between, space, fence, apart=True)

    def _splits(self, d: int, a: int, back_a: set[int], b: int, back_b: set[int]) -> bool:
        """Whether `d` is a branch the work-items of a work-group may take differently, one
        arm leading to `a` and the other to `b`."""
        node = self.cfg.nodes[d]
        if node.kind != "branch" or len(node.succs) < 2 \
                or not self.facts.branch_tags.get(d, 0) & B.WG_DIVERGENT:
            return False
        to_a = [i for i, s in enumerate(node.succs) if s == a or s in back_a]
        to_b = [i for i, s in enumerate(node.succs) if s == b or s in back_b]
        return any(i != j for i in to_a for j in to_b)  # (a switch: one arm per case)

    def _sample(self, kind: str, r: int) -> Callable[[object], int]:
        """The sample function of round `r`, one object per kind and round (the `values` memo
        is keyed by it): `plain` for `_always_enters`, `hashed` for the witness search."""
        got = self._samples.get((kind, r))
        if got is None:
            one = self.one_group_launched()
            if kind == "plain":
                def got(symbol: object, r: int = r) -> int:
                    return 1 if one and _NUM_GROUPS(symbol) else 1_000_003 + 104_729 * r
            else:
                def got(symbol: object, r: int = r) -> int:
                    return 1 if one and _NUM_GROUPS(symbol) else \
                        1_000_003 + 7_919 * (zlib.crc32(repr(symbol).encode()) % 1009) + 104_729 * r
            self._samples[(kind, r)] = got
        return got

    def counters_of(self, acc: Access) -> list[int]:
        got = self._counters_of.get(id(acc))  # the accesses live as long as the kernel's check
        if got is None:
            got = self._counters_of[id(acc)] = self._find_counters(acc)
        return list(got)

    def _find_counters(self, acc: Access) -> list[int]:
        seen: set[int] = set()
        out: list[int] = []
        stack = [*acc.indices, *(g.cond for g in acc.guards), *(n for _, n, _ in acc.offset), *acc.roots]
        while stack:
            n = stack.pop()
            for m in walk(n):
                if m.type == "field_expression":
                    fk = self.ev.field_key(m)  # a field defined once: what its value names
                    if fk is not None and fk in self.defs and fk not in seen:
                        seen.add(fk)
                        stack.append(self.defs[fk])
                    continue
                if m.type != "identifier":
                    continue
                v = self.names.var(m)
                if v is None and acc.helper is not None and self.helper_loops and isinstance(acc.ev, Evaluator):
                    v = acc.ev.names.var(m)  # (a helper's own name: its loops' counters)
                if v is None or v.key in seen:
                    continue
                seen.add(v.key)
                loop = self.counters.get(v.key) or self.item_counters.get(v.key) or self.helper_loops.get(v.key)
                if loop is not None:
                    out.append(v.key)
                    stack.append(loop[0])  # bounds may name outer counters
                    cond = loop[1]
                    if cond is not None:
                        stack.append(cond)
                elif v.key in self.defs:
                    stack.append(self.defs[v.key])
                elif acc.helper is not None and isinstance(acc.ev, Evaluator) and v.key in acc.ev.defs:
                    stack.append(acc.ev.defs[v.key])  # (a helper's variable defined once)
        out += [k for e, _, _ in acc.offset if (k := getattr(e, "walk_key", None)) in self.walks and k not in out]
        # Outer loops first: their values feed inner loops' bounds.
        return sorted(out, key=self._loop_start)

    def _stored_counters(self, acc: Access) -> set[int]:
        """The loop counters a plain store's value follows (directly or through variables
        defined once), where the value is computed from them, ids and constants alone (none
        where it loads: which value a load gives is `differ`'s to tell, by what it reads)."""
        value = _stored(acc)
        out: set[int] = set()
        seen: set[int] = set()
        stack = [value] if value is not None else []
        while stack:
            for m in walk(stack.pop()):
                if m.type in _LOADING or m.type == "call_expression" and callee_name(m) not in _LOCAL_QUERIES \
                        and callee_name(m) not in _GRID_QUERIES:
                    return set()
                v = self.names.var(m) if m.type == "identifier" else None
                if v is None and m.type == "identifier" and acc.helper is not None and self.helper_loops \
                        and isinstance(acc.ev, Evaluator):
                    v = acc.ev.names.var(m)  # (a helper's own name: its loops' counters)
                if v is None and m.type == "identifier" and not (m.parent is not None
                                                                  and m.parent.type == "call_expression"):
                    if self._constant(m) is None:
                        return set()  # a name not followed
                if v is None or v.key in seen:
                    continue
                seen.add(v.key)
                if v.key in self.counters or v.key in self.item_counters or self.helper_loops.get(v.key):
                    out.add(v.key)
                elif v.key in self.defs:
                    stack.append(self.defs[v.key])
                elif v.key in self.moved or v.pointer or v.array or v.shared:
                    return set()  # assigned in the body, or memory: not computed from counters alone
        return out

    def _loop_start(self, key: int) -> int:
        return (self.counters.get(key) or self.item_counters.get(key) or self.helper_loops[key])[3].start_byte

    def assignments(self, keys: list[int], env_base: dict[int, int], sample,
                    group: tuple[int, int, int] = (0, 0, 0)) -> Iterator[dict[int, int]]:
        """Every assignment of the counters `keys` (outer first), each one's values from its loop
        (`group`: the work-group whose values a counter that follows the group takes)."""
        if not keys:
            yield dict(env_base)
            return
        k, rest = keys[0], keys[1:]
        for val in self.values(k, env_base, sample, group):
            yield from self.assignments(rest, {**env_base, k: val}, sample, group)

    def values(self, key: int, counters: dict[int, int], sample, group: tuple[int, int, int] = (0, 0, 0)
               ) -> list[int]:
        memo = (key, frozenset(counters.items()), self.size, sample, group)
        got = self._values.get(memo)
        if got is None:
            got = self._values[memo] = self._counter_values(key, counters, sample, group)
        return list(got)

    def _counter_values(self, key: int, counters: dict[int, int], sample,
                        group: tuple[int, int, int] = (0, 0, 0)) -> list[int]:
        if key in self.walks:
            return self._walk_passes(key, counters, sample)
        if key in self.item_counters:
            return self._iterations(key, counters, sample)
        if key in self.counters:
            init, cond, update, _ = self.counters[key]
            ev = self.ev
        else:
            init, cond, update, _, ev = self.helper_loops[key]  # type: ignore[misc]
        env = Env((0, 0, 0), self.size, group, dict(counters), sample)
        v = ev.value(init, env)
        out: list[int] = []
        while v is not None and len(out) < MAX_VALUES:
            env.counters[key] = v
            c = ev.value(cond, env) if cond is not None else 1
            if not c:
                break
            out.append(v)
            v = _step(ev, update, key, env)
            if v is not None and v in out:
                break
        else:
            if len(out) == MAX_VALUES:
                out = _with_last(out, ev, cond, key, env)
        return out

    def _iterations(self, key: int, counters: dict[int, int], sample) -> list[int]:
        """The iterations (0, 1, ...) of a counter that follows the work-item which its first
        or last work-item runs (each work-item's own are checked by the loop's condition,
        a guard of the accesses in it)."""
        cond = self.item_counters[key][1]
        last = tuple(n - 1 for n in self.size)
        out: list[int] = []
        for j in range(MAX_VALUES):
            on = cond is None
            for lid in ((0, 0, 0), last):
                if not on:
                    c = self.ev.value(cond, self._env(lid, (0, 0, 0), {**counters, key: j}, sample))
                    on = c is None or bool(c)
            if not on:
                return out
            out.append(j)
        # More than MAX_VALUES: the last iterations of the extreme work-items too (`_with_last`).
        ends = set()
        for lid in ((0, 0, 0), last):
            env = self._env(lid, (0, 0, 0), {**counters, key: 0}, sample)
            v0, v1 = env.counters[key], self._env(lid, (0, 0, 0), {**counters, key: 1}, sample).counters[key]
            tail = _with_last([v0 + i * (v1 - v0) for i in range(MAX_VALUES)], self.ev, cond, key, env) \
                if isinstance(v0, int) and isinstance(v1, int) and v1 != v0 else []
            ends |= {(v - v0) // (v1 - v0) for v in tail[1::2]}  # (the tail's, interleaved)
        ends -= set(out)
        head = out[: MAX_VALUES - min(len(ends), MAX_VALUES // 2)]
        return head + sorted(ends, reverse=True)[: MAX_VALUES - len(head)]

    def _walk_passes(self, key: int, counters: dict[int, int], sample) -> list[int]:
        """The passes of a pointer's `while` walk that its first or last work-item makes (each
        work-item's own are checked by the loop's condition, a guard of the accesses in it)."""
        last = tuple(n - 1 for n in self.size)
        out: list[int] = []
        for j in range(MAX_VALUES):
            if not any(self._walk_holds(self.walks[key], self._env(lid, (0, 0, 0), {**counters, key: j}, sample))
                       for lid in ((0, 0, 0), last)):
                break
            out.append(j)
        return out

    def _walk_holds(self, w: Any, env: Env) -> int | None:
        """A walk's condition at a pass (`p < end`): the two pointers' offsets into one object
        compared; None where either is not followed."""
        op = _text(w.cond.child_by_field_name("operator"))
        sides = [self.frame.target_of(w.cond.child_by_field_name(f)) for f in ("left", "right")]
        if None in sides or sides[0].base.key != sides[1].base.key or sides[0].view != sides[1].view:
            return None
        at = []
        for t in sides:
            parts = [sign * v if isinstance(v := e.value(n, env), int) else None for e, n, sign in t.offset]
            if None in parts:
                return None
            at.append(sum(parts))  # type: ignore[arg-type]
        return int(at[0] < at[1] if op == "<" else at[0] <= at[1] if op == "<=" else at[0] != at[1])

    def _env(self, lid: tuple[int, int, int], group: tuple[int, int, int], counters: dict[int, int],
             sample) -> Env:
        """The `Env` of a work-item, where the counters that follow the work-item, given by
        their iteration, take the value that iteration gives it (`start + j * step`)."""
        env = Env(lid, self.size, group, dict(counters), sample)
        for k in sorted((k for k in counters if k in self.item_counters and k not in self.walks), key=self._loop_start):
            start, _, _, _, (step, sign) = self.item_counters[k]
            v = self.ev.value(start, env)
            d = 1 if step is None else self.ev.value(step, env)
            env.counters[k] = v + counters[k] * sign * d if isinstance(v, int) and isinstance(d, int) \
                else None  # type: ignore[assignment]
        return env

    def witness(self, first: Access, second: Access, between: set[int], across: set[int] | None = None
                ) -> tuple | None:
        """Two work-items, the element and the counters' values where `first` and `second`
        collide, for every round of samples; None if some round has none. `across`: the two
        work-items are in two neighbouring work-groups (every counter independent), and the
        witness is (w1, w2, element, group of w1, group of w2)."""
        k1, k2 = self.counters_of(first), self.counters_of(second)
        # (a helper's loop has no barrier: two work-items may be in any of its passes)
        independent = set(k1) | set(k2) if across else \
            {k for k in set(k1) | set(k2) if self.assigning.get(k, set()) & between or k in self.helper_loops}
        if self.same_value(first, second, bool(across)) and not (
                not across and independent and self._stored_counters(first) & independent):
            # every work-item stores the same value: benign, as Oclgrind deems it (a loop
            # counter's value is the same only in the same pass: `a[lid + i] = i` differs)
            return None
        if not across and (self.read_back(first, second) or self.read_back(second, first)):
            return None
        chosen = choice_conditions(self.frame, (first, second))
        # a pointer chosen on a scalar argument (`(it & 1) ? A : B`), a guard on one (`if (it &
        # 1)`): each way, one at a time
        got = None
        for reading in itertools.product(*(values for _, values in chosen)):
            self.forced = {key: value for (key, _), value in zip(chosen, reading)}
            got = self._witness_rounds(first, second, k1, k2, independent, across)
            if got is not None:
                break
        self.forced = {}
        return got

    def _witness_rounds(self, first: Access, second: Access, k1, k2, independent, across) -> tuple | None:  # noqa: ANN001
        got = None
        for size, r in itertools.product(self.sizes, range(ROUNDS)):
            self.size = size
            self.round = (size, r, tuple(self.forced.items()))
            sample = self._sample("hashed", r)
            group = (0, 0, 0) if r == 0 else (3, 2, 1)
            hit = None
            # a race only the first work-group has (`if (gid == 0)` and `if (gid == 1)` are
            # items of work-group 0 alone) is as real: the other round's samples there as well
            for groups in (_neighbours(across) + self._wrapped(across) + _mirrored(across, sample)
                           + self._mirror_groups(across) + self._shift_groups(across)
                           + self._halved(across, sample) if across
                           else [(group, group)] + ([((0, 0, 0), (0, 0, 0))] if r and got else [])):
                hit = self.search(first, second, k1, k2, independent, sample, groups)
                if hit is not None:
                    hit = (*hit, *groups) if across else hit
                    break
            if hit is None:
                self.size = self.sizes[0]
                if not across and got is not None and size != self.sizes[0] and self._flat():
                    return got  # (the work-group's size is nowhere seen: `_flat`)
                return None
            got = got or hit
        self.size = self.sizes[0]
        return got

    def one_group_launched(self) -> bool:
        """Launched as one work-group only (the host's, a stated launch's, a piglit header's),
        read once per kernel (the header's parse is not cheap on piglit's generated files)."""
        if self._one_group is None:
            self._one_group = self.launched_one_group or one_work_group(self.source, self.name)
        return self._one_group

    def _flat(self) -> bool:
        """A kernel whose work-items see nothing of their work-groups: no barrier, no query of
        the work-group or a place in it, in the kernel, its macros or the file's helpers (the
        file's text holds none of those words), and `get_global_id` asked. Its work-items are
        one unordered NDRange, so a race the larger model shows (work-items 1 and 12 of one
        16-wide work-group) is one between those global work-items in any launch of as many:
        the smaller model, whose work-groups split them, is not asked to show it too."""
        if self._is_flat is None:
            self._is_flat = not self.barriers and not self.asked.local and bool(self.asked.grid) \
                and self.reqd is None and _GROUP_WORDS.search(self.source) is None
        return self._is_flat

    def read_back(self, store: Access, load: Access) -> bool:
        """A value every work-item stores (no guard, a value the work-group shares: `s.n =
        n;`) read back after its own store (`s.m = s.n + 1;`): whichever work-item's store
        the load sees, the value is the one it stored itself. The same-value policy, for a
        load."""
        if not store.write or store.read or store.atomic or store.guards or store.unknown_guard \
                or store.site is not None or not load.read or load.write or load.atomic:
            return False
        if not _same_place(store, load):
            return False  # another element: the loading work-item's own store is not what it reads
        after = self.reach_of(store.cfg_node, set(self.barriers))
        before = self.reach_of(load.cfg_node, set(self.barriers))
        if load.cfg_node not in after or store.cfg_node in before or store.cfg_node == load.cfg_node:
            return False  # not first in every work-item (a loop, or the same statement)
        return not self.stores_divergent(store)

    def same_value(self, first: Access, second: Access, across: bool) -> bool:
        """Two plain stores of one expression whose value the whole work-group shares (the
        whole NDRange, `across`): a race between them changes nothing, and is not reported.
        Stores of two different expressions (`A[0] = 1` and `A[0] = 2`) may store different
        values; `differ` then looks at the values the two work-items found store."""
        if not (first.write and second.write) or first.read or second.read:
            return False
        v1, v2 = _stored(first), _stored(second)
        if v1 is None or v2 is None or (first is not second and _norm(v1) != _norm(v2)):
            return False
        if self.stores_divergent(first) or self.stores_divergent(second):
            return False
        return not across or not (self.group_dependent(v1, first) or self.group_dependent(v2, second))

    def differ(self, first: Access, second: Access, w1, w2, g1, g2, c1, c2, sample) -> bool:
        """Whether two work-items' stores can leave different values (a read is always a
        conflict): False only where both values are computed here and equal."""
        if not (first.write and second.write) or first.read or second.read or first.view != second.view:
            return True
        vals = []
        for acc, w, g, c in ((first, w1, g1, c1), (second, w2, g2, c2)):
            node = _stored(acc)
            if node is None:
                return True
            v = self.value_ev(acc).value(node, self._env(w, g, c, sample))
            v = _number(node) if v is None else v
            if v is None:
                if g1 == g2:
                    return not self.loads_agree(first, second, (w1, c1), (w2, c2), g1, sample)
                return self.may_differ_across(first, second, w1, w2)
            vals.append(v)
        return vals[0] != vals[1]

    def loads_agree(self, first: Access, second: Access, item1, item2, group, sample) -> bool:
        """One store statement whose value reads memory (`s[w] = t[w]`), made by two work-items
        of one work-group: the same value when what it reads agrees (`values_agree`)."""
        value = _stored(first)
        if value is None or first.node != second.node or self.value_ev(first) is not self.ev \
                or self.value_ev(second) is not self.ev:
            return False
        env1, env2 = (self._env(w, group, c, sample) for w, c in (item1, item2))
        from cllint.analysis.races.stable_loads import values_agree  # (stores of loaded values only)

        return values_agree(self, value, first.cfg_node, env1, env2)

    def may_differ_across(self, first: Access, second: Access, w1, w2) -> bool:
        """Two plain stores by two work-groups whose values are not computed here: the same
        expression, following nothing that differs between work-groups (`out[lid] = in[lid]`),
        stores the same value where both work-items have one place in their work-groups (or
        the value is the work-group's): the same-value policy across work-groups."""
        v1, v2 = _stored(first), _stored(second)
        if v1 is None or v2 is None or _norm(v1) != _norm(v2) or first.view != second.view:
            return True
        if self.value_dims(first) or self.value_dims(second):
            return True
        return w1 != w2 and (self.stores_divergent(first) or self.stores_divergent(second))

    def stores_across(self, a: Access, b: Access) -> set[int]:
        """Two plain stores (or one, made by every work-group): the dimensions along which
        work-groups are paired to look for a write-write race between two of them, those the
        elements or the stored values follow; none where every work-group stores the same
        values at the same places (`p[lid] = lid * 2`, `out[0] = 1`: kernels written for
        one work-group), or a side is an atomic or a copy (its value is not read here)."""
        if a.atomic or b.atomic or any(_stored(x) is None and not (x.copy and x.write) for x in (a, b)):
            return set()
        values = self.value_dims(a) | self.value_dims(b)
        if not values and not (self.grid_dims(a, guards=True) or self.grid_dims(b, guards=True)) \
                and self.reqd is None:  # (a required work-group size is the launch: 64-tiles by 65 overlap)
            return set()  # no work-group stores values of its own: `out[gx + 4 * gy] = lx` (a fixed launch)
        return self.grid_dims(a) | self.grid_dims(b) | values

    def value_dims(self, acc: Access) -> set[int]:
        """The dimensions along which the value a plain store stores may differ between
        work-groups: a group or global id in it (directly, through variables, macros, loop
        counters' headers or a helper's arguments), a load at an index that follows the group
        from memory the kernel does not write, and what loads of memory the kernel writes read
        back: the values stored there (`s[lid] = in[gid]; ... out[0] = s[0]`: along 0; piglit's
        `tmp[off + lid] = lid; ... out[lid] = tmp[off + 1]`: none). An atomic's result follows
        every dimension the kernel places work-groups by."""
        got = self._value_dims.get(id(acc))
        if got is None:
            node = _stored(acc)
            got = self._value_dims[id(acc)] = self._copied_values(acc) if acc.copy and acc.write \
                else set() if node is None else self._follows([(node, acc.ev or self.ev)], {acc.base.key})
        return got

    def _copied_values(self, acc: Access) -> set[int]:
        """What a copy stores is what it reads: the elements its source side reaches (a group
        id in its offset: `in + 16 * get_group_id(0)`), or, where the kernel writes the source,
        what was stored there (`t[lid] = in[gid]`: along 0)."""
        src = next((s for s in self.stored if s.copy and s.read and s.node == acc.node), None)
        if src is None:
            return set(self.asked.grid) or {0}
        if not any(w.write and w.base.key == src.base.key for w in self.stored):
            return self.grid_dims(src)
        return self._follows([(src.node, self.ev)], {acc.base.key})

    def _follows(self, roots: list[tuple[Node, Any]], bases: set[int]) -> set[int]:
        at = {a.node.id: a for a in self.stored}
        out: set[int] = set()
        seen: set[int] = set()
        while roots:
            node, ev = roots.pop()
            stack = [node]
            while stack:
                n = stack.pop()
                if n.id in seen:
                    continue
                seen.add(n.id)
                if n.type == "call_expression":
                    name = callee_name(n)
                    if name in _GROUP_IDS:
                        out |= self._dims_of(n)
                        continue
                    if name and name.startswith(("atomic_", "atom_")):
                        out |= set(self.asked.grid) or {0}
                        continue
                load = at.get(n.id)
                if load is not None and load.read and not load.write:
                    writers = [w for w in self.stored if w.base.key == load.base.key and w.write]
                    if writers:  # memory the kernel writes: a load reads back what was stored there
                        if load.base.key not in bases:
                            bases.add(load.base.key)
                            for w in writers:
                                value = _arg(w.node, 1) if w.copy else _operand(w)  # a copy: its source
                                if value is _UNSEEN:
                                    continue  # `l[i]++`: what it adds is the same everywhere
                                if value is None:
                                    out |= set(self.asked.grid) or {0}
                                else:
                                    roots.append((value, w.ev or self.ev))
                        continue
                if n.type == "identifier":
                    v = ev.names.var(n)
                    if v is None:
                        out |= _grid_dims(self.expander.text_of(n, n.start_byte))
                        continue
                    bound = getattr(ev, "params", {}).get(v.key) if v.param_index is not None else None
                    if bound is not None:
                        roots.append((bound[1], bound[0]))
                    elif v.key in ev.defs:
                        roots.append((ev.defs[v.key], ev))
                    elif ev is self.ev and v.key in self.counters:
                        roots.extend((x, ev) for x in self.counters[v.key][:2] if x is not None)
                    elif ev is self.ev:
                        roots.extend((x, ev) for x in self.assigned_values(v.key))
                    continue
                stack.extend(n.children)
        return out

    def updated_through(self, a: Access, b: Access) -> bool:
        """A load of one element and a plain store back into it of a value computed from the
        load through private variables (`int t = A[0]; A[0] = t + 1;`): an update in place, as
        `A[0] += 1` is (`_one_update`), for a kernel that asks no work-item id."""
        load, store = (a, b) if a.read and not a.write else (b, a)
        if not (load.read and not load.write and store.write and not store.read) or a.atomic or b.atomic \
                or not _same_place(load, store) or (value := _stored(store)) is None:
            return False
        copied = value
        while copied.type == "parenthesized_expression" and copied.named_child_count == 1:
            copied = copied.named_children[0]
        while copied.type == "identifier" and (v := self.names.var(copied)) is not None \
                and len(got := self.assigned_values(v.key)) == 1:
            copied = got[0]
        if copied.id == load.node.id:
            return False  # the value read put back (`t = A[0]; A[0] = t;`): nothing changes
        seen: set[int] = set()
        stack = [value]
        while stack and len(seen) < 64:
            n = stack.pop()
            if n.id in seen:
                continue
            seen.add(n.id)
            if n.start_byte <= load.node.start_byte and load.node.end_byte <= n.end_byte:
                return True
            if n.type == "identifier" and (v := self.names.var(n)) is not None and not (v.shared or v.pointer):
                stack.extend(self.assigned_values(v.key))
            else:
                stack.extend(n.named_children)
        return False

    def assigned_values(self, key: int) -> list[Node]:
        """Every value the kernel assigns a private variable (`acc = 0.0f`, `acc += x`)."""
        if self._assigned is None:
            self._assigned = {}
            kinds = frozenset({"init_declarator", "assignment_expression"})
            for n in nodes_of_kinds(self.body, kinds) if self.body is not None else []:
                side = "declarator" if n.type == "init_declarator" else "left"
                v = self.names.var(n.child_by_field_name(side)) if n.child_by_field_name(side) else None
                value = n.child_by_field_name("value" if n.type == "init_declarator" else "right")
                if v is not None and value is not None:
                    self._assigned.setdefault(v.key, []).append(value)
        return self._assigned.get(key, [])

    def _wrapped(self, dims: set[int]) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
        """Work-groups that meet where an index of ids wraps (`p[gid & 31]`: 32 work-items
        on, two 16-wide work-groups apart), along dimension 0."""
        w, n = self.global_wrap, self.size[0]
        if 0 not in dims or w <= n or w % n or w // n > 64:
            return []
        far = (w // n, 0, 0)
        return [((0, 0, 0), far), (far, (0, 0, 0))]

    def _mirror_groups(self, dims: set[int]) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
        """Work-groups that meet where an index mirrors a place by a constant (`g[127 - gid]`
        against `g[gid]`: work-group 0 and the one holding 127), along dimension 0. Not in a
        kernel with barriers: there the mirror says the work-group it is written for (`31 - gid`
        behind a barrier: 32 work-items, one work-group), as a `__local` array's does."""
        c, n = self.global_mirror, self.size[0]
        if 0 not in dims or self.barriers or c < n or c // n > 64:
            return []
        far = (c // n, 0, 0)
        return [((0, 0, 0), far), (far, (0, 0, 0))]

    def _shift_groups(self, dims: set[int]) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
        """Work-groups that meet where an index shifts a place by a constant past the work-group and
        wraps it further on (`a[(gid + 64) % 256]` against `a[gid]`: the NDRange spans 256, and
        work-group 0 meets the one holding 64), along dimension 0."""
        c, n = self.global_shift, self.size[0]
        if 0 not in dims or c < n or c // n > 64 or self.global_wrap <= c:
            return []  # (unwrapped, `a[gid + 64]` may be the next plane of a 64-item NDRange)
        far = (c // n, 0, 0)
        return [((0, 0, 0), far), (far, (0, 0, 0))]

    def _halved(self, dims: set[int], sample: Callable[[object], int]
                ) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
        """Work-group 0 and the one holding the middle of the NDRange (of as many work-groups as
        the sample says), where an index names half of it (`a[gid + get_global_size(0) / 2]`)."""
        if 0 not in dims or not self.global_half:
            return []
        n = self.size[0]
        mid = (sample(("get_num_groups", 0)) * n // 2 // n, 0, 0)
        self._middles.add(mid)
        return [((0, 0, 0), mid), (mid, (0, 0, 0))]

    def group_dependent(self, value: Node, acc: Access, depth: int = 0) -> bool:
        """Whether a stored value may differ between work-groups: it reads memory, a group or
        global id, a function's result or a variable assigned more than once."""
        if self.value_ev(acc) is not self.ev or depth > 8:
            return True  # in a helper: not followed
        for n in walk(value):
            if n.type in ("subscript_expression", "pointer_expression") or n.type == "field_expression" \
                    and _text(n.child_by_field_name("operator")) == "->":
                return True
            if n.type == "call_expression":
                name = callee_name(n)
                if not name or name in _GROUP_IDS or name.startswith(_READS_MEMORY) or name in self.fa.functions:
                    return True
            elif n.type == "identifier":
                v = self.names.var(n)
                if v is None:
                    if self._constant(n) is None and self.expander.text_of(n, n.start_byte) is not None:
                        return True  # a macro for something other than a number
                    continue
                if v.key in self.counters or v.param_index is not None and not (v.pointer or v.array):
                    continue
                d = self.defs.get(v.key)
                if d is None or self.group_dependent(d, acc, depth + 1):
                    return True
        return False

    def stores_divergent(self, acc: Access) -> bool:
        """Whether the value a plain `x[i] = v` stores may differ between work-items. Kept per
        access: what it reads (the uniformity facts, the kernel's accesses) is fixed once
        `races` has listed them."""
        got = self._divergent_stores.get(id(acc))
        if got is not None and got[0] is acc:
            return got[1]
        answer = self._stores_divergent(acc)
        self._divergent_stores[id(acc)] = (acc, answer)
        return answer

    def _stores_divergent(self, acc: Access) -> bool:
        p = acc.node.parent
        while p is not None and p.type == "parenthesized_expression":
            p = p.parent
        value = p.child_by_field_name("right") if p is not None and p.type == "assignment_expression" \
            else _vector_stored(acc) if acc.node.type == "call_expression" else None
        return value is None or self.varies(value, self.value_ev(acc), acc.cfg_node)

    def value_ev(self, acc: Access) -> Evaluator:
        """The evaluator of what `acc` stores: the kernel's, for an access the kernel makes
        (through a macro too: the stored value is the kernel's syntax), else its helper's."""
        return self.ev if acc.ev is None or getattr(acc.ev, "_parent", None) is self.ev else acc.ev

    def varies(self, value: Node, ev: Evaluator, cfg_node: int) -> bool:
        """In the kernel, as the uniformity analysis has it; in a helper, through the
        arguments its parameters stand for (a name known no other way counts as shared:
        then no write-write race is reported, precision first)."""
        if ev is not self.ev and not isinstance(ev, FrameEvaluator):
            return True
        if ev is self.ev and self.divergent(value, cfg_node):
            from cllint.analysis.races.components import uniform_with_fields  # (a divergent value only)

            if not uniform_with_fields(self, value, cfg_node):
                return True  # (a private field given a uniform value after its variable: components.py)
        stack, seen = [value], set()  # a load or call may differ, unless the whole work-group shares its result
        steady: Callable[..., bool] | None = None
        while stack:
            n = stack.pop()
            if n.id in self.uniform_calls or n.id in seen:
                continue
            seen.add(n.id)
            if n.type in ("subscript_expression", "pointer_expression", "call_expression"):
                if ev is not self.ev:
                    return True
                if steady is None:  # (a load or call in a stored value only: most small files have none)
                    from cllint.analysis.races.stable_loads import steady_read as steady
                if not steady(self, n, cfg_node):
                    return True
            v = ev.names.var(n) if n.type == "identifier" and ev is not self.ev else None
            if v is not None:
                bound = ev.params.get(v.key) if v.param_index is not None else None  # type: ignore[attr-defined]
                if bound is not None and self.varies(bound[1], bound[0], cfg_node):
                    return True
                if bound is None and v.key in ev.defs:
                    stack.append(ev.defs[v.key])
            stack.extend(n.children)
        return False

    def ordered_by_collective(self, a: Access, b: Access) -> bool:
        """`x[0] = work_group_reduce_add(x[lid])`: every work-item's read in the arguments
        happens before any work-item has the result to store."""
        if a.cfg_node != b.cfg_node:
            return False
        for read, write in ((a, b), (b, a)):
            if write.site is not None:
                continue  # a store in a helper: not judged, the race stays reported
            p = write.node.parent
            while p is not None and p.type == "parenthesized_expression":
                p = p.parent
            value = p.child_by_field_name("right") if p is not None and p.type == "assignment_expression" \
                and write.write else None
            if value is None or not value.start_byte <= read.anchor.start_byte < value.end_byte:
                continue
            call = read.anchor.parent
            while call is not None and call.start_byte >= value.start_byte \
                    and self.uniform_calls.get(call.id) not in ALL_INPUTS:
                call = call.parent
            if call is not None and call.start_byte >= value.start_byte:
                return True
        return False

    def search(self, first: Access, second: Access, k1: list[int], k2: list[int], independent: set[int],
               sample, groups) -> tuple | None:
        shared = [k for k in k1 if k not in independent] + [k for k in k2 if k not in independent and k not in k1]
        only1 = [k for k in k1 if k in independent]
        only2 = [k for k in k2 if k in independent]
        shared.sort(key=self._loop_start)
        tried = 0
        # across two work-groups, a counter that follows the group (`for (b = get_group_id(0); ...;
        # b += get_num_groups(0))`) takes each side's own work-group's values
        g1, g2 = groups if groups[0] != groups[1] else ((0, 0, 0), (0, 0, 0))
        for base in self.assignments(shared, {}, sample):
            for c1 in self.assignments(only1, base, sample, g1):
                for c2 in self.assignments(only2, base, sample, g2):
                    tried += 1
                    if tried > MAX_COMBOS:
                        return None
                    hit = self.collide(first, second, c1, c2, sample, groups)
                    if hit is not None:
                        return hit
        return None

    def items(self) -> Iterator[tuple[int, int, int]]:
        nx, ny, nz = self.size
        for z in range(nz):
            for y in range(ny):
                for x in range(nx):
                    yield x, y, z

    def elements(self, acc: Access, counters: dict[int, int], sample, group) -> dict | None:
        """Element -> the first two work-items that make the access and the last; None if unknown for one.
        Kept per access, counters and round: an access meets every other of its memory object
        (up to MAX_ACCESSES), and each pair asked for both sides' elements again."""
        key = (id(acc), tuple(counters.items()), self.round, group)  # the accesses live as long as the memo
        got = self._elements.get(key, _UNSEEN)
        if got is _UNSEEN:
            if len(self._elements) > ELEMENTS_KEPT:
                self._elements.clear()
            got = self._elements[key] = self._elements_of(acc, counters, sample, group)
        return got

    def _elements_of(self, acc: Access, counters: dict[int, int], sample, group) -> dict | None:
        if acc.copy:
            return self._copied(acc, counters, sample, group)
        out: dict[tuple, list] = {}
        # A guard's value at a work-item, shared by the accesses under it: the round fixes the
        # size and samples (`witness`), so the counters, group and work-item fix the `Env`.
        guards, fixed = self._guards, (frozenset(counters.items()), self.round, group)
        if len(guards) > GUARDS_KEPT:
            guards.clear()
        per_item = any(k in self.item_counters for k in counters)
        for lid in self.items():
            env = self._env(lid, group, counters, sample) if per_item else Env(lid, self.size, group, counters, sample)
            on = True
            for g in acc.guards:
                ev = g.ev or self.ev
                memo = (ev, g.cond.id if g.cond is not None else None, lid, fixed)
                c = guards.get(memo, _UNSEEN)
                if c is _UNSEEN:
                    w = self.walks.get(g.cond.parent.id) if self.walks and g.cond is not None \
                        and g.cond.parent is not None else None
                    f = self._forced(g, ev, env) if self.forced else None
                    c = guards[memo] = f if f is not None \
                        else self._walk_holds(w, env) if w is not None and g.ev is None \
                        else ev.guard(g.cond, env)
                if g.cases and isinstance(c, int):
                    c = _case_taken(c, g, ev, env)
                if c is DATA:
                    continue  # a tie on loaded data: some input makes it hold here, and in others at once
                if c is LOAD:
                    if g.ev is None and self._shared_loads(g.cond) and not self.divergent(g.cond, acc.cfg_node):
                        continue  # a test of loads the whole work-group shares (`flag[0] == 0`): all or none
                    if g.ev is None and not self._selective(g.cond):
                        continue  # a flag or threshold of the work-item's datum: several may pass at once
                    self._load_guarded.add(id(acc))  # some input makes it hold here (`collide`)
                    continue
                if c is None:
                    if g.ev is not None or self.divergent(g.cond, acc.cfg_node):
                        return None
                    continue  # uniform and unknown: taken by all or none; assume taken
                if bool(c) != g.holds:
                    on = False
                    break
            if not on:
                continue
            key = tuple((acc.ev or self.ev).value(i, env) for i in acc.indices) or (0,)  # `*p`: p[0]
            if acc.inner and len(key) == len(acc.inner) and None not in key:
                # `t[y][x]` of rows: in bytes, the row's subscripts in order
                key = (_row_major(key, acc.inner) * acc.inner[0],)
            elif acc.view and key[0] is not None:
                key = (key[0] * acc.view, *key[1:])  # through a view: in bytes, as its offsets are
            if acc.offset and key[0] is not None:
                shift = [sign * v if (v := ev.value(n, env)) is not None else None for ev, n, sign in acc.offset]
                key = (None,) if None in shift else (key[0] + sum(shift), *key[1:])  # type: ignore[operator]
            if any(k is None for k in key):
                return None
            for k in self._places(acc, key):
                seen = out.setdefault(k, [])
                if len(seen) < 3:
                    seen.append(lid)
                else:  # the first two and the last: `a[0] = lid / 64` differs between 0 and 64 only
                    seen[2] = lid
        return out

    def _forced(self, g: Any, ev: Evaluator, env: Env) -> Any:
        """The value a reading of a condition on the kernel's arguments gives a guard
        (uniform_choices.py); an `&&` of read and unread conjuncts, the unread ones evaluated."""
        if g.cond is None:
            return None
        if g.ev is None:
            got = forced_value(self.forced, g.cond, bool(g.cases))
        else:  # a helper's guard: its condition in the kernel's terms (`put(A, g, it)`'s `it & 1`)
            got = forced_value(self.forced, g.cond, bool(g.cases), lambda n: self._helper_key(n, g.ev))
        if not isinstance(got, list):
            return got
        values = [ev.guard(part, env) for part in got]
        if any(isinstance(v, int) and not v for v in values):
            return 0
        return next((v for v in values if v is None or v is DATA or v is LOAD), 1)

    def _helper_key(self, cond: Node, ev: Evaluator) -> bytes | None:
        memo = (cond.id, id(ev))  # (the evaluators live as long as the kernel's check)
        if memo not in self._helper_keys:
            got = kernel_terms(self.frame, cond, ev)
            self._helper_keys[memo] = got[0] if got is not None else None
        return self._helper_keys[memo]

    def _places(self, acc: Access, key: tuple) -> list[tuple]:
        """The keys `key` stands for: itself, or where a cast views the base's bytes (`bytes`)
        the bytes it covers, each its own key; offsets through a view are in bytes already."""
        size = self.bytes.get(acc.base.key)
        if size is None:
            return [key]
        if len(key) > 1 and not acc.view:  # `A[i][j]` of an array a cast views whole: its bytes in order
            extents = self._extents(acc.base)
            if extents is None or len(extents) != len(key):
                return []
            key = (_row_major(key, extents),)
        if len(key) != 1 or not size:
            return []  # (not reached: views are of one-dimensional bases of known size)
        start = key[0] if acc.view else key[0] * size
        return [(b,) for b in range(start, start + (acc.inner[0] if acc.inner else acc.view or size))]

    def _subscripts(self, v: Any, flat: int) -> str:
        """`[i][j]` of the element `flat` elements into `v`, in its declared shape: a
        multi-dimensional array's, or a pointer argument's to arrays (`(*A)[4][4]`)."""
        rows = self.frame._rows_of(v) if v.pointer and not v.array else None
        shape = list(rows.inner[1:]) if rows is not None else (self._extents(v) or [0])[1:] if v.array else []
        out: list[int] = []
        for extent in reversed(shape):
            flat, k = divmod(flat, extent)
            out.insert(0, k)
        return "".join(f"[{k}]" for k in [flat, *out])

    def _extents(self, v: Any) -> list[int] | None:
        """The constant extents of a multi-dimensional array's declaration (`A[4][N]`), in order."""
        out: list[int] = []
        d = v.decl.parent
        while d is not None and d.type == "array_declarator":
            size = d.child_by_field_name("size")
            n = _small_int(size) if size is not None and size.type == "number_literal" else \
                self._constant(size) if size is not None and size.type == "identifier" else None
            if not n:
                return None
            out.append(n)
            d = d.parent
        return out or None

    def _copied(self, acc: Access, counters: dict[int, int], sample, group) -> dict | None:
        """The elements an async copy reads or writes, each by the work-group: its first two
        work-items stand for it (which of them moves an element is not said)."""
        env = self._env((0, 0, 0), group, counters, sample)
        for g in acc.guards:
            c = (g.ev or self.ev).guard(g.cond, env)
            if g.cases and isinstance(c, int):
                c = _case_taken(c, g, g.ev or self.ev, env)
            if c is None or c is DATA or c is LOAD:
                continue  # the copy's arguments are the work-group's: taken by all or none
            if bool(c) != g.holds:
                return {}
        _, count, steps = acc.copy
        n = self.ev.value(count, env)
        step = self.ev.value(steps, env) if steps is not None else 1
        shift = [sign * v if (v := ev.value(node, env)) is not None else None for ev, node, sign in acc.offset]
        if n is None or step is None or None in shift or not 0 < n <= MAX_COPIED or step <= 0:
            return None
        items = list(itertools.islice(self.items(), 2))
        out: dict[tuple, list] = {}
        for i in range(n):
            for k in self._places(acc, (i * step * (acc.view or 1) + sum(shift),)):  # type: ignore[arg-type]
                out[k] = items
        return out

    def _selective(self, cond: Node) -> bool:
        """Whether a test of loaded data is a key's (data_guards.py): the data may hold it once."""
        got = self._selective_guards.get(cond.id)
        if got is None:
            from cllint.analysis.races.data_guards import selective  # (kernels with data guards only)

            def definition(n: Node) -> Node | None:
                v = self.names.var(n)
                return self.defs.get(v.key) if v is not None and not (v.shared or v.pointer) else None

            got = self._selective_guards[cond.id] = selective(cond, definition)
        return got

    def _shared_loads(self, cond: Node, depth: int = 0) -> bool:
        """Whether every load a guard makes (through private variables defined once) reads
        memory the work-group shares (`flag[0]`, `*p` of a pointer argument or `__local`
        array): private arrays and structs the uniformity analysis does not follow element by
        element (`hash.h8[3]`, filled from the work-item's id) are not."""
        for n in walk(cond):
            if n.type in ("subscript_expression", "pointer_expression", "field_expression"):
                root = n
                while root.type in ("subscript_expression", "pointer_expression", "field_expression",
                                    "parenthesized_expression") and root.named_children:
                    root = root.child_by_field_name("argument") or root.named_children[0]
                v = self.names.var(root) if root.type == "identifier" else None
                if v is None or not (v.shared or v.pointee_shared):
                    return False
            elif n.type == "identifier" and depth < 4:
                v = self.names.var(n)
                d = self.defs.get(v.key) if v is not None and not (v.shared or v.pointer) else None
                if d is not None and not self._shared_loads(d, depth + 1):
                    return False
        return True

    def divergent(self, expr: Node, cfg_node: int) -> bool:
        """Whether `expr`, evaluated at `cfg_node` (a branch's own condition: at its branch),
        may differ between work-items of a work-group, as the uniformity analysis has it."""
        at = self.branch_of.get(expr.id)
        if at is not None:
            return bool(self.facts.branch_tags.get(at, 0) & B.WG_DIVERGENT)
        cfg_node = self.real_node(cfg_node)
        ev = self.tagger
        ev.cfg_node, ev.guards, ev.calls, ev.origins = cfg_node, [], {}, {}
        return bool(ev.expr(expr, dict(self.facts.in_states[cfg_node])) & B.WG_DIVERGENT)

    def collide(self, first: Access, second: Access, c1, c2, sample, groups) -> tuple | None:
        g1, g2 = groups
        e1 = self.elements(first, c1, sample, g1)
        e2 = self.elements(second, c2, sample, g2) if (first is not second or c1 != c2 or g1 != g2) else e1
        if e1 is None or e2 is None:
            return None
        if id(first) in self._load_guarded and id(second) in self._load_guarded:
            return None  # two work-items passing tests of the data at once: the data may rule it out
        for key, items2 in e2.items():
            items1 = e1.get(key)
            if not items1:
                continue
            for w1 in items1:
                for w2 in items2:
                    if (w1 != w2 or g1 != g2) and self.differ(first, second, w1, w2, g1, g2, c1, c2, sample):
                        return w1, w2, key
        return None

    # -- the report ----------------------------------------------------------------------
    def grid_dims(self, acc: Access, guards: bool = False) -> set[int]:
        got = self._grid_dims.get((id(acc), guards))
        if got is None:
            got = self._grid_dims[(id(acc), guards)] = self._grid_dims_of(acc, guards)
        return set(got)

    def _grid_dims_of(self, acc: Access, guards: bool) -> set[int]:
        """The dimensions along which the element `acc` touches, or whether it is made at
        all, depends on the work-group (a group or global id in its index or a guard,
        directly, through variables defined once, macros or a helper's arguments: `a[gid +
        1]`, `if (gid == 0) *count = 0`). Races between two work-groups are looked for only
        between neighbours along such a dimension of one side: the same stores in every
        work-group (`p[lid] = ...`, `p[0] = 1`, or every row of groups alike) are what kernels
        written for one work-group (or one row of them) do. A read and a write of one element
        in every work-group are paired along the dimensions a stated launch (`[[launch]]`) has
        several work-groups on, else those the kernel asks its group or global id along
        (`races`)."""
        out: set[int] = set()
        roots = [] if guards else [(n, acc.ev or self.ev) for n in acc.indices] + [(n, ev) for ev, n, _ in acc.offset]
        roots += [(g.cond, g.ev or self.ev) for g in acc.guards]  # `guards`: whether it is made only
        seen: set[int] = set()
        while roots:
            node, ev = roots.pop()
            for n in walk(node):
                if n.id in seen:
                    continue
                seen.add(n.id)
                if n.type == "call_expression" and callee_name(n) in _GROUP_IDS:
                    out |= self._dims_of(n)
                    continue
                if n.type not in ("identifier", "call_expression"):
                    continue
                v = ev.names.var(n) if n.type == "identifier" else None
                if v is None:
                    out |= _grid_dims(self.expander.text_of(n, n.start_byte))
                    continue
                bound = getattr(ev, "params", {}).get(v.key) if v.param_index is not None else None
                if bound is not None:
                    roots.append((bound[1], bound[0]))
                elif v.key in ev.defs:
                    roots.append((ev.defs[v.key], ev))
                elif v.key in self.counters and ev is self.ev:
                    roots.append((self.counters[v.key][0], ev))
                elif v.key in self.item_counters and ev is self.ev:
                    roots.extend((x, ev) for x in self.item_counters[v.key][:2] if x is not None)
        return out

    def across(self, a: Access, b: Access, dims: set[int]) -> Race | None:
        """A race between two work-groups neighbouring along one of `dims`: anywhere in the
        kernel, barriers or not."""
        if a.unknown_guard or b.unknown_guard or not self.overlap(a, b):
            return None
        first, second = sorted((a, b), key=_order)
        witness = self.witness(first, second, set(), across=dims)
        return self.report(first, second, witness, set(), "global", False) if witness is not None else None

    def report(self, first: Access, second: Access, witness: tuple, between: set[int], space: str,
               fence: bool, apart: bool = False) -> Race:
        w1, w2, key = witness[:3]
        across = len(witness) == 5
        dims = 1 + max((d for d in range(3) if self.size[d] > 1), default=0)  # (1, 16, 1): (x, y)
        part = _part_text(first) if len(first.part) >= len(second.part) else _part_text(second)
        scalar = not (first.base.array or first.base.pointer)  # a __local scalar: no index to show
        elem = f"'{first.base.name}" + ("" if scalar else "".join(f"[{k}]" for k in key)) + part + "'"
        size = self.bytes.get(first.base.key)
        if any(abs(k) >= SAMPLED for k in key):  # picked by a value not known here (an argument):
            elem = f"'{_text(first.node)}'"  # named as written, not by the number that stood in for it
        elif size and len(key) == 1:  # a cast views the bytes: name the byte and its element
            whole = key[0] % size == 0 and all(a.view % size == 0 for a in (first, second))  # `vload4` of floats
            elem = (f"byte {key[0] % size} of " if size > 1 and not whole else "") \
                + f"'{first.base.name}{self._subscripts(first.base, key[0] // size)}'"
        # No line numbers in the text: an incremental run moves a cached report with its
        # code, and the note (or the range itself) shows where each access is.
        code = "CL212" if fence else "CL210" if space == "local" else "CL211"
        one, two = f"work-item {_item(w1, dims)}", f"work-item {_item(w2, dims)}"
        if across:
            gdims = max(dims, 1 + max((d for d in range(3) if witness[3][d] or witness[4][d]), default=0))
            one += f" of {self._group_named(witness[3], gdims)}"
            two += f" of {self._group_named(witness[4], gdims)}"
        if first is second:
            both = f"{one} and {two}" if across else f"work-items {_item(w1, dims)} and {_item(w2, dims)}"
            tail = "no barrier can order two work-groups" if across else "with no barrier between"
            message = f"{both} both {_verb(first, plural=True)} {elem}{_through(first)}" \
                + ("; " if across else " ") + tail
        else:
            tail = ("no barrier can order two work-groups" if across
                    else "the copy is not waited for ('wait_group_events') between" if first.copy
                    else f"the barrier between does not fence {space} memory" if fence
                    else "no barrier between")
            how = f"through '{second.copy[0]}'" if second.copy else f"as '{_text(second.node)}'"
            message = (f"{one} {_verb(first)} {elem}{_through(first)}{_inside(first)} while "
                       f"{two} {_verb(second)} it {how}{_inside(second)}; {tail}")
        notes: list[tuple[int, int, str]] = []
        if first is not second:
            notes.append((first.node.start_byte, first.node.end_byte,
                          f"{one} {_verb(first)} {elem}{_through(first)} here{_inside(first)}"))
            if first.site is not None and first.site != second.anchor:
                notes.append((first.site.start_byte, first.site.end_byte, f"in this call to '{first.helper}'"
                               if first.site.child_by_field_name("function") is None
                               or _text(first.site.child_by_field_name("function")) == first.helper
                               else f"'{first.helper}' is reached from this call"))
        if second.site is not None:
            notes.append((second.node.start_byte, second.node.end_byte,
                          f"{two} {_verb(second)} {elem} here{_inside(second)}"))
        fix: tuple[tuple[int, int, str], ...] = ()
        title = ""
        flag = "CLK_LOCAL_MEM_FENCE" if space == "local" else "CLK_GLOBAL_MEM_FENCE"
        if across:
            pass  # no fix: a barrier orders the work-items of one work-group only
        elif fence:
            barrier = next((self.barriers[n][1] for n in sorted(between) if n in self.barriers), None)
            args = barrier.child_by_field_name("arguments") if barrier is not None else None
            helper = barrier is not None and callee_name(barrier) not in B.BARRIERS
            if barrier is not None and helper:  # a helper's barrier: its flags are not at this call
                spaces = self.barriers[self._node_of(barrier)][0]
                notes.append((barrier.start_byte, barrier.end_byte,
                              f"the barriers '{callee_name(barrier)}' reaches fence "
                              + (f"{' and '.join(sorted(spaces))} memory only" if spaces else "no memory")))
            elif barrier is not None and args is not None:
                spaces = self.barriers[self._node_of(barrier)][0]
                notes.append((barrier.start_byte, barrier.end_byte,
                              f"this barrier fences {' and '.join(sorted(spaces))} memory only" if spaces
                              else "this barrier fences no memory: it orders execution only"))
                fix = ((args.start_byte, args.end_byte, "(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)"),)
                title = "Fence both local and global memory"
        elif first is not second and not first.copy and not apart:  # (a copy is ended by its wait)
            at = self.insertion_point(second, first)
            if at is not None:
                fix = ((at[0], at[0], f"barrier({flag});\n{at[1]}"),)
                title = f"Insert 'barrier({flag})' before this statement"
        return Race(code, second.anchor.start_byte, second.anchor.end_byte, message, tuple(notes), fix, title, across,
                    (self.name, first.base.key, first.base.name))

    def _group_named(self, g: tuple[int, int, int], dims: int) -> str:
        if g in self._middles:  # (`_halved`: a sample's middle, not its last)
            return "the work-group holding the middle of the NDRange"
        return _group(g, dims)

    def _node_of(self, call: Node) -> int:
        return next(n for n, (_, c) in self.barriers.items() if c == call)

    def insertion_point(self, second: Access, first: Access) -> tuple[int, str] | None:
        """Before the statement holding `second`, lifted out of work-item-dependent branches
        (a barrier there would diverge); None where that would not separate the two."""
        owners = {n.owner.id: n.id for n in self.cfg.nodes if n.kind == "branch" and n.owner is not None}
        stmt = second.anchor
        while stmt.parent is not None and stmt.parent.type != "compound_statement":
            stmt = stmt.parent
            if stmt == self.body:
                return None
        while True:
            p = stmt.parent.parent if stmt.parent is not None else None
            b = owners.get(p.id) if p is not None else None
            if p is None or b is None or not self.facts.branch_tags.get(b, 0) & B.WG_DIVERGENT:
                break
            stmt = p
            while stmt.parent is not None and stmt.parent.type != "compound_statement":
                stmt = stmt.parent
            if stmt.parent is None:
                return None
        if stmt.start_byte <= first.anchor.start_byte < stmt.end_byte or stmt.parent is None \
                or stmt.parent.type != "compound_statement":
            return None
        line = self.source.rfind(b"\n", 0, stmt.start_byte) + 1
        indent = self.source[line:stmt.start_byte].decode("utf-8", "replace")
        return (stmt.start_byte, indent) if not indent.strip() else None


def _NUM_GROUPS(symbol: object) -> bool:  # noqa: N802 - a predicate on a sample's symbol
    """The symbol `get_num_groups(d)` (and `get_global_size`'s, which is read through it)."""
    return isinstance(symbol, tuple) and len(symbol) == 2 and symbol[0] == "get_num_groups"


def _case_taken(value: int, g: Any, ev: Evaluator, env: Env) -> int | None:
    """Whether a `switch` on `value` takes one of the guard's case labels (None: a label not
    computed here)."""
    labels = [n if isinstance(n, int) else ev.value(n, env) for n in g.cases]  # (ints: accesses.when_guard)
    return int(value in labels) if all(isinstance(v, int) for v in labels) else None


def _grid_dims(text: str | None) -> set[int]:
    """The dimensions whose group or global id `text` (a name's macro expansion) asks for; all
    three for a dimension it does not write as a constant."""
    out: set[int] = set()
    for _, arg in _GRID_WORD.findall(text or ""):
        out |= {int(arg)} if arg in ("0", "1", "2") else {0, 1, 2}
    return out


def _part_text(acc: Access) -> str:
    """`.y` of `G[3].y`, `.pos.x` of `s[i].pos.x`, `.v` of `p->v`: the part the access names."""
    out: list[str] = []
    n = acc.node
    while n.type in ("field_expression", "subscript_expression") and len(out) < len(acc.part):
        if n.type == "subscript_expression":  # an array field's element
            out.append(f"[{_text(n.child_by_field_name('index'))}]")
        else:
            out.append(_text(n.child_by_field_name("operator")) + _text(n.child_by_field_name("field")))
        n = n.child_by_field_name("argument")
        while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
            n = n.named_children[0]
        if n is None:
            break
    if not acc.part or len(out) != len(acc.part):
        return ""
    text = "".join(reversed(out))
    return "." + text[2:] if text.startswith("->") else text  # shown after its element: `p[0].v`


def _through(acc: Access) -> str:
    return f" through '{acc.copy[0]}'" if acc.copy else ""


def _inside(acc: Access) -> str:
    return f" in '{acc.helper}'" if acc.site is not None else ""


def _one_update(a: Access, b: Access) -> bool:
    """One statement that reads and writes one location (`A[0] += 1`, `A[0] = A[0] + 1`):
    what a kernel that asks no work-item id is checked for. Every work-item then makes the
    same accesses, so its other stores and loads race only if it runs in more than one
    work-item, which such kernels (single work-item tasks, mostly) often do not; a counter
    updated in place means to be shared."""
    if a.atomic or b.atomic or a.cfg_node != b.cfg_node:
        return False
    return (a.read and a.write) if a is b else (a.read or b.read) and (a.write or b.write)


_LOADING = frozenset({"subscript_expression", "pointer_expression", "field_expression"})


def _stored(acc: Access) -> Node | None:
    """The value a plain `x[i] = v` (or `vstore4(v, i, x)`) stores (None: not a plain store)."""
    if _built_in(acc):
        return _vector_stored(acc)
    p = acc.node.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is None or p.type != "assignment_expression" or _text(p.child_by_field_name("operator")) != "=":
        return None
    return p.child_by_field_name("right")


def _operand(acc: Access) -> Any:
    """What a write puts into its element besides the element's old value: `v` of `x[i] =
    v` and `x[i] += v`; _UNSEEN for `x[i]++` (nothing else); None where not known (an atomic,
    an address passed on)."""
    if acc.atomic:
        return None
    if _built_in(acc):
        return _vector_stored(acc)
    p = acc.node.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is not None and p.type == "update_expression":
        return _UNSEEN
    if p is None or p.type != "assignment_expression":
        return None
    return p.child_by_field_name("right")


def _built_in(acc: Access) -> bool:
    """An access a built-in's call makes (an atomic, `vstore4`, an async copy), not the
    subscript a macro's call expands to (`AT(l, i) = v` stores `v` as `l[i] = v` does)."""
    return acc.node.type == "call_expression" and (
        acc.atomic or bool(acc.copy) or VECTOR_MEMORY.match(callee_name(acc.node) or "") is not None)


def _vector_stored(acc: Access) -> Node | None:
    """The vector `vstoren(v, i, p)` stores (None: any other call, a copy or an atomic)."""
    if not acc.write or acc.copy or acc.atomic or not (callee_name(acc.node) or "").startswith("vstore"):
        return None
    return _arg(acc.node, 0)


def _same_place(a: Access, b: Access) -> bool:
    """Whether two accesses name one element for every work-item: the same base, the same
    index and offset expressions, evaluated alike (`s.n` and `s.n`, `l[lid]` and `l[lid]`;
    not `l[lid]` and `l[lid + 1]`)."""
    if a.base.key != b.base.key or a.view != b.view or a.ev is not b.ev or len(a.indices) != len(b.indices):
        return False
    if any(_norm(x) != _norm(y) for x, y in zip(a.indices, b.indices)):
        return False
    return [(_norm(n), sign) for _, n, sign in a.offset] == [(_norm(n), sign) for _, n, sign in b.offset]


def _norm(node: Node) -> str:
    return "".join(_text(node, 10_000).split())


def _number(node: Node) -> float | None:
    """A number literal's value, floats included (`1.0f` and `1` store the same)."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type != "number_literal":
        return None
    t = _text(node).rstrip("fFhHlLuU")
    for read in (lambda x: float(int(x, 0)), float):
        try:
            return read(t)
        except ValueError:
            continue
    return None


def _neighbours(dims: set[int]) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Pairs of neighbouring work-groups, one per dimension `dims`, both ways round: where two
    work-groups' ranges meet."""
    out = []
    for d in range(3):
        if d in dims:
            nxt = tuple(1 if i == d else 0 for i in range(3))
            out += [((0, 0, 0), nxt), (nxt, (0, 0, 0))]
    return out  # type: ignore[return-value]


def _mirrored(dims: set[int], sample: Callable[[object], int]
              ) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """The first and the last work-group along each of `dims` (of as many as the sample says
    there are), both ways round: where an index mirrored in the NDRange (`get_global_size(0)
    - 1 - gid`, `get_num_groups(0) - 1 - g`) meets its plain twin."""
    out = []
    for d in sorted(dims):
        last = tuple(sample(("get_num_groups", d)) - 1 if i == d else 0 for i in range(3))
        out += [((0, 0, 0), last), (last, (0, 0, 0))]
    return out  # type: ignore[return-value]


def _group(g: tuple[int, int, int], dims: int) -> str:
    """A work-group named in a message: the last along a dimension where its number stands
    for the count a launch gives (`_mirrored`)."""
    if any(n >= SAMPLED for n in g):
        return "the last work-group" + (f" along dimension {next(d for d in range(3) if g[d] >= SAMPLED)}"
                                        if dims > 1 else "")
    return f"work-group {_item(g, dims)}"


def _order(acc: Access) -> tuple[int, int]:
    """Text order in the kernel; within one helper call, in the helper."""
    return acc.anchor.start_byte, acc.node.start_byte


def _verb(acc: Access, plural: bool = False) -> str:
    word = "atomically update" if acc.atomic else "update" if acc.read and acc.write else \
        "write" if acc.write else "read"
    return word if plural else word + "s"


def _item(lid: tuple[int, int, int], dims: int) -> str:
    return str(lid[0]) if dims == 1 else "(" + ", ".join(str(x) for x in lid[:max(dims, 2)]) + ")"


def _arg(call: Node, i: int) -> Node | None:
    args = call.child_by_field_name("arguments")
    named = [a for a in (args.named_children if args else []) if a.type != "comment"]
    return named[i] if i < len(named) else None


def _with_last(first: list[int], ev: Evaluator, cond: Node | None, key: int, env: Env) -> list[int]:
    """A counter's first values, cut at MAX_VALUES, with its last ones in their stead where
    its step is constant and its condition bounds it (`i <= chunk`, `i < n`): a race in the
    last iteration (`out[gid * chunk + i]` reaching the next item's first element) shows.
    First and last values alternate, so a search cut short still tries both ends."""
    step = first[1] - first[0]
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_children:
        cond = cond.named_children[-1]
    if step == 0 or any(b - a != step for a, b in zip(first, first[1:])) or cond is None \
            or cond.type != "binary_expression":
        return first
    op, left, right = (cond.child_by_field_name(f) for f in ("operator", "left", "right"))
    v = ev.names.var(left) if left is not None and left.type == "identifier" else None
    bound = ev.value(right, env) if v is not None and v.key == key else None
    o = _text(op)
    if not isinstance(bound, int) or (o in ("<", "<=")) != (step > 0) or o not in ("<", "<=", ">", ">="):
        return first
    end = bound + (0 if o in ("<=", ">=") else -1 if step > 0 else 1)  # the last value the condition takes
    last = first[0] + (end - first[0]) // step * step
    tail = [last - i * step for i in range(MAX_VALUES // 4)]
    head = [x for x in first[: MAX_VALUES - len(tail)] if x not in tail]
    out: list[int] = []
    for i in range(max(len(head), len(tail))):
        out += head[i:i + 1] + tail[i:i + 1]
    return out


def _divergent_parameters(facts: Facts, names, moved: set[int]) -> frozenset[int]:  # noqa: ANN001
    """Scalar parameters the body assigns that hold, somewhere, a value that may differ between
    the work-items of a work-group."""
    params = {v.key for v in names.variables if v.param_index is not None and v.key in moved}
    if not params:
        return frozenset()
    return frozenset(k for state in facts.in_states for k, tag in state.items()
                     if k in params and tag & B.WG_DIVERGENT)


def _additive_step(update: Node | None, key: int, names: Any) -> tuple[Node | None, int] | None:
    """A counter's update as (what it adds, its sign): `i++` (None: 1), `i -= s`, `i = i + s`."""
    if update is None:
        return None
    if update.type == "update_expression":
        return None, 1 if "++" in _text(update) else -1
    if update.type != "assignment_expression":
        return None
    op, right = _text(update.child_by_field_name("operator")), update.child_by_field_name("right")
    if op in ("+=", "-=") and right is not None:
        return right, 1 if op == "+=" else -1
    if op == "=" and right is not None and right.type == "binary_expression" \
            and _text(right.child_by_field_name("operator")) == "+":
        left, other = right.child_by_field_name("left"), right.child_by_field_name("right")
        v = names.var(left) if left is not None and left.type == "identifier" else None
        if v is not None and v.key == key and other is not None:
            return other, 1
    return None


def _monotone(cond: Node | None, key: int, names: Any) -> bool:
    """A loop condition that, once false for an additive counter, stays false: one `<`, `<=`,
    `>`, `>=` test (so each work-item's iterations are those where it holds)."""
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_children:
        cond = cond.named_children[-1]
    if cond is None or cond.type != "binary_expression" \
            or _text(cond.child_by_field_name("operator")) not in ("<", "<=", ">", ">="):
        return False
    return any(n.type == "identifier" and (v := names.var(n)) is not None and v.key == key for n in walk(cond))


def _step(ev: Evaluator, update: Node | None, key: int, env: Env) -> int | None:
    """The counter's value after the loop's update expression."""
    if update is None:
        return None
    if update.type == "comma_expression":
        return None
    if update.type == "update_expression":
        op = "+" if "++" in _text(update) else "-"
        return env.counters[key] + (1 if op == "+" else -1)
    if update.type == "assignment_expression":
        op = _text(update.child_by_field_name("operator"))
        r = ev.value(update.child_by_field_name("right"), env)
        if r is None:
            return None
        cur = env.counters[key]
        if op == "=":
            return r
        table: dict[str, Callable[[int, int], int | None]] = {
            "+=": lambda a, b: a + b, "-=": lambda a, b: a - b, "*=": lambda a, b: a * b,
            "/=": lambda a, b: a // b if b and a >= 0 and b > 0 else None,
            ">>=": lambda a, b: a >> b if 0 <= b < 64 else None,
            "<<=": lambda a, b: a << b if 0 <= b < 64 else None,
        }
        f = table.get(op)
        return f(cur, r) if f is not None else None
    return None


class Asked:
    """Which dimensions a kernel asks about (directly or through macros): `local`, its place
    in the work-group (`get_local_id`, `get_local_size`); `grid`, its place among work-groups
    (`get_global_id`, `get_group_id`, `get_num_groups`, `get_global_size`)."""

    __slots__ = ("local", "grid")
    local: frozenset[int]
    grid: frozenset[int]

    __match_args__ = ("local", "grid")

    def __init__(self, local: frozenset[int], grid: frozenset[int]) -> None:
        self.local = local
        self.grid = grid

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(local={self.local!r}, grid={self.grid!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.local, self.grid) == (other.local, other.grid)

    def __hash__(self) -> int:
        return hash((self.local, self.grid))

    @property
    def anything(self) -> bool:
        return bool(self.local or self.grid)


def _asked(func: Node | None, via_macros: list[tuple[str, str]],
           constant: Callable[[Node], int | None] = lambda n: None) -> Asked:
    """The dimensions the kernel `func` asks its place along, in and among work-groups, by
    calls and through macros (`via_macros`; those alone where `func` is None); `constant`
    reads a dimension a macro names (`get_local_id(X_DIMENSION)`)."""
    body = func.child_by_field_name("body") if func is not None else None
    calls: list[tuple[str, str]] = list(via_macros)
    # The calls only, found by one query (in C) rather than a Python walk of every node.
    unused: set[bytes] | None = None
    for n in nodes_of_kinds(body, _CALLS, ordered=False) if body is not None else ():
        name = callee_name(n)
        if name in _LOCAL_QUERIES or name in _GRID_QUERIES:
            if n.parent is not None and n.parent.type == "init_declarator":
                if unused is None:
                    unused = _named_once(body)
                if _text(n.parent.child_by_field_name("declarator"), 200).encode() in unused:
                    continue  # `const int xlid = get_local_id(0);` never used: not asked
            arg = _arg(n, 0)
            dim = constant(arg) if arg is not None and arg.type == "identifier" else None
            calls.append((name, str(dim) if dim is not None else _text(arg)))
    local: set[int] = set()
    grid: set[int] = set()
    for name, arg in calls:
        dims = {0, 1, 2} if "linear" in name else {int(arg)} if arg in ("0", "1", "2") else {0, 1, 2}
        if name in _LOCAL_QUERIES:
            local |= dims
        if name in _GRID_QUERIES:
            grid |= dims
    return Asked(frozenset(local), frozenset(grid))


def _asked_in_returns(func: Node, functions: dict[str, Node], constant: Callable[[Node], int | None],
                      depth: int = 0) -> Asked:
    """What the helpers a kernel calls ask in the one expression they return (`uint tid(void) {
    return get_local_id(0); }`: calls.py's `returned_value` evaluates it at the call)."""
    local: set[int] = set()
    grid: set[int] = set()
    body = func.child_by_field_name("body")
    for n in nodes_of_kinds(body, _CALLS, ordered=False) if body is not None and depth < 4 else ():
        helper = functions.get(callee_name(n) or "")
        inner = helper.child_by_field_name("body") if helper is not None and helper is not func else None
        stmts = [c for c in inner.named_children if c.type != "comment"] if inner is not None else []
        if len(stmts) != 1 or stmts[0].type != "return_statement" or _is_kernel(helper):
            continue
        got = _asked(helper, [], constant)
        more = _asked_in_returns(helper, functions, constant, depth + 1)
        local |= got.local | more.local
        grid |= got.grid | more.grid
    return Asked(frozenset(local), frozenset(grid))


def _named_once(body: Node) -> set[bytes]:
    """Names that occur once in `body` (a variable declared and never used)."""
    seen: dict[bytes, int] = {}
    for n in nodes_of_kinds(body, _IDENTIFIERS, ordered=False):
        if n.text:
            seen[n.text] = seen.get(n.text, 0) + 1
    return {t for t, k in seen.items() if k == 1}


def _model_sizes(func: Node, flat: frozenset[int], asked: Asked, launched: tuple[int, int, int] | None = None,
                 value: Callable[[Node], int | None] = lambda n: _evaluated(n.text.decode("latin-1"))
                 if n.type == "number_literal" and n.text else None) -> tuple[list[tuple[int, int, int]], tuple[int, int, int] | None]:
    """Model work-groups: `reqd_work_group_size` if given (also returned, second), else the
    work-group size every launch the configuration states for the kernel has; else two
    sizes, 16 and 4 work-items in one dimension, 8x8 and 4x4 in two, 4x4x4 and 2x2x2 in three
    (a race must show in both, so it does not hang on the size; `_fit_constants` widens them
    to the constants the accesses name). A work-group spans dimension 0 (unless the kernel asks
    only about other dimensions) and the others whose place in it the kernel asks (`get_local_id(1)`; a kernel that asks only `get_global_id(1)`
    is taken to run one work-item wide there, its rows in separate work-groups), less those
    the file treats as one work-item wide (uniformity's flat dimensions)."""
    body = func.child_by_field_name("body")
    # Only the head (what comes before the body) can hold the attribute: one look at its
    # text before a walk of its nodes.
    if b"reqd_work_group_size" in (func.text or b"")[: (body.start_byte if body is not None else func.end_byte)
                                                     - func.start_byte]:
        for n in walk(func):
            if n.type == "compound_statement":
                break
            fn = n.child_by_field_name("function") if n.type == "call_expression" else None
            if fn is not None and fn.text == b"reqd_work_group_size":
                # each argument's value, macros expanded (`(WARP_COUNT * WARP_SIZE)`), not the
                # digits of its text (the 256 of `HISTOGRAM256_WORKGROUP_SIZE`)
                args = n.child_by_field_name("arguments")
                nums = [value(a) for a in (args.named_children if args is not None else []) if a.type != "comment"]
                if len(nums) == 3 and all(x is not None and 0 < x for x in nums) \
                        and nums[0] * nums[1] * nums[2] <= MAX_MODEL_ITEMS:  # type: ignore[operator]
                    reqd = (nums[0], nums[1], nums[2])
                    return [reqd], reqd  # type: ignore[return-value]
                break  # a size the file does not give: the models below
    if launched is not None and launched[0] * launched[1] * launched[2] <= MAX_MODEL_ITEMS:
        return [launched], launched  # (a wider one: the models below, as without it)
    # Dimension 0 unless the kernel places itself by the others only (`get_global_id(1)` and
    # `(2)`: launched one work-item wide in 0); a kernel that asks nothing still runs wide.
    # A kernel that places its work-items in the work-group along other dimensions only
    # (`buffer[get_local_id(1)]`, its x from `get_global_id(0)`) is launched one wide in 0.
    wide0 = 0 in asked.local or 0 in asked.grid and not asked.local or not asked.anything
    used = (set(asked.local) | ({0} if wide0 else set())) - flat
    widths = {1: (16, 4), 2: (8, 4), 3: (4, 2)}.get(max(used) + 1 if used else 1, (16, 4))
    return [tuple(w if d in used else 1 for d in range(3)) for w in widths], None  # type: ignore[misc]


def _row_major(key: tuple[int, ...], extents: Sequence[int]) -> int:
    """The flat index of subscripts `key` into an array of `extents` (the first one unused)."""
    flat = key[0]
    for k, extent in zip(key[1:], extents[1:]):
        flat = flat * extent + k
    return flat


def _fit_constants(sizes: list[tuple[int, int, int]], accesses: list[Access],
                   placed: Callable[[Node], bool] = lambda n: False,
                   macro_int: Callable[[Node], int | None] = lambda n: None,
                   placed_locally: Callable[[Node], bool] = lambda n: False) -> list[tuple[int, int, int]]:
    """Model sizes wide enough for the elements and work-items the accesses name by a
    constant (`a[7]`, `lid == 5`): a race there exists in every work-group larger than the
    constant, and real launches are. The smaller model grows up to the larger one, never
    past it; constants in arithmetic (`3 - lid`, `lid + 4`) often are the launch size a
    kernel was written for, and leave the models alone. An index that wraps (`(lid + 5) & 31`,
    `gid % 8`) is written for more work-items than it has places: the smaller model grows
    to the wrap, up to the larger one (`placed`: what wraps is the work-item's place alone,
    not a loop counter or an argument, which may be what passes the places)."""
    big = 0
    wrap = _wraps(accesses, max(max(s) for s in sizes), placed, bare_wider=True)
    if wrap:
        grown = [tuple(max(n, wrap) if n > 1 else 1 for n in s) for s in sizes]
        sizes = [s for i, s in enumerate(grown) if s not in grown[:i]]  # type: ignore[misc]
    for a in accesses:
        for n in (*a.indices, *(c for g in a.guards for c in _compared(g.cond)),
                  *(c for i in a.indices for c in _picked_by(i, placed)),
                  *(c for i in a.indices for c in _place_mirrors(i, placed, macro_int)),
                  *(c for g in a.guards for c in _place_bounds(g.cond, placed))):
            while n.type == "parenthesized_expression" and n.named_child_count == 1:
                n = n.named_children[0]
            v = _small_int(n) if n.type == "number_literal" else macro_int(n) if n.type == "identifier" else None
            if v is not None and v > big:
                big = v
    far = _named_items(sizes, accesses, placed, placed_locally)
    if far > max(sizes[0]):
        big = far - 1  # (the power of two above `far - 1` is `far`)
    elif any(sum(n > 1 for n in s) == 1 for s in sizes):
        # `t[lid + 4]` of `t[20]`: 16 work-items past the shift, the smaller model grows to them
        big = max(big, min(_shift_spans(accesses, placed), max(sizes[0])) - 1)
    if big < min(max(s) for s in sizes):
        return sizes
    need = 1 << big.bit_length()  # the power of two above it
    if need > max(sizes[0]) and need > far:
        return sizes  # beyond the largest model: `l[32]` is often the halo past a 32-wide group

    out: list[tuple[int, int, int]] = []
    for s in sizes:
        fitted = tuple(max(n, need) if n > 1 else 1 for n in s)
        if fitted not in out:
            out.append(fitted)  # type: ignore[arg-type]
    return out


def _named_items(sizes: list[tuple[int, int, int]], accesses: list[Access], placed: Callable[[Node], bool],
                 placed_locally: Callable[[Node], bool] = lambda n: False) -> int:
    """The work-group size (a power of two, up to WIDEST_NAMED) a one-dimensional kernel is
    written for past the larger model, where it names a work-item or element by a constant
    that only a wider work-group has: a guard `lid == 40` (an arm for work-item 40 is taken in
    work-groups of more than 40), or `l[40]` of a `__local` array of 64 or more that every
    access indexes by a constant, the work-item's place alone, its mirror or a shift of it
    (`l[lid]`, `l[63 - lid]`, `l[lid + 4]`: a shift says the work-group spans the places past
    it, 60 of `l[64]`; `l[lid + 32]` of `l[64]`, the second half of a narrower work-group's
    array, says 32). 0: none."""
    if any(sum(n > 1 for n in s) != 1 for s in sizes):
        return 0
    found = 0
    bases: dict[int, list[Access]] = {}
    for a in accesses:
        bases.setdefault(a.base.key, []).append(a)
        for g in a.guards:
            for c in _place_compared(g.cond, placed):
                found = max(found, c + 1)
        for index in a.indices:  # (a global id's mirror says the NDRange: `_mirror_groups`)
            found = max(found, _place_spans(index, placed_locally, placed))
    for group in bases.values():
        placed_by = _local_places(group, placed)
        if placed_by is None:
            continue
        length, consts, span = placed_by
        fits = [v + 1 for v in consts if 1 << v.bit_length() <= length] + ([span] if span else [])
        found = max(found, *fits) if fits else found
    if found <= max(max(s) for s in sizes):
        return 0
    need = 1 << (found - 1).bit_length()
    return need if need <= WIDEST_NAMED else 0


def _place_spans(index: Node, placed: Callable[[Node], bool], divided: Callable[[Node], bool]) -> int:
    """The work-items an index says its work-group spans past the places it names: a mirror or
    flip of the local place by a literal (`l[63 - lid]`, `lid ^ 63`: 64, or it would leave its
    range), a quotient of a place (`lid / 64`, `(gid + 1) / 64`, `lid >> 6`: 65, or the quotient
    would never change: `divided`, global ids too); 0 none."""
    out = 0
    for n in walk(index):
        if n.type != "binary_expression":
            continue
        op = _text(n.child_by_field_name("operator"))
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if left is None or right is None:
            continue
        if op == "-" and (v := _mirror_of_place(n, placed)) is not None:
            out = max(out, v + 1)
        elif op in ("^", "/", ">>") and _bare(right).type == "number_literal" \
                and (_bare(left).type in ("identifier", "call_expression") and placed(_bare(left))
                     or op != "^" and divided(_bare(left))):
            v = _small_int(_bare(right))
            if v is None or v < 2 or op == ">>" and v > 10:
                continue
            out = max(out, v + 1 if op != ">>" else (1 << v) + 1)
    return out


def _local_places(group: list[Access], placed: Callable[[Node], bool]) -> tuple[int, list[int], int] | None:
    """The accesses of one one-dimensional `__local` array of a literal length, where every one
    indexes by a constant, the work-item's place, its mirror (`63 - lid`) or a shift of it
    (`lid + 4`): (its length, the constants and mirrors, the work-items a shift says the
    work-group spans: the places past the farthest shift, where they outnumber it, 60 of `l[64]`
    with `l[lid + 4]`: no halo of a 4-wide work-group; 0 none). None: another index."""
    length = _declared_length(group[0]) if group[0].space == "local" else None
    if length is None or any(len(a.indices) != 1 or a.offset for a in group):
        return None
    consts: list[int] = []
    shifts: list[int] = []
    for a in group:
        n = _bare(a.indices[0])
        if n.type == "number_literal" and (v := _small_int(n)) is not None:
            consts.append(v)
        elif (v := _mirror_of_place(n, placed)) is not None:
            consts.append(v)  # `l[63 - lid]` of `l[64]`: the place of work-item 0 in a work-group of 64
        elif (v := _shift_of_place(n, placed)) is not None:
            shifts.append(v)
        elif not (n.type in ("identifier", "call_expression") and placed(n)):
            return None
    span = length - max(shifts) if shifts and length - max(shifts) > max(shifts) else 0
    return length, consts, span


def _shift_spans(accesses: list[Access], placed: Callable[[Node], bool]) -> int:
    """The widest work-group a shift into a `__local` array says (`_local_places`), 0 none."""
    bases: dict[int, list[Access]] = {}
    for a in accesses:
        bases.setdefault(a.base.key, []).append(a)
    spans = [got[2] for group in bases.values() if (got := _local_places(group, placed)) is not None]
    return max(spans, default=0)


def _shift_of_place(n: Node, placed: Callable[[Node], bool]) -> int | None:
    """C of an index `place + C` or `C + place` (a literal C > 0, the work-item's place alone)."""
    if n.type != "binary_expression" or _text(n.child_by_field_name("operator")) != "+":
        return None
    left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
    for const, other in ((right, left), (left, right)):
        if const is not None and other is not None and _bare(const).type == "number_literal" \
                and _bare(other).type in ("identifier", "call_expression") and placed(_bare(other)):
            v = _small_int(_bare(const))
            return v if v else None
    return None


def _mirror_of_place(n: Node, placed: Callable[[Node], bool]) -> int | None:
    """C of an index `C - place` (a literal C, the work-item's place alone)."""
    if n.type != "binary_expression" or _text(n.child_by_field_name("operator")) != "-":
        return None
    left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
    if left is None or right is None or _bare(left).type != "number_literal":
        return None
    other = _bare(right)
    return _small_int(_bare(left)) if other.type in ("identifier", "call_expression") and placed(other) else None


def _bare(n: Node) -> Node:
    while n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _place_compared(cond: Node | None, placed: Callable[[Node], bool]) -> list[int]:
    """The constants a condition tests the work-item's place against by `==` or `!=`."""
    out: list[int] = []
    if cond is None:
        return out
    for n in walk(cond):
        if n.type != "binary_expression" or _text(n.child_by_field_name("operator")) not in ("==", "!="):
            continue
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        for const, other in ((left, right), (right, left)):
            const = _bare(const) if const is not None else None
            if const is not None and const.type == "number_literal" and (v := _small_int(const)) is not None \
                    and other is not None and placed(other):
                out.append(v)
    return out


def _place_bounds(cond: Node | None, placed: Callable[[Node], bool]) -> list[Node]:
    """The constants a guard bounds the work-item's place by (`lid < 8`, `8 <= lid`): an arm
    for the work-items past it is written for work-groups wider than it."""
    out: list[Node] = []
    for n in walk(cond) if cond is not None else ():
        if n.type != "binary_expression" or _text(n.child_by_field_name("operator")) not in ("<", "<=", ">", ">="):
            continue
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        for const, other in ((left, right), (right, left)):
            if const is not None and _bare(const).type == "number_literal" and other is not None \
                    and other.type in ("identifier", "call_expression") and placed(other):
                out.append(_bare(const))
    return out


def _declared_length(a: Access) -> int | None:
    """The literal length of a one-dimensional array's declaration (`local float l[64]`)."""
    decl = a.base.decl.parent
    if not a.base.array or decl is None or decl.type != "array_declarator" or declared_dims(a.base) != 1:
        return None
    size = decl.child_by_field_name("size")
    return _small_int(size) if size is not None and size.type == "number_literal" else None


def _wraps(accesses: list[Access], largest: int, placed: Callable[[Node], bool], bare_wider: bool = False) -> int:
    """The widest wrap of an index (`e & 31`: 32 places, `e % 8`: 8), at most `largest`; 0 none.
    `bare_wider`: the place alone wrapped (`lid % 4`, `lid & 3`, no shift to rotate by) is the
    identity in a work-group no wider than the wrap, so it says the work-group is wider: twice."""
    out = 0
    for a in accesses:
        for index in a.indices:
            for n in walk(index):
                if n.type != "binary_expression":
                    continue
                op, right = _text(n.child_by_field_name("operator")), n.child_by_field_name("right")
                v = _small_int(right) if right is not None and right.type == "number_literal" else None
                if v is None or v < 2 or not placed(n.child_by_field_name("left")):
                    continue
                places = v + 1 if op == "&" and not (v + 1) & v else v if op == "%" else 0
                places *= _divisor(n.child_by_field_name("left"))  # `(gid / 16) % 4`: 64 places
                if bare_wider and _bare(n.child_by_field_name("left")).type in ("identifier", "call_expression"):
                    places *= 2
                out = max(out, min(places, largest))
    return out


def _divisor(n: Node | None) -> int:
    """D of `place / D` or `place >> s` (D = 2^s), a literal; 1 anything else."""
    n = _bare(n) if n is not None else None
    if n is None or n.type != "binary_expression":
        return 1
    op, right = _text(n.child_by_field_name("operator")), n.child_by_field_name("right")
    v = _small_int(_bare(right)) if right is not None and _bare(right).type == "number_literal" else None
    if v is None or op not in ("/", ">>") or op == ">>" and v > 10:
        return 1
    return max(v, 1) if op == "/" else 1 << v


def _global_mirror(accesses: list[Access], placed: Callable[[Node], bool],
                   macro_int: Callable[[Node], int | None]) -> int:
    """The largest constant a `__global` access's index mirrors the work-item's place by
    (`g[127 - gid]`: 127); 0 none."""
    out = 0
    for a in accesses:
        if a.space != "global":
            continue
        for index in a.indices:
            for c in _place_mirrors(index, placed, macro_int):
                v = _small_int(c) if c.type == "number_literal" else macro_int(c)
                if v is not None and c.parent is not None and _text(c.parent.child_by_field_name("operator")) == "-":
                    out = max(out, v)
    return out


def _global_shift(accesses: list[Access], placed: Callable[[Node], bool]) -> int:
    """The largest constant a `__global` access's index shifts the work-item's place by
    (`g[gid + 64]`, `g[(gid + 64) % 256]`: 64); 0 none."""
    out = 0
    for a in accesses:
        if a.space != "global":
            continue
        for index in a.indices:
            for n in walk(index):
                if n.type == "binary_expression" and (v := _shift_of_place(n, placed)) is not None:
                    out = max(out, v)
    return out


_HALF = re.compile(rb"get_(?:global_size|num_groups)\s*\(\s*0\s*\)\s*(?:/\s*2|>>\s*1)(?![\w.])")


def _names_half_the_range(body: Node | None) -> bool:
    """Whether the kernel halves the NDRange (`get_global_size(0) / 2`, `get_num_groups(0) >> 1`)."""
    return body is not None and _HALF.search(body.text or b"") is not None


def _picked_by(index: Node, placed: Callable[[Node], bool]) -> list[Node]:
    """The constants an index's `?:` compares the work-item's place with (`l[lid < 8 ? lid +
    8 : lid - 8]`): written for work-groups past them, or one arm would never be taken."""
    out: list[Node] = []
    for n in walk(index):
        if n.type != "conditional_expression" or (cond := n.child_by_field_name("condition")) is None:
            continue
        for m in walk(cond):
            if m.type != "binary_expression" \
                    or _text(m.child_by_field_name("operator")) not in ("<", "<=", ">", ">=", "==", "!="):
                continue
            left, right = m.child_by_field_name("left"), m.child_by_field_name("right")
            for const, other in ((left, right), (right, left)):
                if const is not None and const.type == "number_literal" and placed(other):
                    out.append(const)
    return out


def _place_mirrors(index: Node, placed: Callable[[Node], bool],
                   macro_int: Callable[[Node], int | None] = lambda n: None) -> list[Node]:
    """The constants an index mirrors or flips the work-item's place by (`l[15 - lid]`,
    `l[lid ^ MASK]`, a literal or a macro for one): written for work-groups wider than them,
    as `15` says 16 (a shift, `lid + 4`, may be the halo past a 4-wide work-group, and is left
    alone)."""
    out: list[Node] = []
    for n in walk(index):
        if n.type != "binary_expression" or (op := _text(n.child_by_field_name("operator"))) not in ("-", "^"):
            continue
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if left is None or right is None:
            continue
        pairs = ((left, right),) if op == "-" else ((left, right), (right, left))
        for const, other in pairs:
            c = _bare(const)
            if (c.type == "number_literal" or c.type == "identifier" and macro_int(c) is not None) \
                    and placed(_bare(other)):
                out.append(c)
    return out


def _compared(cond: Node) -> list[Node]:
    """The operands of the `==` and `!=` tests in a condition (through `&&`, `||`, `!`)."""
    out: list[Node] = []
    stack = [cond]
    while stack:
        n = stack.pop()
        if n.type in ("parenthesized_expression", "unary_expression"):
            stack.extend(n.named_children)
        elif n.type == "binary_expression":
            op = _text(n.child_by_field_name("operator"))
            kids = [n.child_by_field_name("left"), n.child_by_field_name("right")]
            if op in ("&&", "||"):
                stack.extend(k for k in kids if k is not None)
            elif op in ("==", "!="):
                out.extend(k for k in kids if k is not None)
    return out


def _evaluated(text: str) -> int | None:
    """An integer expression's value as `#if` computes it; None for anything else, a name left
    unexpanded too (a host's `-D WGS`: `#if` would read it as 0)."""
    from cllint.analysis.preprocessor.expr import Env, tokenize

    if any(t.kind != "num" and t.kind != "op" for t in tokenize(text)):
        return None
    got = Env({"_": text}).value("_")
    return got[0] if got is not None else None


def _small_int(n: Node) -> int | None:
    t = n.text.decode("ascii", "replace").rstrip("uUlL") if n.text else ""
    return int(t) if t.isdigit() and len(t) < 4 else None
