"""CL21x: data races between work-items of one work-group (and, on `__global` memory, of two
work-groups), found as you type.

The three rules read one race analysis of the file (analysis/races/), run once per tree
and shared between them; it builds on the uniformity analysis behind CL2xx.
"""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Applicability, Diagnostic, Edit, Fix, Note, Span
from cllint.analysis.races import Race, analyse_races
from cllint.analysis.races.per_object import one_per_object
from cllint.analysis.rules.base import FixAvailability, Rule, RuleContext
from cllint.analysis.suppression import find_suppressions, suppressed_at

def _races(ctx: RuleContext) -> list[Race]:
    """Shared by the three rules, once per run (`RuleContext.memo`), like barriers._uniformity."""
    return ctx.memo("races", lambda: _analysed(ctx))


def _analysed(ctx: RuleContext) -> list[Race]:
    portable = ctx.target.predefined_macros() if ctx.options.get("mode", "portability") == "portability" else None
    try:
        races = analyse_races(ctx.tree, ctx.source, ctx.focus, ctx.file, ctx.preprocessor, portable,
                              ctx.options.get("one_group_kernels", frozenset()), ctx.options.get("launches", ()))
    except RecursionError:  # pathological nesting: stay silent rather than fail the file
        return []
    # One report per (rule, memory object, kernel): the other races on it are its notes; one a
    # comment suppresses stays apart, so that the suppression hides that race only.
    sups = find_suppressions(ctx.file, ctx.source)
    if not sups:
        return one_per_object(races)
    return one_per_object(races, lambda r: suppressed_at(sups, r.code, ctx.source.count(b"\n", 0, r.start)))


class _RaceRule(Rule):
    fix_availability = FixAvailability.SOMETIMES
    applicability = Applicability.UNSAFE

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        for r in _races(ctx):
            if r.code != self.code:
                continue
            notes = [Note(Span(ctx.file, s, e), m) for s, e, m in r.notes]
            fix = Fix(r.fix_title, tuple(Edit(Span(ctx.file, s, e), text) for s, e, text in r.fix),
                      self.applicability) if r.fix else None
            yield self.diagnostic(Span(ctx.file, r.start, r.end), r.message, notes=notes, fix=fix)


