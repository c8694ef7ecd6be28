"""CL2xx: barriers and work-group / sub-group functions that some work-items may skip.

All five rules read one uniformity analysis of the file (analysis/uniformity/), run
once per tree and shared between them.
"""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Note, Span
from cllint.analysis.rules.base import FixAvailability, Rule, RuleContext
from cllint.analysis.suppression import find_suppressions, suppressed_at
from cllint.analysis.uniformity import FileUniformity, analyse_file
from cllint.analysis.uniformity.per_cause import one_per_cause
from cllint.analysis.uniformity.summaries import Finding
from cllint.analysis.lazy_re import lazy

def _uniformity(ctx: RuleContext) -> FileUniformity:
    """Shared by the five rules, once per run (`RuleContext.memo`). With a focus, findings
    only for the functions it meets (an incremental run takes the others from its cache)."""
    return ctx.memo("uniformity", lambda: _analysed(ctx))


def _analysed(ctx: RuleContext) -> FileUniformity:
    # In portability mode no target decides a preprocessor arm (`#if __OPENCL_C_VERSION__`).
    portable = ctx.target.predefined_macros() if ctx.options.get("mode", "portability") == "portability" else None
    try:
        found = analyse_file(ctx.tree, ctx.source, ctx.focus, ctx.file, ctx.preprocessor, portable,
                             ctx.options.get("launch_bounds", ()))
    except RecursionError:  # pathological nesting: stay silent rather than fail the file
        return FileUniformity([])
    single = _single_item_kernels(ctx)
    if single:  # a work-group of one work-item has no other to differ from
        found = FileUniformity([f for f in found.findings if not any(s <= f.start < e for s, e in single)])
    return FileUniformity(_once_per_cause(ctx, found.findings))


def _once_per_cause(ctx: RuleContext, findings: list[Finding]) -> list[Finding]:
    """One report per (rule, function, reason chain), the other calls its notes; a call a
    comment suppresses stays apart, so that the suppression hides that call only."""
    if len(findings) < 2:
        return findings
    from cllint.analysis.incremental import function_ranges

    functions = sorted(function_ranges(ctx.tree, ctx.source))
    sups = find_suppressions(ctx.file, ctx.source)
    if not sups:
        return one_per_cause(findings, functions)
    return one_per_cause(findings, functions,
                         lambda f: suppressed_at(sups, f.code, ctx.source.count(b"\n", 0, f.start)))


def _single_item_kernels(ctx: RuleContext) -> list[tuple[int, int]]:
    """The kernels whose head requires work-groups of one work-item
    (`reqd_work_group_size(1, 1, 1)`), as (start, end) of their definitions."""
    if b"reqd_work_group_size" not in ctx.source:
        return []
    from cllint.analysis.incremental import function_ranges
    from cllint.analysis.uniformity.aligned import work_group_size

    out = []
    for start, end in function_ranges(ctx.tree, ctx.source):
        brace = ctx.source.find(b"{", start, end)
        head = ctx.source[start:brace if brace >= 0 else end]
        if _KERNEL_WORD.search(head) and work_group_size(head, lambda name: None) == (1, 1, 1):
            out.append((start, end))
    return out


_KERNEL_WORD = lazy(rb"\b(?:__)?kernel\b")


class _UniformityRule(Rule):
    fix_availability = FixAvailability.NONE

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        for f in _uniformity(ctx).findings:
            if f.code == self.code:
                notes = [Note(Span(ctx.file, s, e), m) for s, e, m in f.notes]
                yield self.diagnostic(Span(ctx.file, f.start, f.end), f.message, notes=notes)


