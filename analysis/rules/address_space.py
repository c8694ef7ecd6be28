"""CL1xx: address spaces (OpenCL C 6.7 and 6.11), version-aware, without a driver.

Every rule reads one analysis of the file (analysis/addrspace/), run once per context over the
semantic model. Pointers read from declarations we cannot fully see (unexpanded macros, broken
syntax, unknown types) are never reported: precision first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from cllint.analysis.addrspace import Finding, analyse
from cllint.analysis.addrspace.head_memo import HeadMemo
from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules._findings import cached, diagnostics
from cllint.analysis.rules._model import active, model_for
from cllint.analysis.rules.base import FixAvailability, Rule, RuleContext


def analysis_of(ctx: RuleContext) -> list[Finding]:
    """The address-space analysis of the context's model, in its focus, compiled-out code
    included: shared by CL1xx and by the generic-space gating, which asks the same model
    for its conversion errors (one analysis per lint instead of two)."""
    return cached(ctx, "_cl1xx_all", lambda: analyse(model_for(ctx), focus=ctx.options.get("focus"),
                                                     extension_enabled=_extension_enabled(ctx),
                                                     heads=_head_memo(ctx)))


def _head_memo(ctx: RuleContext) -> HeadMemo | None:
    """An editor's focused run carries the function heads' findings of its last lint
    (addrspace/head_memo.py), under what besides the text they read: the target and mode,
    the macros and the headers (what the incremental driver's skeleton key holds of the view)."""
    view = ctx.preprocessor
    state = getattr(view, "macro_state_at", None)
    if ctx.options.get("focus") is None or not ctx.options.get("edited") or state is None:
        return None
    from cllint.analysis.semantic.headers import key as headers_key
    from cllint.analysis.toplevel import items_of

    facts = (ctx.target, ctx.options.get("mode"), ctx.options.get("std"), state(1 << 62), headers_key(view),
             tuple((d.code, d.message) for d in getattr(view, "diagnostics", ())))
    return HeadMemo(items_of(ctx.tree, ctx.source, ctx.file), facts)


def _findings(ctx: RuleContext) -> list[Finding]:
    return cached(ctx, "_cl1xx", lambda: [f for f in analysis_of(ctx) if active(ctx, f.start)])


def _extension_enabled(ctx: RuleContext) -> Callable[[int, str], bool] | None:
    """Where the file's `#pragma OPENCL EXTENSION name : enable` lines are in force."""
    view = ctx.preprocessor
    if view is None:
        return None

    def enabled(offset: int, name: str) -> bool:
        from cllint.analysis.gating.pragma_scope import enabled_where_compiled  # (asked of few files)

        try:  # a pragma under `#ifdef name` counts: where `name` is missing, CL301 reports the use
            return enabled_where_compiled(view, offset, name)
        except Exception:  # noqa: BLE001 - someone else's code; never stop a rule over it
            return False
    return enabled


class _AddressSpaceRule(Rule):
    severity = Severity.ERROR
    spec_section = "addr-spaces"
    # A body is judged against callee heads, never callee bodies; a helper's CL114 fix reads
    # every call site, which the analysis reads outside its focus too (addrspace/check.py).
    local = True

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return diagnostics(self, ctx, _findings(ctx))


class AddressSpaceMismatch(_AddressSpaceRule):
    """## What it does
    Reports implicit conversions of a pointer to a pointer into a different, non-enclosing
    address space: in initialisation, assignment, argument passing and return, in comparisons,
    pointer subtraction and the two arms of `?:`, and at any nested pointer level. Calls to
    built-in functions count too: a pointer argument into a space that none of the built-in's
    overloads takes at that position, such as a `__constant` pointer where `vstore4`, `modf`,
    `remquo`, an atomic function or `async_work_group_copy`'s destination writes, or a
    `__local` one to `prefetch`.

    ## Why is this bad?
    A pointer into one address space cannot address another: the compiler rejects the program.
    Only the generic address space (OpenCL C 2.0, or 3.0 with
    `__opencl_c_generic_address_space`) encloses `__private`, `__local` and `__global`;
    `__constant` is disjoint from every other space, generic included.

    ## Example
    ```c
    kernel void k(global float *src, local float *tmp) {
        local float *p = src;
    }
    ```

    ## Use instead
    ```c
    kernel void k(global float *src, local float *tmp) {
        global float *p = src;
    }
    ```

    ## OpenCL spec
    6.7.4 Address Space Conversions (*Implicit conversions between address spaces*); 6.7.5 Generic.
    """

    code = "CL101"
    name = "address-space-mismatch"
    fix_availability = FixAvailability.SOMETIMES


class AddressSpaceCast(_AddressSpaceRule):
    """## What it does
    Reports explicit casts between pointers into disjoint named address spaces, such as
    `(global int *)local_ptr` or a `__constant` pointer cast to anything else, and the
    checked casts `to_global`, `to_local` and `to_private` given an argument that does not
    convert to a generic pointer: a `__constant` pointer, or a value that is no pointer.

    ## Why is this bad?
    Casts may only convert between the generic address space and a space it encloses. A cast
    between `__local` and `__global` (or from `__private` in OpenCL C 1.x) is rejected by the
    compiler: the address would mean nothing in the other space.

    ## Example
    ```c
    void f(local int *l) { global int *g = (global int *)l; }
    ```

    ## Use instead
    ```c
    void f(local int *l, global int *out) { out[0] = l[0]; }
    ```

    ## OpenCL spec
    6.7.4 Address Space Conversions (*Explicit conversions between address spaces*); 6.15.10
    Address Space Qualifier Functions.
    """

    code = "CL102"
    name = "address-space-cast"


class KernelPointerParameter(_AddressSpaceRule):
    """## What it does
    Reports kernel pointer parameters that do not point to `__global`, `__constant` or
    `__local`: unqualified pointers, `__private` or `__generic` ones, and pointers to pointers
    whose inner pointers live in private memory.

    ## Why is this bad?
    The host can only pass buffers (global or constant memory) and local-memory sizes to a
    kernel; a pointer into private or generic memory cannot be set from the host.

    ## Example
    ```c
    kernel void k(float *out) { out[0] = 1.0f; }
    ```

    ## Use instead
    ```c
    kernel void k(global float *out) { out[0] = 1.0f; }
    ```

    ## OpenCL spec
    6.7.1 Address space qualifiers (kernel arguments); 6.11 Restrictions, item a.
    """

    code = "CL103"
    name = "kernel-pointer-parameter"
    fix_availability = FixAvailability.SOMETIMES


class KernelParameterType(_AddressSpaceRule):
    """## What it does
    Reports kernel parameters of types the host cannot pass: `bool`, `size_t`, `ptrdiff_t`,
    `intptr_t`, `uintptr_t`, `event_t`, `ndrange_t`, `reserve_id_t`, `half` by value without
    `cl_khr_fp16` (the target's, or a `#pragma OPENCL EXTENSION cl_khr_fp16 : enable` in force),
    structs and unions containing such fields (at any depth, through arrays and nested structs)
    or an image, structs containing pointers (any pointer before OpenCL C 2.0; from 2.0, one
    into `__private` or `__generic` memory) and pointers to pointers before OpenCL C 2.0.

    ## Why is this bad?
    These types have no size or representation the host and device agree on (or, for pointers
    inside structs, no way to be set from the host: before 2.0 no pointer can be, and from 2.0
    only pointers into memory the host can see), so the compiler rejects them.

    ## Example
    ```c
    kernel void k(global int *out, size_t n) { }
    ```

    ## Use instead
    ```c
    kernel void k(global int *out, uint n) { }
    ```

    ## OpenCL spec
    6.11 Restrictions (kernel arguments), 6.3.1 Built-in Scalar Data Types, 6.7.1 (kernel pointer
    arguments).
    """

    code = "CL104"
    name = "kernel-parameter-type"


class KernelReturnType(_AddressSpaceRule):
    """## What it does
    Reports kernels whose return type is not `void`.

    ## Why is this bad?
    A kernel has no caller to return a value to; results go through global memory.

    ## Example
    ```c
    kernel int k(global int *out) { return 0; }
    ```

    ## Use instead
    ```c
    kernel void k(global int *out) { out[0] = 0; }
    ```

    ## OpenCL spec
    6.9 Function Qualifiers (`__kernel`): a kernel must return `void`.
    """

    code = "CL105"
    name = "kernel-return-type"
    fix_availability = FixAvailability.SOMETIMES


class QualifiedReturnOrParameter(_AddressSpaceRule):
    """## What it does
    Reports an address space qualifier on a function's (non-pointer) return type, on a
    parameter itself or on a structure or union field itself, rather than on what it points
    to; the space may be written there or come from a typedef.

    ## Why is this bad?
    Return values and parameters are values in private memory; only what a pointer points to
    can be in another address space. A field lives wherever the structure holding it lives.
    The compiler rejects the declaration.

    ## Example
    ```c
    global int f(global int x) { return x; }
    struct tile { local float data[16]; };
    ```

    ## Use instead
    ```c
    int f(int x) { return x; }
    struct tile { float data[16]; };
    ```

    ## OpenCL spec
    6.7 Address Space Qualifiers (function arguments and return types; structure members).
    """

    code = "CL106"
    name = "qualified-return-or-parameter"
    fix_availability = FixAvailability.SOMETIMES


class MultipleAddressSpaces(_AddressSpaceRule):
    """## What it does
    Reports a type given more than one address space, e.g. `__global __local int x`, whether
    written as keywords, as clang's attributes (`__attribute__((opencl_global))`) or through a
    typedef that carries one.

    ## Why is this bad?
    An object or pointee lives in exactly one address space; the compiler rejects the type.

    ## Example
    ```c
    kernel void k(global local int *p) { }
    ```

    ## Use instead
    ```c
    kernel void k(global int *p) { }
    ```

    ## OpenCL spec
    6.7 Address Space Qualifiers: a type may be qualified by at most one address space.
    """

    code = "CL107"
    name = "multiple-address-spaces"
    fix_availability = FixAvailability.SOMETIMES  # not for one attribute among several


class LocalVariableMisuse(_AddressSpaceRule):
    """## What it does
    Reports `__local` variables declared outside a kernel's outermost scope (in a nested block
    or in a non-kernel function) and `__local` variables with an initializer.

    ## Why is this bad?
    Local memory is allocated once per work-group for the kernel's lifetime and is shared by
    its work-items; it cannot be initialised per work-item, nor allocated in helpers or blocks.

    ## Example
    ```c
    kernel void k(global int *o) { if (o[0]) { local int tmp[64] = {0}; } }
    ```

    ## Use instead
    ```c
    kernel void k(global int *o) { local int tmp[64]; if (o[0]) { tmp[0] = 0; } }
    ```

    ## OpenCL spec
    6.7.2 `__local` (usage and initialisation).
    """

    code = "CL108"
    name = "local-variable-misuse"


class UninitializedConstant(_AddressSpaceRule):
    """## What it does
    Reports `__constant` variables declared without an initializer, or whose initializer is not
    a compile-time constant: it calls a function, or reads a variable that is neither
    `__constant` nor `const`-qualified (a kernel parameter, a local, a `__global` variable).

    ## Why is this bad?
    Constant memory is read-only to kernels: a `__constant` variable must get its value from a
    constant initializer at compile time, or it is useless and rejected by the compiler.

    ## Example
    ```c
    constant float table[4];
    kernel void k(float s) { constant float scale = s; }
    ```

    ## Use instead
    ```c
    constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    kernel void k(float s) { const float scale = s; }
    ```

    ## OpenCL spec
    6.7.3 `__constant` (initialisation).
    """

    code = "CL109"
    name = "uninitialized-constant"


class VariableAddressSpace(_AddressSpaceRule):
    """## What it does
    Reports variables declared in an address space their scope does not allow: function-scope
    `__global` variables, function-scope `static`/`extern` variables and program-scope variables
    outside `__constant` when the target lacks program-scope global variables (OpenCL C 1.x,
    3.0 without `__opencl_c_program_scope_global_variables`), program-scope `__local` or
    `__private` variables, and `__constant` variables in non-kernel functions; from OpenCL C
    2.0, program-scope, `static` and `extern` variables outside `__global` and `__constant`
    (`__local`, `__private`, `__generic`), function-scope variables declared `__generic`,
    a space only for what pointers point to, and atomic variables with an initializer outside
    `__global` (`atomic_int n = 0;` in a function, a `__constant` atomic).

    ## Why is this bad?
    Before OpenCL C 2.0 the only memory that outlives a kernel is constant memory; in every
    version, local memory belongs to a kernel and global variables live at program scope.

    ## Example
    ```c
    float scale = 2.0f; // OpenCL C 1.2
    ```

    ## Use instead
    ```c
    constant float scale = 2.0f;
    ```

    ## OpenCL spec
    6.7 Address Space Qualifiers (program-scope variables; *Usage for Declaration Scopes and
    Variable Types*); 6.7.1 `__global`; 6.7.5 The Generic Address Space; 6.10 Storage-Class
    Specifiers; 6.15.12 Atomic Functions (*The `ATOMIC_VAR_INIT` Macro*).
    """

    code = "CL110"
    name = "variable-address-space"
    fix_availability = FixAvailability.SOMETIMES


class ImageSamplerMisuse(_AddressSpaceRule):
    """## What it does
    Reports image types used anywhere but as function parameters (locals, program-scope
    variables, fields, arrays, return types, pointers), and samplers used where they cannot be:
    as fields, in arrays, behind pointers, as return types, qualified with `__local` or
    `__global` (in a function or at program scope), or at program scope neither `const` nor
    `__constant`.

    ## Why is this bad?
    Images and samplers are opaque handles owned by the runtime; they have no address space of
    their own and cannot be stored, copied into memory or returned.

    ## Example
    ```c
    kernel void k(read_only image2d_t img) { image2d_t copy = img; }
    sampler_t pick(int i);
    ```

    ## Use instead
    ```c
    kernel void k(read_only image2d_t img) { /* use img directly */ }
    constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
    ```

    ## OpenCL spec
    6.11 Restrictions (image and sampler types); 6.3.3 Other Built-in Data Types.
    """

    code = "CL111"
    name = "image-sampler-misuse"
    fix_availability = FixAvailability.SOMETIMES


class OpaqueTypeMisuse(_AddressSpaceRule):
    """## What it does
    Reports built-in handle types declared where OpenCL C forbids them: a `pipe` anywhere but
    as a function parameter (a variable, a structure or union field, a function's return type),
    `event_t` as a structure or union field, at program scope or in an address space other than
    `__private`, and `clk_event_t` or `reserve_id_t` variables at program scope. Pipes are
    checked where the target has them (OpenCL C 2.0, or 3.0 with `__opencl_c_pipes`).

    ## Why is this bad?
    Pipes, events and reservation ids are handles the runtime gives a kernel while it runs:
    they have no representation in memory that a structure could hold, that could outlive the
    kernel at program scope or that work-items could share in `__local` memory. The compiler
    rejects the declaration.

    ## Example
    ```c
    struct job { event_t done; };
    kernel void k(read_only pipe int in) { pipe int copy; }
    ```

    ## Use instead
    ```c
    struct job { int id; };
    kernel void k(read_only pipe int in) { int v; read_pipe(in, &v); }
    ```

    ## OpenCL spec
    6.11 Restrictions (the event type; `clk_event_t`, `ndrange_t` and `reserve_id_t`); 6.15.18
    Pipe Functions, *Restrictions*.
    """

    code = "CL116"
    name = "opaque-type-misuse"
    spec_section = "restrictions"


class BlockMisuse(_AddressSpaceRule):
    """## What it does
    Reports blocks used where OpenCL C does not allow them: a function returning a block, a
    block as a structure or union member, an array of blocks and a pointer to a block, written
    with a block declarator (`int (^fields[2])(void)`) or through a block `typedef`.

    ## Why is this bad?
    OpenCL C requires every block to be statically known at build time and to live only in the
    scope that defines it: a block cannot escape through a return value, be stored in memory or
    be reached through a pointer. The compiler rejects these declarations.

    ## Example
    ```c
    typedef int (^op_t)(int);
    op_t pick(int which);
    kernel void k(global int *out) { op_t ops[2]; }
    ```

    ## Use instead
    ```c
    typedef int (^op_t)(int);
    kernel void k(global int *out) { op_t twice = ^(int x) { return 2 * x; }; out[0] = twice(1); }
    ```

    ## OpenCL spec
    6.14.5 Blocks, *Restrictions* (arrays of blocks, blocks as structure or union members,
    blocks as return values, pointers to blocks).
    """

    code = "CL117"
    name = "block-misuse"
    spec_section = "restrictions-1"


class HalfByValue(_AddressSpaceRule):
    """## What it does
    Reports a function's `half` parameter or `half` return value where `cl_khr_fp16` is not
    enabled: the target does not have the extension and no `#pragma OPENCL EXTENSION
    cl_khr_fp16 : enable` is in force at the declaration. Kernel parameters are CL104's.

    ## Why is this bad?
    Without `cl_khr_fp16`, `half` is a storage format only: `half` data is read and written
    through pointers with `vload_half` and `vstore_half` and computed as `float`. A function
    cannot take or return a `half` value; the compiler rejects the declaration.

    ## Example
    ```c
    half scale(half x, float s) { return x * s; }
    ```

    ## Use instead
    ```c
    float scale(float x, float s) { return x * s; }
    ```

    ## OpenCL spec
    6.3.1.2 The `half` Data Type; 6.11 Restrictions (`half`); the `cl_khr_fp16` extension.
    """

    code = "CL118"
    name = "half-by-value"
    spec_section = "the-half-data-type"


class WriteToConstant(_AddressSpaceRule):
    """## What it does
    Reports assignments, compound assignments and increments whose target lives in `__constant`
    memory: a `__constant` variable or an object reached through a `__constant` pointer.

    ## Why is this bad?
    Constant memory is read-only for kernels; the compiler rejects the write.

    ## Example
    ```c
    kernel void k(constant float *lut) { lut[0] = 1.0f; }
    ```

    ## Use instead
    ```c
    kernel void k(global float *lut) { lut[0] = 1.0f; }
    ```

    ## OpenCL spec
    6.7.3 `__constant`: variables in constant memory are read-only.
    """

    code = "CL112"
    name = "write-to-constant"


class DanglingAddress(_AddressSpaceRule):
    """## What it does
    Reports a `__local` or `__private` address stored into `__global` memory, and a helper
    returning the address of one of its own `__private` variables.

    ## Why is this bad?
    Local memory exists only while the work-group runs and private memory only while the
    work-item (or the function) does. A pointer left behind in global memory, or returned to a
    caller, dangles: the next kernel or work-group reads garbage through it.

    ## Example
    ```c
    kernel void k(global int *global *out, local int *tmp) { out[0] = tmp; }
    ```

    ## Use instead
    ```c
    kernel void k(global int *out, local int *tmp) { out[0] = tmp[0]; }
    ```

    ## OpenCL spec
    6.7.2 `__local` (lifetime of local memory); 6.7.4 `__private`.
    """

    code = "CL113"
    name = "dangling-address"
    severity = Severity.WARNING


class UnqualifiedHelperParameter(_AddressSpaceRule):
    """## What it does
    Reports calls passing a `__global`, `__local` or `__constant` pointer to a helper whose
    parameter has no address space, in OpenCL C 1.x (and 3.0 without the generic address space),
    where an unqualified pointer points to `__private`. The fix qualifies the helper's parameter
    with the space every caller passes.

    ## Why is this bad?
    It is the classic porting error: the helper is written as C, with `float *p`, which means
    `__private float *` without a generic address space, and every call with a buffer is
    rejected by the compiler.

    ## Example
    ```c
    float sum(const float *p, int n) { float s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
    kernel void k(global const float *in, global float *out) { out[0] = sum(in, 4); }
    ```

    ## Use instead
    ```c
    float sum(global const float *p, int n) { float s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
    kernel void k(global const float *in, global float *out) { out[0] = sum(in, 4); }
    ```

    ## OpenCL spec
    6.7 Address Space Qualifiers (*Inference*: unqualified pointers point to `__private` without
    the generic address space); 6.7.4 Address Space Conversions.
    """

    code = "CL114"
    name = "unqualified-helper-parameter"
    fix_availability = FixAvailability.SOMETIMES


class UncheckedAddressSpaceCast(_AddressSpaceRule):
    """## What it does
    Reports results of `to_global()`, `to_local()` and `to_private()` dereferenced without a
    null check.

    ## Why is this bad?
    These functions return NULL when the generic pointer does not point into the requested
    space; dereferencing the result unchecked crashes or corrupts memory on exactly the inputs
    the conversion was meant to detect.

    ## Example
    ```c
    void f(int *p) { global int *g = to_global(p); g[0] = 1; }
    ```

    ## Use instead
    ```c
    void f(int *p) { global int *g = to_global(p); if (g) g[0] = 1; }
    ```

    ## OpenCL spec
    6.15.9 Address Space Qualifier Functions; 6.7.5 Generic.
    """

    code = "CL115"
    name = "unchecked-address-space-cast"
    severity = Severity.WARNING


RULES = [
    AddressSpaceMismatch, AddressSpaceCast, KernelPointerParameter, KernelParameterType, KernelReturnType,
    QualifiedReturnOrParameter, MultipleAddressSpaces, LocalVariableMisuse, UninitializedConstant,
    VariableAddressSpace, ImageSamplerMisuse, WriteToConstant, DanglingAddress, UnqualifiedHelperParameter,
    UncheckedAddressSpaceCast, OpaqueTypeMisuse, BlockMisuse, HalfByValue,
]