class LocalMemoryRace(_RaceRule):
    """## What it does
    Reports two accesses to the same `__local` array, at least one a write, that two
    different work-items of a work-group can make to the same element with no
    `barrier(CLK_LOCAL_MEM_FENCE)` between them: `l[lid]` written and `l[lid + 1]` read,
    `l[0]` written by every work-item, a reduction loop with no barrier per step. The
    message names both accesses and two work-items that collide, on model work-groups
    (16 and 4 work-items in one dimension, 8x8 and 4x4 in two; the race must show in both;
    where an access names an element or a work-item by a constant, `l[7]`, `lid == 5` or
    `lid < 8` (its other arm), the smaller model grows to hold it, and to the places an
    index of ids wraps at, `(lid + 5) & 31` or `lid % 8`, up to the larger model; a one-dimensional kernel that names a
    work-item only a wider work-group has, `lid == 40`, or an element `l[40]` of a `__local`
    array of 64 indexed only by constants and the work-item's place, is searched in a 64-wide
    one), or the kernel's `reqd_work_group_size`, or the work-group size its `[[launch]]`
    entries in the configuration state (docs/configuration.md, *Launches*).

    One report per array and kernel: the races a rule finds on one array, buffer or
    variable (its elements' fields and components included) in one kernel are one report,
    at the first of them; each other race is a note at its own place ("also races here:"
    and its message, then its own notes), eight notes at most, then a count.

    An access is to an element: `l[i]`, `*p` (`p[0]`), a `__local` scalar, the location an
    atomic built-in is given (`atomic_inc(p)` is an atomic access to `p[0]`), and a field or
    vector component of one (`l[3].y` is element 3; `.x` and `.y` of one element do not
    meet, nor do `.lo` and `.hi`, `.even` and `.odd`, two fields of a struct whatever
    their names, `p[i].w` and `p[i].v`, or two elements of an array field by literal
    indices, `s[i].a[0]` and `s[i].a[1]`; an array field indexed otherwise is not followed). A pointer chosen by `c ? a : b`, or by an if/else (`if (c) p = a; else p = b;`,
    or `p = b;` declared and `if (c) p = a;` after, each use after the `if` in its block, and
    nothing the condition names assigned again), is an access to `a` where `c` holds and to
    `b` where it does not. A pointer cast to another type views the same bytes (`(local
    uchar *)t` of a `float` array: `b[4 * i + 1]` is byte 1 of `t[i]`; a `float4 *` view's
    element is four floats): accesses to a base seen through a view meet where their bytes
    do. So do `vloadn(i, p)`, which reads, and `vstoren(v, i, p)`, which writes, the `n`
    elements `p[n * i]` to `p[n * i + n - 1]`. `async_work_group_copy(dst, src, n, e)` (and the strided copy, whose `__global` side
    is `stride` elements apart) writes `dst[0..n)` and reads `src[0..n)` on behalf of the
    work-group, from the call until a `wait_group_events` (on `__global` memory, copies
    of two work-groups race where their elements meet and what they copy may differ, as
    two plain stores do under CL211's policy): a barrier in between does not
    end it, and accesses before the call need a barrier before it (the message names the
    work-group's first work-items for the copy). Macros that stand for ids and index arithmetic (`#define tid
    get_local_id(0)`, `#define IDX(i) ((i) ^ 1)`) are read as what they expand to, and so are
    macros that stand for an element (`#define AT(a, i, j) a[(i) * N + (j)]`: `AT(l, y, x)` is
    that subscript). A view of rows (`local float (*t)[16] = (local float (*)[16])buf;`, a
    pointer argument declared to arrays, or a whole multi-dimensional array cast to a flat
    pointer) names its elements' bytes in order: `t[y][x]` is `buf[16 * y + x]`. A kernel
    that asks no work-item id is checked for one location updated in place by every
    work-item (`A[0] += 1`, `A[0] = A[0] + 1`) only: its other accesses race only if it runs
    in more than one work-item, which such kernels (single work-item tasks) often do not.

    Same-value policy: two plain stores race only if the values can differ. A store every
    work-item makes with a value the whole work-group shares (`l[0] = 1.0f`, `flag[0] =
    n`) is benign and not reported, as Oclgrind deems it; two stores of different
    expressions to one element (`if (lid == 0) l[0] = 1; l[0] = 2;`) are reported unless
    both values are computed and equal (`1.0f` and `1`). Across work-groups (CL211) the
    same policy holds with the NDRange for the work-group: a store every work-group makes
    with the same values (`out[lid] = in[lid]`) is benign, one whose value follows the
    group (`p[lid] = get_group_id(0)`) races. A loop counter's value is shared only within
    one pass: `a[lid + i] = i` races (work-item 1's first pass and work-item 0's second store
    0 and 1 at `a[1]`). Where the work-group size is stated (`reqd_work_group_size`, a
    `[[launch]]`), values are compared up to its last work-item (`a[0] = lid / 64` races in
    work-groups of 65); where it is not, a quotient that is one value in work-groups up to
    the divisor is taken as one value.

    Indices are followed where they are affine in work-item ids, group ids and sizes,
    loop counters (of `for` loops, and of `while` and `do ... while` loops whose one update
    ends the body: `d >>= 1`, `i *= 2`; a `do` body runs at least once) and kernel arguments (`l[2 * lid + 1]`, `t[ly][lx - 1]`, also
    through `min`, `max` and `clamp`); guards (`if (lid < s)`, `lid % (2 * s) == 0`, `if
    (lid >= n) return;`) restrict which work-items make an access. A flag or threshold of
    loaded data (`if (flags[lid] > 0)`) may pass in any number of work-items at once, and the
    accesses under it race as others do; a test of a datum for equality with a key (`if
    (x[lid] == key)`) may pass in any one work-item, but a race needs no two work-items to
    pass one at once (the data may hold the key once), unless the whole work-group loads
    what it tests alike (`if (flag[0] == 0)`: taken by all or none) or the key is one value
    all of them load from `__local` memory (`if (score[lid] == best[0])`: ties). Barrier intervals run through
    loops (the end of one iteration meets the start of the next; a loop whose counter
    always enters it runs its body at least once) and calls (a call to a helper that
    reaches a barrier is one). An index or guard the linter cannot evaluate otherwise
    (loaded from memory, a private variable assigned more than once) keeps the access out
    of the check: precision first. Atomics do not race with atomics.

    Helpers are followed: `store(tile, lid, x)` with `void store(local float *l, int i,
    float v) { l[i] = v; }` writes `tile[lid]` at the call, the helper's parameters standing
    for the arguments passed (through helpers that call helpers too); the report sits on
    the kernel's call and notes point into the helper. So are pointers derived from shared
    memory: `local float *row = tile + ly * W; row[lx] = v;` writes `tile[ly * W + lx]`, as
    does `&tile[i]` with its offset, and `*p` is `p[0]`. A helper that reaches a barrier
    on every path is a barrier at its call: what it does before its first barrier ends
    the interval before the call, what it does after its last one starts the interval
    after it. Not followed, so silent: a helper's own loop counters, a parameter or
    pointer assigned again, casts through a type of unknown size (a struct, `void *`), the
    row of a 2-D array, async copies made inside a helper, recursion, what a helper does
    between two barriers of its own, and helpers that synchronise on some paths only or
    through a collective.

    The quick fix inserts `barrier(CLK_LOCAL_MEM_FENCE);` before the second statement,
    outside any work-item-dependent branch around it (unsafe: review where it goes).

    ## Why is this bad?
    Work-items of a work-group run in no fixed order between barriers. Without one,
    the reader may see the old value or the new one, and two writers leave either
    value: the result changes with the device, the driver and the input.

    ## Example
    ```c
    l[lid] = in[gid];
    out[gid] = l[lid] + l[lid + 1];   // work-item 0 reads what work-item 1 writes
    ```

    ## Use instead
    ```c
    l[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = l[lid] + l[lid + 1];
    ```

    ## OpenCL spec
    Section 6.15.9, "Synchronization Functions" (`barrier`, `work_group_barrier`), and
    the memory model: a data race is undefined behaviour.
    """

    code = "CL210"
    name = "local-memory-race"
    spec_section = "synchronization-functions"