class DivergentBarrier(_UniformityRule):
    """## What it does
    Reports a `barrier` or `work_group_barrier` call that some work-items of a
    work-group may not reach: it sits under a branch or loop whose condition depends
    on the work-item (`get_local_id`, `get_global_id`, values loaded from a
    work-item-dependent address, results of atomics...), or after a `return`,
    `break` or `continue` that only some work-items take.

    The notes show the branch or exit and why its condition varies between work-items,
    down to the built-in it comes from. Branches on group ids, sizes, kernel scalar
    arguments and loop counters with uniform bounds are uniform and never reported.
    Values loaded from a uniform address are treated as uniform. Silence one report
    with `// cllint: ignore[CL201]` on the line of the call.

    The calls one cause leaves unreached in one function (the same branch, loop or early
    exit, the same reason chain) are one report at the first, its message counting the
    others, each of them a note: they are one decision. The same holds for CL202 to CL205.

    As in C: a comma expression is decided by its last operand; a call in one arm of
    `?:` or right of `&&`/`||` runs only where the other operand selects it; fields of a
    private struct vary one by one (`c.lid` per work-item, `c.n` uniform); a macro such
    as `#define LID get_local_id(0)` varies where it is used. Only preprocessor arms the
    file, `-D` or the target leave live count (`#ifdef X` with X defined above drops its
    `#else`); an arm false only because a name is defined nowhere still counts. With no
    target named (portability mode), version, feature and extension macros decide an arm
    only where the file or `-D` defines them: both arms of `#if __OPENCL_C_VERSION__ >= 200`
    count.

    A barrier behind a macro counts where the macro is used (`SYNC_THREADS ();` with
    `#define SYNC_THREADS() barrier(CLK_LOCAL_MEM_FENCE)`, `LOCAL_BARRIER;` with
    `#define LOCAL_BARRIER barrier(CLK_LOCAL_MEM_FENCE)`, nested macros expanded) when
    the file or an include the linter finds defines the macro; the message says what
    it expands to. A macro whose expansion tests a condition or jumps before the
    barrier decides for itself whether it synchronises and is not reported, nor is a
    macro the linter cannot see. The same holds for CL202, CL203 and CL205.

    ## Why is this bad?
    Every work-item of the work-group must execute the barrier, or none may; otherwise
    the behaviour is undefined. In practice the kernel hangs, or the barrier releases
    early and the local memory it should protect is read before it is written.

    ## Example
    ```c
    kernel void sum(global const float *in, global float *out, local float *tmp, int n) {
        int gid = get_global_id(0), lid = get_local_id(0);
        if (gid >= n) return;             // some work-items leave here
        tmp[lid] = in[gid];
        barrier(CLK_LOCAL_MEM_FENCE);     // ...and never arrive here
    }
    ```

    ## Use instead
    ```c
    kernel void sum(global const float *in, global float *out, local float *tmp, int n) {
        int gid = get_global_id(0), lid = get_local_id(0);
        tmp[lid] = gid < n ? in[gid] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    ```

    ## OpenCL spec
    Section 6.15.9, "Synchronization Functions": "If barrier is inside a conditional
    statement, then all work-items must enter the conditional if any work-item enters
    the conditional statement and executes the barrier. If barrier is inside a loop,
    all work-items must execute the barrier for each iteration of the loop before any
    are allowed to continue execution beyond the barrier."
    """

    code = "CL201"
    name = "divergent-barrier"
    spec_section = "synchronization-functions"


class DivergentCollective(_UniformityRule):
    """## What it does
    Reports a work-group function other than a barrier (`work_group_reduce_*`,
    `work_group_scan_*`, `work_group_broadcast`, `work_group_any`/`all`,
    `async_work_group_copy`, `async_work_group_strided_copy`, `wait_group_events`,
    `work_group_reserve_*_pipe`, `work_group_commit_*_pipe`) that some work-items of the
    work-group may not reach.

    ## Why is this bad?
    These functions must be encountered by all work-items of a work-group executing
    the kernel, with the same arguments; otherwise the behaviour is undefined (hangs,
    wrong sums, partial copies).

    ## Example
    ```c
    if (get_local_id(0) < 32)
        s = work_group_reduce_add(x);
    ```

    ## Use instead
    ```c
    s = work_group_reduce_add(get_local_id(0) < 32 ? x : 0);
    ```

    ## OpenCL spec
    Section 6.15.16, "Work-group Collective Functions"; 6.15.11, "Async Copies from
    Global to Local Memory, Local to Global Memory, and Wait Group Events";
    6.15.18, "Pipe Functions" (work-group reservations).
    """

    code = "CL202"
    name = "divergent-collective"
    spec_section = "work-group-functions"


