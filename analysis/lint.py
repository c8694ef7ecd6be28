"""Runs the selected rules over one parsed file and applies inline suppressions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from tree_sitter import Tree

from cllint.analysis.records import replace
from cllint.analysis.captures import forget as forget_cuts
from cllint.analysis.model.walk import forget as forget_subtrees
from cllint.analysis.database import current
from cllint.analysis.diagnostics import Diagnostic
from cllint.analysis.preprocessor.choices import without_host_choices
from cllint.analysis.source_kind import not_opencl_reason
from cllint.analysis.registry import select
from cllint.analysis.rules.base import Rule, RuleContext
from cllint.analysis.once_per_file import once_per_file
from cllint.analysis.suppression import apply_suppressions
from cllint.analysis.target import Target

if TYPE_CHECKING:
    from cllint.analysis.preprocessor.view import IncludeResolver


class LintOptions:
    __slots__ = ("target", "select", "ignore", "extend_select", "defines", "include_paths", "mode", "std",
                 "preview", "budget", "prelude", "options_known", "host_macros", "host_features",
                 "program_note", "one_group_kernels", "host_headers", "launches", "launch_bounds")
    target: Target
    select: tuple[str, ...] | None
    ignore: tuple[str, ...]
    extend_select: tuple[str, ...]
    defines: tuple[tuple[str, str], ...]
    include_paths: tuple[str, ...]
    # "portability": optional features must be guarded; "target": report what the
    # target lacks. The CLI picks "target" when --target/--features (or a device) is given.
    mode: str
    # Portability mode at a known OpenCL C version (`--std` alone, a program's `-cl-std`; issue
    # 30): the source's language version, as "CL2.0", whose preset is then `target`. Its mandatory
    # features need no guard, its version floors and deprecations apply, arms no device of it
    # compiles are not checked. None: any version (the target is a CL1.2 stand-in).
    std: str | None
    preview: bool  # preview rules are opt-in (`--preview`, `preview = true`)
    # Seconds for the rules of one file (None: no limit). When spent, the rule running is
    # stopped, the rest skipped, and one CL091 names them (analysis/budget.py).
    budget: float | None
    # The program around the file (issue 29): sources the host puts before it and `-include`
    # headers (absolute paths, in order; read as includes at offset 0 by the preprocessor).
    prelude: tuple[str, ...]
    # Whether the host's build options are known (a `[[program]]` names them): when not, no
    # report is made inside `#if` groups on macros nothing defines (preprocessor/choices.py).
    options_known: bool
    # Macro names the workspace's host code passes with `-D` (values unknown): never undeclared.
    host_macros: tuple[str, ...]
    # Extensions and features the workspace's host code checks on the device before it builds
    # (`"cl_khr_fp16" in extensions`): their unguarded uses are the host's choice (CL301).
    host_features: tuple[str, ...]
    # CL007's note when the prelude was inferred (message, start, end in the file).
    program_note: tuple[str, int, int] | None
    # Kernels every launch of which the workspace's host code shows is one work-group (global
    # size == local size; cllint/project/launches.py): no race between work-groups in them.
    one_group_kernels: tuple[str, ...]
    # `#include` names the workspace's host code supplies to the compiler itself (clCompileProgram's
    # header_include_names, pyopencl's `headers=`, `AddHeader("x.cl", src)`): no CL002 when no
    # file holds them; their content stays unknown, as a missing header's.
    host_headers: tuple[str, ...]
    # Launches the configuration states for the file's kernels (`[[launch]]`, config.LaunchSpec):
    # (kernel name, "" for every kernel of the file; work-group size, number of work-groups, each
    # None where not stated). The race check's model and its races between work-groups follow them.
    launches: tuple[tuple[str, tuple[int, int, int] | None, tuple[int, int, int] | None], ...]
    # Kernel arguments the host sets from the launch's own size (cllint/project/launch_bounds.py):
    # (kernel, argument index, "local" or "global", dimension). The barrier check reads a test
    # of that id against that argument as one every work-item passes alike.
    launch_bounds: tuple[tuple[str, int, str, int], ...]

    __match_args__ = ("target", "select", "ignore", "extend_select", "defines", "include_paths", "mode",
                      "std", "preview", "budget", "prelude", "options_known", "host_macros", "host_features",
                      "program_note", "one_group_kernels", "host_headers", "launches", "launch_bounds")

    def __init__(
        self,
        target: Target | None = None,
        select: tuple[str, ...] | None = None,
        ignore: tuple[str, ...] = (),
        extend_select: tuple[str, ...] = (),
        defines: tuple[tuple[str, str], ...] = (),
        include_paths: tuple[str, ...] = (),
        mode: str = "portability",
        std: str | None = None,
        preview: bool = False,
        budget: float | None = None,
        prelude: tuple[str, ...] = (),
        options_known: bool = False,
        host_macros: tuple[str, ...] = (),
        host_features: tuple[str, ...] = (),
        program_note: tuple[str, int, int] | None = None,
        one_group_kernels: tuple[str, ...] = (),
        host_headers: tuple[str, ...] = (),
        launches: tuple[tuple[str, tuple[int, int, int] | None, tuple[int, int, int] | None], ...] = (),
        launch_bounds: tuple[tuple[str, int, str, int], ...] = (),
    ) -> None:
        self.target = Target.preset("CL1.2") if target is None else target
        self.select = select
        self.ignore = ignore
        self.extend_select = extend_select
        self.defines = defines
        self.include_paths = include_paths
        self.mode = mode
        self.std = std
        self.preview = preview
        self.budget = budget
        self.prelude = prelude
        self.options_known = options_known
        self.host_macros = host_macros
        self.host_features = host_features
        self.program_note = program_note
        self.one_group_kernels = one_group_kernels
        self.host_headers = host_headers
        self.launches = launches
        self.launch_bounds = launch_bounds

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"target={self.target!r}, " f"select={self.select!r}, "
                f"ignore={self.ignore!r}, " f"extend_select={self.extend_select!r}, "
                f"defines={self.defines!r}, " f"include_paths={self.include_paths!r}, "
                f"mode={self.mode!r}, " f"std={self.std!r}, " f"preview={self.preview!r}, "
                f"budget={self.budget!r}, " f"prelude={self.prelude!r}, "
                f"options_known={self.options_known!r}, " f"host_macros={self.host_macros!r}, "
                f"host_features={self.host_features!r}, " f"program_note={self.program_note!r}, "
                f"one_group_kernels={self.one_group_kernels!r}, " f"host_headers={self.host_headers!r}, "
                f"launches={self.launches!r}, " f"launch_bounds={self.launch_bounds!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.target, self.select, self.ignore, self.extend_select, self.defines, self.include_paths,
                self.mode, self.std, self.preview, self.budget, self.prelude, self.options_known,
                self.host_macros, self.host_features, self.program_note, self.one_group_kernels,
                self.host_headers, self.launches, self.launch_bounds)
        theirs = (other.target, other.select, other.ignore, other.extend_select, other.defines,
                  other.include_paths, other.mode, other.std, other.preview, other.budget, other.prelude,
                  other.options_known, other.host_macros, other.host_features, other.program_note,
                  other.one_group_kernels, other.host_headers, other.launches, other.launch_bounds)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.target, self.select, self.ignore, self.extend_select, self.defines,
                     self.include_paths, self.mode, self.std, self.preview, self.budget, self.prelude,
                     self.options_known, self.host_macros, self.host_features, self.program_note,
                     self.one_group_kernels, self.host_headers, self.launches, self.launch_bounds))

    def rules(self) -> list[type[Rule]]:
        # Asked twice per keystroke (rules, then suppressions): the registry is fixed once
        # loaded, the selection is the options' (the database's "lint.rules").
        key = (self.select, self.ignore, self.extend_select, self.preview)
        memo = current().table("lint.rules", 64)
        got = memo.get(key)
        if got is None:
            got = memo.put(key, tuple(select(*key)))
        return list(got)


def run_rules(ctx: RuleContext, rules: Iterable[type[Rule]], budget: float | None = None,
              local_ctx: RuleContext | None = None) -> list[Diagnostic]:
    """`local_ctx`: the context `Rule.local` rules read instead of `ctx` (an incremental run
    re-analyses fewer functions for them); both share one semantic model."""
    def context(rule_cls: type[Rule]) -> RuleContext:
        if local_ctx is None:
            return ctx
        # one model, built by whichever rule asks first
        if ctx.model is None:
            ctx.model = local_ctx.model
        elif local_ctx.model is None:
            local_ctx.model = ctx.model
        return local_ctx if rule_cls.local else ctx

    if budget is None:
        out: list[Diagnostic] = []
        for rule_cls in rules:
            out.extend(rule_cls().check(context(rule_cls)))
        return out
    from cllint.analysis.budget import Budget, BudgetExceeded
    from cllint.analysis.rules.budget import AnalysisBudget

    out, stopped = [], []
    with Budget(budget) as b:
        for rule_cls in rules:
            if rule_cls is AnalysisBudget or rule_cls.code == "CL090":
                continue  # reported by this driver, not by a check
            if b.spent:
                stopped.append(rule_cls.code)
                continue
            try:
                with b.rule():
                    found = list(rule_cls().check(context(rule_cls)))
            except BudgetExceeded:
                stopped.append(rule_cls.code)
                continue
            out.extend(found)
    if stopped:
        out.append(AnalysisBudget.report(ctx.file, ctx.source, budget, stopped))
    return out


def lint_tree(
    file: str,
    source: bytes,
    tree: Tree,
    options: LintOptions,
    *,
    preprocessor: Any = None,
    model: Any = None,
    include_resolver: IncludeResolver | None = None,
    suppress: bool = True,
    focus: list[tuple[int, int]] | None = None,
    edited: bool = False,
    local_focus: list[tuple[int, int]] | None = None,
    absent: frozenset[bytes] = frozenset(),
) -> list[Diagnostic]:
    """`edited`: the file will be linted again after edits (an editor's buffer), so the
    model remembers what an edit elsewhere leaves as it was (function heads). `focus`:
    where rules may not skip work (None: everywhere); `local_focus`, inside it: the same for
    `Rule.local` rules (analysis/incremental.py). `absent`: needles of `not_opencl_reason`
    known not to be in `source` (the incremental driver's)."""
    forget_cuts()  # the last lint's deep trees: not this one's
    forget_subtrees()
    reason = not_opencl_reason(source, absent)
    if reason is not None:  # CUDA, C++, a template or a string wrapper: nothing to check
        from cllint.analysis.rules.program import NotOpenCLSource

        enabled = any(r is NotOpenCLSource for r in options.rules())
        return [NotOpenCLSource.report(file, source, reason)] if enabled else []
    if preprocessor is None:
        # Here, not at import: a `cllint check` whose files all hit the cache never lints.
        from cllint.analysis.preprocessor.view import build_view

        preprocessor = build_view(file, source, target=options.target, defines=dict(options.defines),
                                  include_resolver=include_resolver)
    ctx = RuleContext(
        file=file, source=source, tree=tree, target=options.target,
        preprocessor=preprocessor, model=model,
        options={"mode": options.mode, "std": options.std if options.mode == "portability" else None,
                 "preview": options.preview, "named": _named(options), "focus": focus, "edited": edited, "program_note": options.program_note,
                 "host_features": frozenset(options.host_features),
                 "one_group_kernels": frozenset(options.one_group_kernels), "launches": options.launches,
                 "launch_bounds": options.launch_bounds},
    )
    local_ctx = None
    if local_focus is not None and local_focus != focus:
        local_ctx = replace(ctx, options={**ctx.options, "focus": local_focus})
    rules = options.rules()
    diagnostics = _said_once(run_rules(ctx, rules, options.budget, local_ctx))
    if not options.options_known:
        diagnostics = without_host_choices(preprocessor, file, diagnostics)
    if suppress:
        diagnostics = suppress_all(file, source, diagnostics, options)
    diagnostics.sort(key=lambda d: (d.span.start, d.code))
    return diagnostics


# (rule, the rule that says the same of the same declaration). Without program-scope global
# variables (below OpenCL C 2.0, or a 3.0 target without the feature), a program-scope or
# `static` variable outside `__constant` is CL110's error (the address-space family, on in
# every mode), CL303's (the version family: "needs OpenCL C 2.0") and CL301's (portability:
# "not guarded by __opencl_c_program_scope_global_variables"), each at the variable's name:
# clang-19 gives one error, and so does a full lint. Each family alone keeps its report.
_RESTATES = (("CL303", "CL110"), ("CL301", "CL110"))


def _said_once(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    for code, by in _RESTATES:
        if any(d.code == code for d in diagnostics):
            said = {(d.span.file, d.span.start) for d in diagnostics if d.code == by}
            diagnostics = [d for d in diagnostics if d.code != code or (d.span.file, d.span.start) not in said]
    return diagnostics


def _named(options: LintOptions) -> frozenset[str]:
    """The rule codes the selection names in full (`--select CL308`): a rule's opt-in part
    (CL308's preview half) runs for them."""
    return frozenset(c.upper() for c in (*(options.select or ()), *options.extend_select) if len(c) == 5)


def suppress_all(file: str, source: bytes, diagnostics: list[Diagnostic], options: LintOptions) -> list[Diagnostic]:
    enabled = {r.code for r in options.rules()}
    out = once_per_file(apply_suppressions(file, source, diagnostics, report_unused="CL090" in enabled))
    out.sort(key=lambda d: (d.span.start, d.code))
    return out