class GlobalMemoryRace(_RaceRule):
    """## What it does
    Reports two accesses to the same `__global` buffer, at least one a write, that two
    different work-items of one work-group can make to the same element with no
    `barrier(CLK_GLOBAL_MEM_FENCE)` between them (`a[gid]` written and `a[gid + 1]`
    read). Indices, guards and intervals are followed, and races on one buffer in one
    kernel said once, as for CL210. Distinct pointer
    arguments are taken not to alias. Program-scope `__global` variables (OpenCL C 2.0,
    `global int g[64];`, `global int total;`) are followed as pointer arguments are.

    Races between two work-groups are reported too, wherever the two accesses are in the
    kernel, barriers or not: a barrier orders the work-items of one work-group only, so
    the message names two work-items of two neighbouring work-groups and offers no fix
    (use two kernels, atomics, or indices that keep the work-groups apart). A load and a
    write race across work-groups when one of the two depends on the work-group, in its
    index or a guard (`a[gid + 1]`, `if (gid == 0) *count = 0`), or when one element is
    loaded and written by every work-group (`x = p[lid]; ... p[lid] = x + 1`, `p[lid] +=
    1`) of a kernel that asks its group or global id, or whose `[[launch]]` entries in the
    configuration state several work-groups: the same accesses in a kernel that asks
    nothing about work-groups are how kernels written for a single work-group look, and are
    left alone. Two plain stores (or one store every work-group
    makes) race across work-groups under the same-value policy of CL210, the whole
    NDRange for the work-group: only where the values two work-groups store there can
    differ, because the value follows the group (a group or global id, a load at an index
    that follows the group, a value loaded from memory the kernel filled with such values,
    an atomic's result) or two different values meet (`p[lid] = get_group_id(0)`, `if (lid
    == 0) out[0] = sum` with `sum` a group's own, `out[gid] = x; out[gid + 1] = y`). A
    load of memory the kernel writes is taken to read back what the kernel stored there:
    every work-group storing `lid` into its own slice of `tmp` and then `out[lid] =
    tmp[off + 1]` stores the same values (piglit's `global_memory_one_work_group`), as do
    `out[lid] = in[lid]`, `p[0] = 1` and `p[lid] = lid * 2`, and are not reported.
    Work-groups are paired with their neighbours along the dimensions those indices,
    guards and values follow (`get_global_id(0)`: along 0), with the work-group an
    index of ids wraps onto (`p[gid & 31]`: 32 work-items on), and the first with the last,
    where an index mirrored in the NDRange meets its plain twin (`a[get_global_size(0) - 1 -
    gid]` and `a[gid]`; `get_num_groups(0) - 1 - get_group_id(0)`).

    A kernel launched as a single work-group has no races between work-groups, and none
    is looked for in it: where every launch the workspace's host code makes of it has a
    global size equal to its local size (C's `clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &n,
    ...)`, or two size arrays defined by equal literals; `clEnqueueTask`; C++'s
    `enqueueNDRangeKernel(k, offset, cl::NDRange(n), cl::NDRange(n))`; pyopencl's
    `prg.k(queue, (n,), (n,), ...)`), or a piglit test header declares only such launches,
    or every `[[launch]]` the configuration states for it has `groups = 1`
    (docs/configuration.md, *Launches*).
    A launch whose local size is left to the implementation (`NULL`, `None`) is several
    work-groups, and one whose kernel the host code does not name keeps every C kernel checked.

    Slices: a kernel argument (or a value derived from one: `step /= sizeof(*d)`, `pitch
    / 4`) used as a stride, `d + step * get_group_id(0)`, is taken to be at least as wide
    as what one work-group touches in its slice, so two work-groups' slices do not meet
    when each work-group stays at non-negative offsets bounded by its local ids and
    constants (`base[lid]`, `row[lid + get_local_size(0)]`): that is what such strides
    are for (a row pitch, a descriptor's length), and an argument is sampled far wider
    than a work-group. Offsets past the slice (`base[lid + step]`) or a slice shared by two
    work-groups (`step * (get_group_id(0) / 2)`) are still found; a write before the
    slice's start (`row[-1]`) meets the previous slice only when the stride is exactly its
    width, and is not. The operand of `sizeof`, `_Alignof` and `vec_step` is never
    evaluated and reads no memory.

    ## Why is this bad?
    Without a barrier the other work-item's write may or may not be visible, so the
    result depends on scheduling.

    ## Example
    ```c
    a[gid] = a[gid] * 2.0f;
    float right = a[gid + 1];
    ```

    ## Use instead
    ```c
    float right = a[gid + 1];   // read before anyone writes, or use a second buffer
    barrier(CLK_GLOBAL_MEM_FENCE);
    a[gid] = a[gid] * 2.0f;
    ```

    ## OpenCL spec
    Section 6.15.9, "Synchronization Functions".
    """

    code = "CL211"
    name = "global-memory-race"
    spec_section = "synchronization-functions"