class DivergentCallToBarrierFunction(_UniformityRule):
    """## What it does
    Reports a call to a function that (directly, through its callees, or through a
    macro that expands to one) reaches a barrier or work-group function, when some
    work-items may not make the call, or when an argument that decides whether the
    function synchronises varies between work-items. A note points at the
    synchronisation inside the callee.

    ## Why is this bad?
    The barrier inside the helper is then executed by only part of the work-group,
    which is undefined behaviour exactly as if it were written at the call site.

    ## Example
    ```c
    void reduce(local float *t) { /* ... */ barrier(CLK_LOCAL_MEM_FENCE); }
    kernel void k(local float *t) {
        if (get_local_id(0) < 64) reduce(t);
    }
    ```

    ## Use instead
    ```c
    kernel void k(local float *t) {
        reduce(t);  // every work-item calls it; branch inside, around the work only
    }
    ```

    ## OpenCL spec
    Section 6.15.9, "Synchronization Functions".
    """

    code = "CL203"
    name = "divergent-call-to-barrier-function"
    spec_section = "synchronization-functions"


class NonUniformArgument(_UniformityRule):
    """## What it does
    Reports an argument that must be the same for every work-item (of the work-group,
    or of the sub-group for `sub_group_*` functions) but depends on the work-item:
    barrier flags and memory scope, the local id given to `work_group_broadcast` or
    `sub_group_broadcast`, the arguments of `async_work_group_copy`,
    `async_work_group_strided_copy` and `wait_group_events`, and pipe reservation
    arguments. Where a macro stands for the call, its arguments are checked only when
    the macro is the function's name alone (`#define BARRIER barrier`): where a
    function-like macro's arguments land in its expansion is not known.

    ## Why is this bad?
    The spec requires these arguments to be the same for all work-items; if they differ,
    the behaviour is undefined (each work-item may copy a different block, or broadcast
    from a different work-item).

    ## Example
    ```c
    event_t e = async_work_group_copy(tile, src + get_global_id(0), 64, 0);
    ```

    ## Use instead
    ```c
    event_t e = async_work_group_copy(tile, src + get_group_id(0) * 64, 64, 0);
    ```

    ## OpenCL spec
    Sections 6.15.9, 6.15.11 and 6.15.16: "the arguments ... must be the same for all
    work-items in the work-group".
    """

    code = "CL204"
    name = "non-uniform-argument"
    spec_section = "async-copies"


class DivergentSubGroupFunction(_UniformityRule):
    """## What it does
    Reports a `sub_group_barrier` or sub-group collective (`sub_group_reduce_*`,
    `sub_group_scan_*`, `sub_group_broadcast`, `sub_group_any`/`all`, sub-group pipe
    reservations, shuffles) under a condition that clearly differs within a sub-group:
    one derived from `get_sub_group_local_id`, or an equality, modulo or bit test on a
    work-item id. Conditions on `get_sub_group_id` are uniform within a sub-group and are
    not reported; `lid < 32`-style conditions may line up with sub-group boundaries and
    are not reported either.

    ## Why is this bad?
    Sub-group functions must be encountered by all work-items of a sub-group; otherwise
    the behaviour is undefined.

    ## Example
    ```c
    if (get_sub_group_local_id() == 0)
        s = sub_group_reduce_add(x);
    ```

    ## Use instead
    ```c
    s = sub_group_reduce_add(x);
    if (get_sub_group_local_id() == 0) out[get_sub_group_id()] = s;
    ```

    ## OpenCL spec
    Section 6.15.19, "Sub-group Functions" (cl_khr_subgroups).
    """

    code = "CL205"
    name = "divergent-sub-group-function"
    spec_section = "subgroup-functions"


RULES = [
    DivergentBarrier,
    DivergentCollective,
    DivergentCallToBarrierFunction,
    NonUniformArgument,
    DivergentSubGroupFunction,
]