class BarrierFenceMissesMemory(_RaceRule):
    """## What it does
    Reports a race that a barrier between the two accesses would prevent if its flags
    fenced the memory they share: `barrier(CLK_GLOBAL_MEM_FENCE)` between a `__local`
    write and read, or `CLK_LOCAL_MEM_FENCE` alone between `__global` ones. The fix
    fences both (safe: a wider fence only orders more). As for CL210, the races on one
    array or buffer in one kernel are one report, the others its notes.

    `barrier(0)` fences no memory: it orders execution, but neither side's `__local` or
    `__global` stores need be visible across it. A call of a helper that reaches barriers
    fences what any of them fences (`void sync(void) { barrier(0); }`: nothing); the fix is
    then the helper's, and none is offered at the call.

    Flags are read through the file's object-like macros (`#define LFENCE
    CLK_LOCAL_MEM_FENCE`, chains of them, `(A | B)`), as defined where the barrier is. A
    flag argument that is anything else (a variable, a function-like macro, a macro
    defined in an `#if` arm the file does not decide) counts as fencing every memory.

    ## Why is this bad?
    A barrier makes work-items wait, but only the memory named in its flags is made
    consistent across it; the other space may still show stale values.

    ## Example
    ```c
    l[lid] = in[gid];
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[gid] = l[lid + 1];
    ```

    ## Use instead
    ```c
    l[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = l[lid + 1];
    ```

    ## OpenCL spec
    Section 6.15.9, "Synchronization Functions": the flags argument "specifies the
    memory address space" the barrier's fence applies to; with no flag (0) the barrier
    makes no memory consistent.
    """

    code = "CL212"
    name = "barrier-fence-misses-memory"
    spec_section = "synchronization-functions"
    applicability = Applicability.SAFE


RULES = [LocalMemoryRace, GlobalMemoryRace, BarrierFenceMissesMemory]
