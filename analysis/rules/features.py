"""CL3xx: optional features, extensions and OpenCL C versions.

Two modes (analysis/gating/guards.py `is_target_mode`). Portability mode, the default, asks
that every use of an optional feature or extension sit under a preprocessor guard that
implies it. Target mode reports only what the chosen target lacks. All rules share one
list of uses (analysis/gating/uses.py) and one preprocessor view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cllint.analysis.diagnostics import Applicability, Diagnostic, Edit, Fix, Note, Severity, Span, Tag
from cllint.analysis.features import EXTENSIONS, FEATURES, FP64, IMAGES, STRICT_PREFIXES, V1_1, V2_0, V3_0
from cllint.analysis.gating import guard_text, is_guarded, is_target_mode, needs_text, preprocessor_view
from cllint.analysis.gating.uses import collect_uses_and_literals
from cllint.analysis.gating.generic import NEEDS_GENERIC, conversion_spans, generic_conversions
from cllint.analysis.features import GENERIC
from cllint.analysis.gating.assertions import failing_on_target, in_effect
from cllint.analysis.gating.guards import asserted, dead_code, names_text
from cllint.analysis.gating.builtin_library import library_requirements
from cllint.analysis.gating.half_access import half_accesses
from cllint.analysis.gating.tables import PIPES as _PIPES
from cllint.analysis.gating.macro_types import macro_type_uses
from cllint.analysis.gating.overloads import refine
from cllint.analysis.gating.uses import Literal, Use
from cllint.analysis.gating.version import known_version, mandatory, version_facts
from cllint.analysis.gating.version import macro_facts as _macro_facts
from cllint.analysis.gating.version import never_true as _never_true
from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.rules.base import FixAvailability, Rule, RuleContext
from cllint.analysis.rules._model import kind_index, model_for
from cllint.analysis.rules.address_space import analysis_of
from cllint.analysis.target import _did_you_mean
from cllint.analysis.toplevel import CONTAINERS, items_of
from cllint.analysis.lazy_re import lazy

if TYPE_CHECKING:
    from cllint.analysis.gating.image_programs import ImageProgram

def _collected(ctx: RuleContext) -> tuple[list[Use], list[Literal] | None]:
    """Shared by the family's rules, once per run (`RuleContext.memo`): a memo keyed on the
    tree outlived a change of `-D` options, which makes another preprocessor view."""
    return ctx.memo("features", lambda: _collect(ctx))


def _collect(ctx: RuleContext) -> tuple[list[Use], list[Literal] | None]:
    focus = ctx.focus
    uses, literals = collect_uses_and_literals(ctx.tree, ctx.source, preprocessor_view(ctx), focus, ctx.file,
                                               kind_index(ctx))
    # Calls whose argument types decide what they need: typed on every run, never memoised.
    uses = refine(uses, lambda: model_for(ctx), ctx.tree, ctx.target, preprocessor_view(ctx))
    uses = (uses + _generic_uses(ctx) + macro_type_uses(ctx.tree, ctx.source, preprocessor_view(ctx), ctx.file, focus)
            + half_accesses(lambda: model_for(ctx), ctx.tree, ctx.source, focus, kind_index(ctx)) + _byte_store_uses(ctx, focus))
    return _not_the_programs(ctx, uses), literals


_NAMED_KINDS = frozenset({"built-in", "constant"})


def _not_the_programs(ctx: RuleContext, uses: list[Use]) -> list[Use]:
    """`uses` less the built-in functions and constants the program declares itself: an
    enumerator or function of that name in the file or a header it includes (a built-in
    library's `enum { ..., memory_order_seq_cst }`, built without the default header) is
    the program's, and needs nothing of the device."""
    if not any(u.kind in _NAMED_KINDS for u in uses):
        return uses
    from cllint.analysis.semantic.headers import declared_in_includes  # (files that use such names)

    view = preprocessor_view(ctx)
    own = set(declared_in_includes(view)) if view is not None else set()
    index = model_for(ctx).index
    own.update(index.enumerators)
    own.update(index.functions)
    if not own:
        return uses
    return [u for u in uses if u.kind not in _NAMED_KINDS or u.name not in own]


# `byte_stores.BYTE_ADDRESSABLE`'s extension, spelled here: only a 1.0 target reads that module
BYTE_STORE = "cl_khr_byte_addressable_store"
_QUOTED = lazy(r"'([^']*\*[^']*)'")


def _byte_store_uses(ctx: RuleContext, focus: list[tuple[int, int]] | None) -> list[Use]:
    """Narrow stores on an OpenCL C 1.0 target without cl_khr_byte_addressable_store (spec,
    "Restrictions"; core from 1.1). The device decides, not a pragma: enabling an extension
    the target lacks does not make it exist (CL307 reports that pragma; the stores stay)."""
    if not (is_target_mode(ctx) or known_version(ctx)) or ctx.target.version >= V1_1 or ctx.target.has(BYTE_STORE):
        return []
    from cllint.analysis.gating.byte_stores import byte_stores  # (an OpenCL C 1.0 target only)

    return byte_stores(lambda: model_for(ctx), ctx.tree, ctx.source, focus)


def _generic_uses(ctx: RuleContext) -> list[Use]:
    """Pointers into `__global`/`__local` memory converted to unqualified pointers: those
    are generic pointers, so the conversion needs the generic address space."""
    version = known_version(ctx)
    if version is not None and (version < V2_0 or mandatory(version).has(GENERIC)):
        return []  # before 2.0 no generic space exists (CL1xx); in 2.0 it is mandatory
    view = preprocessor_view(ctx)
    expander = view.expand_type_macro if view is not None else None
    out = []
    found: list[set[tuple[int, int]]] = []

    def candidates() -> set[tuple[int, int]]:
        if ctx.target.version >= V2_0 and not is_target_mode(ctx):
            return {(0, 0)}  # the lint's model has generic pointers: no cheap answer
        found.append(conversion_spans(analysis_of(ctx)))  # the CL1xx analysis of the same model and focus
        return found[-1]

    # With a focus, those in it: the incremental driver keeps the rest from a full run (it
    # used to keep none, and a re-analysed function lost its conversions).
    conversions = generic_conversions(ctx.tree, ctx.source, ctx.target, not is_target_mode(ctx),
                                      expander, candidates, ctx.focus)
    if found and conversions:
        # The cheap answer is asked per function, as a keystroke asks it of the function it
        # re-analyses: a conversion counts where its function has a candidate too. Asked of
        # the whole file, a candidate in another function let this one's conversions through
        # in `cllint check` but not in the editor (tests/test_two_hosts.py).
        functions = _function_ranges_of(ctx)
        owners = {_item_of(functions, s) for s, _ in found[-1]}
        conversions = [c for c in conversions if _item_of(functions, c[0]) in owners]
    for start, end, message in conversions:
        types = _QUOTED.findall(message)
        src = next((t for t in types if "__private" not in t), "")
        dst = next((t.replace("__private ", "") for t in types if "__private" in t), "")
        detail = f" of type '{src}' to unqualified '{dst}'" if src and dst else " to an unqualified pointer"
        # An init declarator (`q = o + 1`): the value converted is what follows '='.
        name = ctx.source[start:end].decode("utf-8", "replace").split(" = ", 1)[-1]
        out.append(Use(start, end, "conversion", name, None, NEEDS_GENERIC, detail=detail))
    return out


def _uses(ctx: RuleContext) -> list[Use]:
    return _collected(ctx)[0]


def _line_bounds(source: bytes, start: int, end: int) -> tuple[int, int, bool]:
    """(line start, line end, whether [start, end) covers whole lines up to whitespace)."""
    ls = source.rfind(b"\n", 0, start) + 1
    le = source.find(b"\n", end)
    le = len(source) if le < 0 else le
    whole = not source[ls:start].strip() and not source[end:le].strip()
    return ls, le, whole


def _wrap_fix(ctx: RuleContext, use: Use) -> Fix | None:
    if use.item is None or not use.requires:
        return None
    start, end = use.item
    ls, le, whole = _line_bounds(ctx.source, start, end)
    opening = guard_text(use.requires)
    if whole:
        edits = (Edit(Span(ctx.file, ls, ls), opening + "\n"), Edit(Span(ctx.file, le, le), "\n#endif"))
    else:
        edits = (Edit(Span(ctx.file, start, start), "\n" + opening + "\n"),
                 Edit(Span(ctx.file, end, end), "\n#endif\n"))
    applicability = Applicability.SAFE if whole else Applicability.UNSAFE
    return Fix(f"Wrap in '{opening}'", edits, applicability)


class _GatingRule(Rule):
    # A use is judged by its own body, the directives around it and the names the file
    # defines, never by callers or callee bodies (analysis/incremental.py).
    local = True


class UnguardedOptionalFeature(_GatingRule):
    """## What it does
    In portability mode (the default, when no target is chosen; `--std S` alone sets the
    version), reports a use of an optional feature or extension that no preprocessor guard
    implies: `double` and floating constants
    such as `M_PI` without fp64, `half` variables, `half` vectors, loads and stores through
    a `half` pointer or of a `half` field (`h[i] = x`; `vload_half`/`vstore_half` need
    nothing) and `1.0h` without `cl_khr_fp16`, image and sampler types, `read_write` images,
    3D image writes, the `generic` address space, `pipe`, `queue_t`/`clk_event_t`/`ndrange_t`,
    blocks, program-scope `global` variables and `static` locals outside the constant space,
    64-bit integers, sub-group and work-group collective built-ins, mipmap image access,
    and the atomic orders and scopes (`memory_order_seq_cst`, `memory_scope_all_devices`).
    A type spelled through a macro (`#define real double`, `#define CVT(x) ((half)(x))`)
    is reported where the macro is used; a guard around its `#define` counts too.

    A guard counts when the enclosing `#if`/`#ifdef`/`#elif`/`#else` conditions imply the
    macro: `#ifdef __opencl_c_fp64`, `#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)`,
    the `#else` of `#ifndef cl_khr_fp64`, a macro defined under such a guard, a feature
    implying the one needed (`__opencl_c_3d_image_writes` implies `__opencl_c_images`),
    and, for what OpenCL C 2.0 made mandatory and 3.0 optional again,
    `#if __OPENCL_C_VERSION__ >= 200 && __OPENCL_C_VERSION__ < 300` (`>= 200` alone lets
    a 3.0 device without the feature in). For images the guard to write is
    `__IMAGE_SUPPORT__`, defined wherever images are supported in every version:
    `__opencl_c_images` exists only in 3.0 builds, and a host that passes no `-cl-std`
    builds as 1.x, where a kernel under `#ifdef __opencl_c_images` would vanish. A `#pragma OPENCL EXTENSION x : enable` is not a
    guard: it does not make the extension exist (CL309 checks the pragma is there). One
    report per file and requirement, at its first use: the other uses, in that function and
    in the others (a prototype and its definition, helpers, kernels), follow as notes and
    are counted in the message, since guarding the file or having the host require the
    feature is one decision; the wrap fix is offered where the use is the only one.

    A program whose every kernel takes an image parameter (`read_only image2d_t`, directly or
    through a macro) cannot be built without images, and no guard inside it helps: only its
    host can check the device (`CL_DEVICE_IMAGE_SUPPORT`). There the base image feature is the
    program's requirement: its uses (image and sampler types, image built-ins) are not
    reported, and one information note at the first kernel taking an image says so. A file
    with no kernel whose functions take images (a fragment of image helpers) is read the same
    way. What images need besides (3D image writes, `read_write`, depth and MSAA images,
    mipmaps) stays reported, and so does every image use of a program where some kernel takes
    no image: a guard around the image kernels keeps the others building on a device without
    images. Kernels in an arm no build compiles (`#if 0`) do not count. In a program of
    several sources (a host joins them, or a fragment is read after its includer's text), the
    kernels of the sources read before the file count too, and the note is given once, in the
    first. A target chosen explicitly (target mode) reports what it lacks through CL302 as
    before.

    Double precision is read the same way: a kernel whose parameters or result are double
    data (`global double2 *`, a `double` value, through a typedef or a macro) cannot be
    declared without fp64, so where every kernel of the program is such a kernel, or a file
    without kernels has a helper taking or returning double, fp64 is the program's requirement
    (its host checks `CL_DEVICE_DOUBLE_FP_CONFIG`): its uses are not reported, and one
    information note says so. A program with a kernel whose head has no double (float data
    computed in double, an integer kernel) reports per function as before: a guard, with a
    float fallback, keeps that kernel building. `half` is not read so: a `half *` parameter is
    legal without `cl_khr_fp16`. Pipes likewise: where every kernel takes a `pipe` parameter,
    one note says the program requires `__opencl_c_pipes` (CL_DEVICE_PIPE_SUPPORT).

    The generic address space is also used without its keyword: in OpenCL C 2.0 and 3.0 a
    pointer with no address space on its pointee is generic, so `int *p = g;`, `(int *)g`
    or `helper(g)` with a `global int *g` needs `__opencl_c_generic_address_space` (without
    it the pointer is `__private` and clang rejects the conversion).

    A built-in call is judged by the overloads its argument types can pick: `atom_add` on
    `long` needs `cl_khr_int64_base_atomics` (on `int`, nothing), `sub_group_broadcast` on a
    vector `cl_khr_subgroup_extended_types`, `dot` on `char4` `cl_khr_integer_dot_product`,
    and an `atomic_*_explicit` call without a scope argument `__opencl_c_atomic_scope_device`.
    Where an argument's type cannot be read, the call needs what every overload of the name
    needs. What an argument's own type needs (`sin(d)` on a `double d`) is reported where
    the type is written, not again at the call.

    ## Why is this bad?
    OpenCL C 3.0 made most of OpenCL C 2.0 optional, and `double`, `half` and images were
    always optional. The kernel builds on the developer's device and fails with a compile
    error on a device without the feature.

    ## Example
    ```c
    kernel void fill(global float *y) { y[get_global_id(0)] = 0.0f; }
    kernel void scale(global double *x, double a) { x[get_global_id(0)] *= a; }
    ```

    ## Use instead
    ```c
    kernel void fill(global float *y) { y[get_global_id(0)] = 0.0f; }
    #if defined(__opencl_c_fp64) || defined(cl_khr_fp64)
    kernel void scale(global double *x, double a) { x[get_global_id(0)] *= a; }
    #endif
    ```

    ## OpenCL spec
    Section 6.2.1, "Features", and 6.2.2, "Extensions". Cases the spec gates and
    clang-19 does not (with `-cl-ext=-name`): `long` without `__opencl_c_int64`,
    sub-group built-ins without `__opencl_c_subgroups`, work-group collectives, and
    `memory_scope_device`. `1.0` is a double literal but clang silently makes it float
    when fp64 is missing (see CL308).
    """

    code = "CL301"
    name = "unguarded-optional-feature"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    spec_section = "features"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        if is_target_mode(ctx):
            return
        view = preprocessor_view(ctx)
        facts = version_facts(ctx)  # `--std S` alone: what the version decides (issue 30)
        # One report per need and top-level item (a function, a program-scope declaration):
        # one guard covers its uses, which follow as notes (issue 29: a kernel using `half`
        # 300 times is one finding, not 300).
        firsts: dict[tuple[object, ...], Use] = {}
        more: dict[tuple[object, ...], list[Use]] = {}
        functions: list[tuple[int, int]] | None = None  # (read at the first use reported: most files have none)
        uses = _uses(ctx)
        # A built-in library's file (libclc): what its built-ins' heads need is the device's.
        library = library_requirements(ctx.tree.root_node, uses, items_of(ctx.tree, ctx.source, ctx.file))
        # (only where something in it needs images: the check reads the program's kernel heads)
        program = _image_program(ctx, view, library, facts) if any(
            IMAGES in alt for u in uses for alt in u.requires) else None
        # (only where a use of fp64 would be reported: no note for a file whose uses are guarded)
        doubles = _fp64_program(ctx, view, library, facts) if any(
            u.requires == _FP64 and not _guarded_or_dead(view, u) for u in uses) else None
        pipes = _pipe_program(ctx, view, library, facts) if any(
            u.requires == _PIPES and not _guarded_or_dead(view, u) for u in uses) else None
        for use in uses:
            if not use.requires or use.requires in library or _guarded_or_dead(view, use):
                continue
            if program is not None and use.requires == _BASE_IMAGES:
                continue  # the program's requirement, said once below
            if (doubles is not None and use.requires == _FP64) or (pipes is not None and use.requires == _PIPES):
                continue  # likewise
            if _full_profile_guarantees(use.requires) or _host_checks(ctx, use.requires):
                continue
            if facts is not None and (facts.provides(use.requires) or facts.newer(use.since)
                                      or facts.never_compiled_use(view, use)):
                continue  # mandatory in the version, newer than it (CL303), or never compiled
            if functions is None:
                functions = _function_ranges_of(ctx)
            owner = _item_of(functions, use.start)
            key = (owner if owner is not None else ("at", use.item or use.start), use.requires)
            if key not in firsts:
                firsts[key] = use
                more[key] = []
            elif _report_key(ctx, use, False) != _report_key(ctx, firsts[key], False):
                more[key].append(use)
        for key, use in firsts.items():
            rest = more[key]
            notes = [Note(Span(ctx.file, u.start, u.end), f"also used here ({_what(u)})") for u in rest[:_MAX_NOTES]]
            if len(rest) > _MAX_NOTES:
                notes.append(Note(Span(ctx.file, rest[_MAX_NOTES].start, rest[_MAX_NOTES].end),
                                  f"and {len(rest) - _MAX_NOTES} more uses"))
            also = f" (and {len(rest)} more use{'s' if len(rest) != 1 else ''} here)" if rest else ""
            yield self.diagnostic(
                Span(ctx.file, use.start, use.end),
                f"{_what(use)} is not guarded by {names_text(use.requires)}{also}",
                fix=_wrap_fix(ctx, use) if not rest else None,
                notes=notes,
            )
        if program is not None and program.noted:
            yield self.diagnostic(Span(ctx.file, program.start, program.end), _program_note("images", program),
                                  severity=Severity.INFO)
        if doubles is not None and doubles.noted:
            yield self.diagnostic(Span(ctx.file, doubles.start, doubles.end), _program_note("fp64", doubles),
                                  severity=Severity.INFO)
        if pipes is not None and pipes.noted:
            yield self.diagnostic(Span(ctx.file, pipes.start, pipes.end), _program_note("pipes", pipes), severity=Severity.INFO)


_MAX_NOTES = 8
_BASE_IMAGES = ((IMAGES,),)


def _image_program(ctx: RuleContext, view, library, facts) -> ImageProgram | None:  # noqa: ANN001
    """The file as a program whose every kernel takes an image (image_programs.py), when the
    base image feature would be reported there: not guarded, not the host's check already, not a
    built-in library's premise, not known from the version."""
    if _BASE_IMAGES in library or _host_checks(ctx, _BASE_IMAGES) \
            or (facts is not None and facts.provides(_BASE_IMAGES)):
        return None
    from cllint.analysis.gating.image_programs import image_program, prelude_kernels  # (a file using images)

    program = image_program(ctx.tree, ctx.source, view, lambda at: dead_code(view, at),
                            prelude_kernels(view, ctx.file), items_of(ctx.tree, ctx.source, ctx.file),
                            edited=bool(ctx.options.get("edited")))
    if program is None or (program.noted and view is not None and is_guarded(view, program.start, _BASE_IMAGES)):
        return None
    return program


_FP64 = ((FP64,), ("cl_khr_fp64",))


def _fp64_program(ctx: RuleContext, view, library, facts) -> ImageProgram | None:  # noqa: ANN001
    """The file as a program whose every kernel takes or returns double data
    (fp64_programs.py), when fp64 would be reported there (as `_image_program`)."""
    if _FP64 in library or _host_checks(ctx, _FP64) or (facts is not None and facts.provides(_FP64)):
        return None
    from cllint.analysis.gating.fp64_programs import fp64_prelude, fp64_program  # (files that use double)

    program = fp64_program(ctx.tree, ctx.source, model_for(ctx), view, lambda at: dead_code(view, at),
                           fp64_prelude(view, ctx.file), lambda at: view is not None and is_guarded(view, at, _FP64))
    if program is None or (program.noted and view is not None and is_guarded(view, program.start, _FP64)):
        return None
    return program


def _pipe_program(ctx: RuleContext, view, library, facts) -> ImageProgram | None:  # noqa: ANN001
    """The file as a program whose every kernel takes a pipe (pipe_programs.py), when pipes
    would be reported there (as `_image_program`)."""
    if _PIPES in library or _host_checks(ctx, _PIPES) or (facts is not None and facts.provides(_PIPES)):
        return None
    from cllint.analysis.gating.pipe_programs import pipe_prelude, pipe_program  # (files that use pipes)

    program = pipe_program(ctx.tree, ctx.source, lambda at: dead_code(view, at), pipe_prelude(view, ctx.file),
                           lambda at: view is not None and is_guarded(view, at, _PIPES))
    if program is None or (program.noted and view is not None and is_guarded(view, program.start, _PIPES)):
        return None
    return program


# A program every kernel of which needs a feature (gating/image_programs.py): what it requires,
# what its kernels or (a fragment) its functions do, the feature's macros, the host's device query.
_PROGRAM_NOTES = {
    "images": ("image support", "every kernel takes an image", "its functions take images",
               "'__opencl_c_images'", "CL_DEVICE_IMAGE_SUPPORT"),
    "fp64": ("double precision", "every kernel takes or returns double data",
             "its functions take or return double data", "'__opencl_c_fp64' or 'cl_khr_fp64'",
             "CL_DEVICE_DOUBLE_FP_CONFIG"),
    "pipes": ("pipes", "every kernel takes a pipe", "its functions take pipes", "'__opencl_c_pipes'",
              "CL_DEVICE_PIPE_SUPPORT"),
}


def _program_note(feature: str, program: ImageProgram) -> str:
    needs, kernels, functions, macros, query = _PROGRAM_NOTES[feature]
    if program.has_kernels:
        return f"program requires {needs}: {kernels} ({macros}); its host must check {query}"
    return f"file requires {needs}: {functions} ({macros}); the host of its program must check {query}"


def _host_checks(ctx: RuleContext, requires) -> bool:  # noqa: ANN001 - alternatives of names
    """The workspace's host checks the device for one way to meet the need before it builds
    (cllint/project/hosts.py `checked_extensions`): whether the kernel may use it is its choice."""
    checked = ctx.options.get("host_features") or frozenset()
    # (and a build that defines the macro the file enables the extension under: switches.py)
    switched = ctx.memo("switched_on", lambda: _switched_on(ctx))
    if not checked and not switched:
        return False
    checked = set(checked).union(switched, *(_VENDOR_SAME.get(n, ()) for n in checked))
    return any(alt and all(name in checked for name in alt) for alt in requires)


def _switched_on(ctx: RuleContext) -> frozenset[str]:
    from cllint.analysis.gating.switches import switched_on

    return switched_on(ctx.preprocessor) if ctx.preprocessor is not None else frozenset()


# A vendor extension that defines the same built-ins as a Khronos one: cl_intel_subgroups adds
# get_sub_group_id(), sub_group_reduce_add() ... as cl_khr_subgroups does (its specification's
# list), so a host that checks for it has checked for them.
_VENDOR_SAME = {"cl_intel_subgroups": ("cl_khr_subgroups",)}


def _function_ranges_of(ctx: RuleContext) -> list[tuple[int, int]]:
    """The function definitions the incremental driver re-analyses one by one (its own
    reading): grouping by them keeps a function's findings its own."""
    from cllint.analysis.incremental import function_ranges

    return function_ranges(ctx.tree, ctx.source)


def _item_of(functions: list[tuple[int, int]], offset: int) -> int | None:
    """The start of the function holding `offset`; None outside every function (its uses
    are reported one statement at a time)."""
    from bisect import bisect_right

    i = bisect_right(functions, (offset, 1 << 62)) - 1
    return functions[i][0] if i >= 0 and offset < functions[i][1] else None


# Portability mode assumes a full-profile device: there 64-bit integers are mandatory
# (spec 6.2.1: only embedded-profile devices may lack `__opencl_c_int64`). Target mode
# with an embedded target still reports them (CL302).
_FULL_PROFILE = frozenset({"__opencl_c_int64"})


def _full_profile_guarantees(requires) -> bool:
    return any(all(name in _FULL_PROFILE for name in alt) for alt in requires)


def _report_key(ctx: RuleContext, use: Use, per_line: bool) -> tuple[object, ...]:
    """One report per statement and need: its repeats share one guard. `per_line` (target
    mode, where each is a compile error) also splits it by line, as clang-19 reports every
    parameter line of a function head."""
    return use.item or use.start, use.requires, ctx.source.rfind(b"\n", 0, use.start) if per_line else 0


def _guarded_or_dead(view, use: Use) -> bool:
    """Guarded where it is used or, spelled through a macro, where the macro is defined;
    or in an arm false for every target."""
    return any(dead_code(view, at) or is_guarded(view, at, use.requires)
               for at in (use.start, use.defined_at) if at is not None)


def _target_uses(ctx: RuleContext) -> Iterator[Use]:
    """Uses in code the target compiles (or may compile, when guards decide it unknown);
    for one spelled through a macro, the macro's `#define` must be such code too."""
    view = preprocessor_view(ctx)
    for use in _uses(ctx):
        places = (use.start,) if use.defined_at is None else (use.start, use.defined_at)
        active = [view.active_at(at) if view is not None else True for at in places]
        if False in active:
            continue
        if None in active and use.requires and any(
                is_guarded(view, at, use.requires) for at, a in zip(places, active) if a is None):
            continue
        if use.requires and view is not None and any(
                in_effect(view, at) and is_guarded(view, at, use.requires) for at in places):
            continue  # asserted (`#ifndef X` / `#error`): where X is missing, the #error is the report
        yield use


def _version_mode(ctx: RuleContext) -> bool:
    """The version is known: target mode, or portability mode at `--std S` (issue 30)."""
    return is_target_mode(ctx) or known_version(ctx) is not None


def _compiled_uses(ctx: RuleContext) -> Iterator[Use]:
    """Target mode: the uses the target compiles. Portability mode at a known version: the uses
    in arms some device of the version compiles (a feature guard keeps its arm in play)."""
    if is_target_mode(ctx):
        yield from _target_uses(ctx)
        return
    view = preprocessor_view(ctx)
    facts = version_facts(ctx)
    for use in _uses(ctx):
        if facts is None or not (facts.never_compiled_use(view, use) or dead_code(view, use.start)):
            yield use


class FeatureUnavailableOnTarget(_GatingRule):
    """## What it does
    In target mode (`--target`, a device, or overrides), reports a use of a feature or
    extension the target does not provide, in code the target compiles: the same uses as
    CL301, checked against the target's feature and extension set.

    ## Why is this bad?
    The compiler for that target rejects the program, or (for built-ins declared only when
    the feature macro is defined) reports an undeclared identifier.

    ## Example
    ```c
    // cllint check --target CL3.0
    kernel void k(global int *p) { generic int *q = p; }
    ```

    ## Use instead
    ```c
    kernel void k(global int *p) {
    #ifdef __opencl_c_generic_address_space
        generic int *q = p;
    #endif
    }
    ```

    ## OpenCL spec
    Section 6.2.1, "Features" (the table of `__opencl_c_*` macros) and 6.2.2, "Extensions".
    Clang-19 does not gate `long` on `__opencl_c_int64`, nor sub-group or work-group
    collective built-ins on their macros; the spec requires them.

    On OpenCL C 1.0, "Restrictions": without `cl_khr_byte_addressable_store` (core from 1.1),
    writes through a pointer to, or into an array of, `char`, `uchar`, `char2`, `uchar2`,
    `short` or `ushort` (any address space), and to struct fields of those types, are not
    supported (`out[i] = v` with `global uchar *out`), nor `vstore`n into such a pointer, nor
    `vstore_half`n/`vstorea_half`n into a `half` pointer (the restriction names writes through
    `half` pointers too; those built-ins need no `cl_khr_fp16`). Reads are. As for every
    extension, a pragma enabling it on a target that lacks it does not make it exist (CL307
    reports the pragma). Clang-19 does not check this restriction.

    On OpenCL C 1.0, "Atomic Function Extensions": the 32-bit `atom_*` built-ins come from
    the int32 atomics extension of the space their pointer points into, the base group
    (`atom_add`, `atom_sub`, `atom_xchg`, `atom_inc`, `atom_dec`, `atom_cmpxchg`) or the
    extended one (`atom_min`, `atom_max`, `atom_and`, `atom_or`, `atom_xor`):
    `atom_inc(&lh[i])` on a `__local uint` array needs `cl_khr_local_int32_base_atomics`.
    OpenCL C 1.1 made all four core. A call whose pointer's space is not known stays silent.
    """

    code = "CL302"
    name = "feature-unavailable-on-target"
    severity = Severity.ERROR
    fix_availability = FixAvailability.SOMETIMES
    spec_section = "features"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        if not is_target_mode(ctx):
            return
        t = ctx.target
        view = preprocessor_view(ctx)
        for start, end, missing in failing_on_target(view, ctx.source, t.has) if view is not None else ():
            yield self.diagnostic(Span(ctx.file, start, end),
                                  f"'#error' is reached: the file requires {needs_text((tuple(missing),))}, "
                                  f"which target '{t.describe()}' does not provide")
        seen: set[tuple[object, object]] = set()
        for use in _target_uses(ctx):
            if not use.requires or (use.since is not None and t.version < use.since):
                continue
            if t.satisfies(None, use.requires):
                continue
            key = _report_key(ctx, use, per_line=True)
            if key in seen:
                continue
            seen.add(key)
            yield self.diagnostic(
                Span(ctx.file, use.start, use.end),
                f"{use.kind} '{use.name}'{use.detail} needs {needs_text(use.requires)}, "
                f"which target '{t.describe()}' does not provide",
                fix=_wrap_fix(ctx, use),
            )


class NewerThanTarget(_GatingRule):
    """## What it does
    In target mode, or in portability mode at a version (`--std S` alone), reports a built-in,
    type, qualifier or construct that the target's (or the source's) OpenCL C version does
    not have at all: OpenCL C 2.0 built-ins (`work_group_barrier`,
    `atomic_*`, `to_global`), `generic`, `pipe` and blocks under 1.2, `printf` before 1.2,
    3-component vectors under 1.0. A built-in call is judged by the overload its argument
    types pick: `clamp` on integers and `max(int4, int)` need 1.1 where `clamp` on floats is
    1.0, and sampler-less image reads need 1.2. When no overload takes the argument types as
    they are (a conversion would pick one), or a type is unknown, the name's version stands.

    ## Why is this bad?
    The compiler for that version reports an undeclared identifier or a syntax error.

    ## Example
    ```c
    // cllint check --target CL1.1
    kernel void k(int x) { printf("%d\\n", x); }
    ```

    ## Use instead
    ```c
    kernel void k(int x) {
    #if __OPENCL_C_VERSION__ >= 120
        printf("%d\\n", x);
    #endif
    }
    ```

    ## OpenCL spec
    Section 6.1, "Supported Data Types", 6.15, "Built-in Functions" (the version each
    function and overload appeared in; 6.15.4, "Integer Functions", and "Built-in Image
    Sampler-less Read Functions"), and 6.2, "Optional functionality".
    """

    code = "CL303"
    name = "builtin-newer-than-target"
    severity = Severity.ERROR
    spec_section = "built-in-functions"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        if not _version_mode(ctx):
            return
        t = ctx.target
        view = preprocessor_view(ctx)
        # Target mode names the target; `--std S` alone, the source's version (issue 30).
        against = (f"target '{t.describe()}' is OpenCL C {t.version}" if is_target_mode(ctx)
                   else f"the source is OpenCL C {t.version} ('--std {t.version.std}')")
        for use in _compiled_uses(ctx):
            if use.since is None or t.version >= use.since:
                continue
            v = view.guard_min_version(use.start) if view is not None else None
            if v is not None and v >= use.since.number:
                continue
            # An overload newer than its name is named whole, as clang names a candidate.
            what = use.overload or use.name
            yield self.diagnostic(
                Span(ctx.file, use.start, use.end),
                f"{use.kind} '{what}'{use.detail if use.defined_at is not None else ''} "
                f"needs OpenCL C {use.since} or newer, {against}",
            )


class DeprecatedBuiltin(_GatingRule):
    """## What it does
    In target mode, or in portability mode at a version (`--std S` alone), reports a built-in
    deprecated by that OpenCL C version or earlier: `mem_fence`, `read_mem_fence`,
    `write_mem_fence`, the `atom_*` and `atomic_*` OpenCL 1.x atomics (deprecated by OpenCL
    C 2.0).

    A hint, not a warning: the code is correct and clang-19 accepts it silently. Editors
    show it with the *Deprecated* tag (the name struck through); `cllint check` leaves it
    out of its output and exit status unless the code is selected by name
    (`--select CL304`, `--extend-select CL304` or in the configuration).

    ## Why is this bad?
    Deprecated built-ins may be removed; their replacements carry explicit memory orders
    and scopes.

    ## Example
    ```c
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    ```

    ## Use instead
    ```c
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
    ```

    ## OpenCL spec
    Section 6.15.9, "Synchronization Functions", and 6.15.12.8, "Legacy Atomic Functions"
    (the deprecation notes of the built-in catalogue).
    """

    code = "CL304"
    name = "deprecated-builtin"
    severity = Severity.HINT
    spec_section = "built-in-functions"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        if not _version_mode(ctx):
            return
        t = ctx.target
        for use in _compiled_uses(ctx):
            if use.deprecated is None or t.version < use.deprecated:
                continue
            yield self.diagnostic(
                Span(ctx.file, use.start, use.end),
                f"'{use.name}' is deprecated in OpenCL C {use.deprecated}",
                tags=(Tag.DEPRECATED,),
            )


_NAME = lazy(rb"\b(?:__opencl_c_|cl_khr_|cles_khr_|cl_ext_)\w+")


class UnknownFeatureMacro(_GatingRule):
    """## What it does
    Reports a feature or extension macro in `#if`, `#ifdef`, `#elif` or
    `#pragma OPENCL EXTENSION` whose name is not a known `__opencl_c_*`, `cl_khr_*`,
    `cles_khr_*` or `cl_ext_*` name and that the file does not define itself, with the
    closest known name. Feature macros are a closed set (spec 6.2.1), so any unknown
    `__opencl_c_*` name is reported. Extension names are not: runtimes define names
    outside the registry (PoCL's `cl_khr_int64`), so an unknown extension is reported only
    when it is a likely misspelling of a known one (at most two edits, same prefix).

    ## Why is this bad?
    No compiler defines a misspelled macro, so the guarded code is silently never built
    (or the fallback always is), and a misspelled pragma enables nothing.

    ## Example
    ```c
    #ifdef cl_khr_fp46
    ```

    ## Use instead
    ```c
    #ifdef cl_khr_fp64
    ```

    ## OpenCL spec
    Section 6.2.1, "Features" and 6.2.2, "Extensions" (the macro names), and 7, "OpenCL
    Extensions" of the extension specification.
    """

    code = "CL305"
    name = "unknown-feature-macro"
    severity = Severity.WARNING
    fix_availability = FixAvailability.SOMETIMES
    spec_section = "features"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        view = preprocessor_view(ctx)
        if view is None:
            return
        known = [*FEATURES, *EXTENSIONS]
        for d in view.directives:
            if d.kind not in ("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "pragma"):
                continue
            if d.kind == "pragma" and (d.pragma is None or d.pragma.kind != "extension"):
                continue
            for m in _NAME.finditer(ctx.source, d.args_start if d.args_start >= 0 else d.start, d.end):
                name = m.group().decode()
                if name in FEATURES or name in EXTENSIONS or not name.startswith(STRICT_PREFIXES):
                    continue
                if view.macro_at(name, len(ctx.source)) is not None or name in view._macro_events:
                    continue
                kind = "feature" if name.startswith("__opencl_c_") else "extension"
                close = _misspelling_of(name, known)
                if close is None and kind == "extension":
                    continue  # an extension this table does not know, not a typo of one it does
                if close is None:
                    close = _closest(name, known)
                hint = f" (did you mean '{close}'?)" if close else ""
                fix = None
                if close:
                    fix = Fix(f"Replace with '{close}'",
                              (Edit(Span(ctx.file, m.start(), m.end()), close),), Applicability.UNSAFE)
                yield self.diagnostic(Span(ctx.file, m.start(), m.end()), f"unknown {kind} '{name}'{hint}", fix=fix)


def _prefix(name: str) -> str:
    return next((p for p in STRICT_PREFIXES if name.startswith(p)), "")


def _closest(name: str, known: list[str]) -> str | None:
    """The nearest known name of the same prefix, when difflib finds one close enough."""
    hint = _did_you_mean(name, [k for k in known if _prefix(k) == _prefix(name)])
    found = re.search(r"'([^']+)'", hint)
    return found.group(1) if found else None


def _misspelling_of(name: str, known: list[str]) -> str | None:
    """The known name of the same prefix that `name` is at most two edits from (a swap of
    neighbours counts as one), or None: a typo keeps the prefix and most letters."""
    best: tuple[int, str] | None = None
    for candidate in known:
        if _prefix(candidate) != _prefix(name) or abs(len(candidate) - len(name)) > 2:
            continue
        d = _edit_distance(name, candidate)
        if d <= 2 and (best is None or d < best[0]):
            best = (d, candidate)
    return best[1] if best else None


def _edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (insertions, deletions, substitutions, swaps)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


class GuardNeverTrue(_GatingRule):
    """## What it does
    In target mode, or in portability mode at a version (`--std S` alone), reports an `#if`,
    `#ifdef` or `#elif` on feature or extension macros that no device of that OpenCL C
    version can make true, in code that is
    compiled: `#ifdef __opencl_c_fp64` under OpenCL C 1.2 (feature macros only exist from
    OpenCL C 2.0 on; 1.2 devices define `cl_khr_fp64`), `#ifdef __opencl_c_subgroups` under
    2.0. Guards that are false only because this target lacks an optional feature are the
    normal way to write portable code and are not reported, nor are conditions whose own
    version test rules the target's version out (`#if __OPENCL_C_VERSION__ >= 200 &&
    defined(__opencl_c_generic_address_space)` on 1.2): those arms are meant for other versions.

    ## Why is this bad?
    The guarded code is dead for every device of that version, which is rarely what the
    author meant: a kernel guarded only by `__opencl_c_fp64` silently loses its
    double-precision path on every OpenCL 1.2 device, even those with `cl_khr_fp64`.

    ## Example
    ```c
    // cllint check --target CL1.2
    #ifdef __opencl_c_fp64
    ```

    ## Use instead
    ```c
    #if defined(__opencl_c_fp64) || defined(cl_khr_fp64)
    ```

    ## OpenCL spec
    Section 6.2.1, "Features" ("feature macros ... are defined for OpenCL C 3.0 or newer"),
    and "Preprocessor Directives and Macros".
    """

    code = "CL306"
    name = "guard-never-true"
    severity = Severity.INFO
    spec_section = "features"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        if not _version_mode(ctx):
            return
        view = preprocessor_view(ctx)
        if view is None:
            return
        fixed, optional = _macro_facts(ctx.target)
        # Every feature and extension macro free: what is never true then is so by the
        # version (`__OPENCL_C_VERSION__ >= 200 && ...` on 1.2), as its author wrote it.
        version_only = frozenset(set(FEATURES) | set(EXTENSIONS) | optional)
        version_fixed = {n: v for n, v in fixed.items() if n not in version_only}
        by_start = {d.start: d for d in view.directives}
        seen: set[int] = set()
        for _, _, branch in view.regions:
            if id(branch) in seen or branch.active is not False or branch.parent is None:
                continue
            seen.add(id(branch))
            d = by_start.get(branch.start)
            if d is None or d.kind == "else" or branch.parent.active is not True or branch.file != ctx.file:
                continue
            names = [n.decode() for n in _NAME.findall((d.name or d.args).encode())]
            if not names or not all(n in FEATURES or n in EXTENSIONS for n in names):
                continue
            if not _never_true(branch.own, fixed, optional):
                continue
            if _never_true(branch.own, version_fixed, version_only):
                continue  # its own version test rules this version out: a switch, dead by design
            yield self.diagnostic(
                Span(ctx.file, d.start, d.end),
                f"condition '{_condition_text(d)}' is never true for OpenCL C {ctx.target.version} "
                f"(target '{ctx.target.describe()}')",
                tags=(Tag.UNNECESSARY,),
            )


def _condition_text(d) -> str:
    """The condition as the directive states it: `#ifndef X` is '!defined(X)'."""
    if d.kind in ("ifdef", "elifdef"):
        return f"defined({d.name})"
    if d.kind in ("ifndef", "elifndef"):
        return f"!defined({d.name})"
    return d.args


class PragmaEnablesMissingExtension(_GatingRule):
    """## What it does
    In target mode, reports `#pragma OPENCL EXTENSION name : enable` for an extension the
    target does not provide, unless a guard on that extension surrounds the pragma.

    ## Why is this bad?
    The compiler warns that the extension is unsupported and ignores the pragma; the code
    that relies on it then fails to build.

    ## Example
    ```c
    // cllint check --target CL3.0
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    ```

    ## Use instead
    ```c
    #ifdef cl_khr_fp64
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    #endif
    ```

    ## OpenCL spec
    Section 6.2.2, "Extensions" ("#pragma OPENCL EXTENSION").
    """

    code = "CL307"
    name = "pragma-enables-missing-extension"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    spec_section = "extensions"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        if not is_target_mode(ctx):
            return
        view = preprocessor_view(ctx)
        if view is None:
            return
        for p in view.pragmas:
            if p.behavior == "disable" or p.name == "all" or p.branch.active is False or p.span.file != ctx.file:
                continue
            if p.name not in EXTENSIONS and p.name not in FEATURES:
                continue  # CL305 or a vendor extension
            if ctx.target.has(p.name) or view.guard_implies(p.span.start, p.name) or \
                    asserted(view, p.span.start, {p.name}):
                continue
            ls, le, _ = _line_bounds(ctx.source, p.span.start, p.span.end)
            fix = Fix(f"Wrap in '#ifdef {p.name}'",
                      (Edit(Span(ctx.file, ls, ls), f"#ifdef {p.name}\n"), Edit(Span(ctx.file, le, le), "\n#endif")),
                      Applicability.SAFE)
            yield self.diagnostic(
                p.span, f"pragma enables extension '{p.name}', which target '{ctx.target.describe()}' does not provide",
                fix=fix,
            )


def _exact_in_float(text: str) -> bool:
    import struct  # (a double literal's check only: ~1M instructions to import)

    try:
        value = float(text.rstrip("lL"))
        return struct.unpack("f", struct.pack("f", value))[0] == value
    except (ValueError, OverflowError):
        return False


_FLOAT_LITERAL = lazy(r"^(?:\d+\.\d*|\.\d+|\d+(?:\.\d*)?[eE][+-]?\d+|\.\d+[eE][+-]?\d+"
                            r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+)$")


class DoubleLiteral(_GatingRule):
    """## What it does
    In target mode, when the target has no fp64 (`cl_khr_fp64`, `__opencl_c_fp64`), reports
    every unsuffixed floating literal such as `1.0`, `.5`, `0.5e-3` or `0x1p3` in code the
    target compiles, as clang-19 does ("double precision constant requires cl_khr_fp64,
    casting to single precision"): a warning, on by default.

    Elsewhere (portability mode, or a target with fp64) a preview hint, opt in with
    `--preview` or by naming CL308: an unsuffixed literal in code that no fp64 guard covers
    and that declares no `double` has type `double`. A literal whose value goes into a
    `double` anyway is meant as one and not reported there: assigned to a `double` lvalue
    (`d[i] = 0.5` with `global double *d`), or in arithmetic with a `double` operand.
    The fix adds `f`; it is safe when the value is exact in `float`.

    ## Why is this bad?
    On a device without fp64 clang gives the literal type `float` with a warning, which the
    spec does not promise: the same source means two different computations on two devices.
    On a device with fp64, `x * 0.5` computes in double precision (slow on most GPUs) and
    converts back.

    ## Example
    ```c
    y[i] = x[i] * 0.5;
    ```

    ## Use instead
    ```c
    y[i] = x[i] * 0.5f;
    ```

    ## OpenCL spec
    Section 6.1.1, "Built-in Scalar Data Types" (`double` needs fp64), and C99 6.4.4.2
    (an unsuffixed floating constant has type `double`).
    """

    code = "CL308"
    name = "double-literal"
    severity = Severity.WARNING  # target mode without fp64; the preview half is information
    fix_availability = FixAvailability.ALWAYS
    spec_section = "built-in-scalar-data-types"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        view = preprocessor_view(ctx)
        fp64 = (("__opencl_c_fp64",), ("cl_khr_fp64",))
        target_mode = is_target_mode(ctx)
        if target_mode and not ctx.target.satisfies(None, fp64):
            yield from self._without_fp64(ctx, view, fp64)  # clang-19's warning: on by default
            return
        if not (ctx.options.get("preview") or self.code in ctx.options.get("named", ())):
            return  # the rest is a preview rule (issue 30)
        # The literals the gating walk met with a '.', 'e' or 'E' (no other can match
        # _FLOAT_LITERAL). Outside the focus, an incremental run takes the results from its cache.
        uses, literals = _collected(ctx)
        double_items = {u.item for u in uses if u.name.startswith("double")}
        if literals is None:
            literals = [Literal(n.start_byte, n.end_byte, n)
                        for n in nodes_of_kinds(ctx.tree.root_node, _NUMBER_LITERAL, ranges=ctx.focus)]
        for lit in literals:
            text = ctx.source[lit.start : lit.end].decode("utf-8", "replace")
            if not _FLOAT_LITERAL.match(text):
                continue
            if dead_code(view, lit.start) or is_guarded(view, lit.start, fp64):
                continue
            if target_mode and view is not None and view.active_at(lit.start) is False:
                continue
            if double_items and lit.item in double_items:
                continue
            if _meant_as_double(ctx, lit.start):
                continue
            safe = _exact_in_float(text)
            yield self.diagnostic(
                Span(ctx.file, lit.start, lit.end),
                f"floating literal '{text}' has type 'double'; use '{text}f'",
                severity=Severity.INFO,
                fix=Fix(f"Add the 'f' suffix: '{text}f'", (Edit(Span(ctx.file, lit.end, lit.end), "f"),),
                        Applicability.SAFE if safe else Applicability.UNSAFE),
            )


    def _without_fp64(self, ctx: RuleContext, view, fp64) -> Iterator[Diagnostic]:  # noqa: ANN001
        """Each double literal the target compiles: clang-19 casts it to float and warns."""
        literals = _collected(ctx)[1]
        if literals is None:
            literals = [Literal(n.start_byte, n.end_byte, n)
                        for n in nodes_of_kinds(ctx.tree.root_node, _NUMBER_LITERAL, ranges=ctx.focus)]
        needs = "cl_khr_fp64 and __opencl_c_fp64" if ctx.target.version >= V3_0 else "cl_khr_fp64"
        where = f"which target '{ctx.target.describe()}' does not provide: it is cast to single precision"

        def compiled(offset: int) -> bool:
            return not (dead_code(view, offset) or is_guarded(view, offset, fp64)
                        or (view is not None and view.active_at(offset) is False))

        for lit in literals:
            # The grammar folds a sign into the literal (`-2.0`): the constant is what follows it.
            text = ctx.source[lit.start : lit.end].decode("utf-8", "replace").lstrip("+-")
            if not _FLOAT_LITERAL.match(text) or not compiled(lit.start):
                continue
            yield self.diagnostic(
                Span(ctx.file, lit.start, lit.end),
                f"double precision constant '{text}' requires {needs}, {where}; write '{text}f'",
                fix=Fix(f"Add the 'f' suffix: '{text}f'", (Edit(Span(ctx.file, lit.end, lit.end), "f"),),
                        Applicability.SAFE if _exact_in_float(text) else Applicability.UNSAFE),
            )
        # Spelled through a macro: clang reports it where the macro is used (no fix here).
        from cllint.analysis.gating.macro_literals import macro_literals  # (a target without doubles only)

        for m in macro_literals(ctx.tree, ctx.source, view, lambda t: bool(_FLOAT_LITERAL.match(t)), ctx.focus):
            if compiled(m.start):
                yield self.diagnostic(
                    Span(ctx.file, m.start, m.end),
                    f"double precision constant '{m.literal}' (from macro '{m.macro}') requires {needs}, {where}",
                )


_NUMBER_LITERAL = frozenset({"number_literal"})
_CLIMB = frozenset({"parenthesized_expression", "unary_expression", "conditional_expression"})
_ARITHMETIC = frozenset({"+", "-", "*", "/"})


def _is_double(t) -> bool:
    elem = getattr(t, "elem", t)  # double4 counts with double
    return getattr(elem, "name", None) == "double"


def _meant_as_double(ctx: RuleContext, offset: int) -> bool:
    """The literal's value goes into a `double` anyway (C99 6.5.16.1, 6.3.1.8): it is
    assigned to a `double` lvalue (`d[i] = 0.5`, `x += 0.5 * y`), or an operand of the
    arithmetic it stands in is `double` already (`a * 1e-3` with `double a`)."""
    node = ctx.tree.root_node.descendant_for_byte_range(offset, offset)
    if node is None:
        return False
    model = model_for(ctx)
    while node.parent is not None:
        parent = node.parent
        if parent.type in _CLIMB:
            node = parent
            continue
        if parent.type == "binary_expression":
            op = parent.child_by_field_name("operator")
            if op is None or ctx.text(op) not in _ARITHMETIC:
                return False
            other = parent.child_by_field_name("right" if parent.child_by_field_name("left") == node else "left")
            if other is not None and _is_double(model.type_of(other)):
                return True
            node = parent
            continue
        if parent.type == "assignment_expression" and parent.child_by_field_name("right") == node:
            left = parent.child_by_field_name("left")
            return left is not None and _is_double(model.type_of(left))
        return False
    return False


class ExtensionNotEnabled(_GatingRule):
    """## What it does
    Reports a scalar `half` value (a variable or array, a parameter, a return value, a cast
    to `half`) or a `1.0h` literal where no `#pragma OPENCL EXTENSION cl_khr_fp16 : enable`
    is in effect, once per statement. Pointers to `half`, `sizeof(half)`, struct fields,
    typedefs and vector types such as `half4` need no pragma (clang-19 accepts them). The
    fix, on the first report of each top-level declaration, inserts the pragma before it.

    ## Why is this bad?
    `cl_khr_fp16` is one of the extensions that must be enabled before use; clang rejects
    `half h;` ("declaring variable of type 'half' is not allowed") even when the device
    supports the extension.

    ## Example
    ```c
    kernel void k(global half *o) { half h = 1.0h; vstore_half(h, 0, o); }
    ```

    ## Use instead
    ```c
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void k(global half *o) { half h = 1.0h; vstore_half(h, 0, o); }
    ```

    ## OpenCL spec
    Section 6.2.2, "Extensions" ("#pragma OPENCL EXTENSION"), and the `cl_khr_fp16`
    section of the OpenCL extension specification. The spec of OpenCL C 1.x also asks for the
    pragma for `cl_khr_fp64`; clang-19 does not, and this rule does not check it.
    """

    code = "CL309"
    name = "extension-not-enabled"
    severity = Severity.WARNING
    fix_availability = FixAvailability.ALWAYS
    spec_section = "extensions"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        target_mode = is_target_mode(ctx)
        if target_mode and not ctx.target.has("cl_khr_fp16"):
            return  # CL302 reports the missing extension
        view = preprocessor_view(ctx)
        uses = _compiled_uses(ctx) if _version_mode(ctx) else iter(_uses(ctx))
        seen: set[int] = set()
        reported: set[object] = set()
        for use in uses:
            if use.requires != (("cl_khr_fp16",),) or not _needs_fp16_pragma(use):
                continue
            from cllint.analysis.gating.pragma_scope import enabled_where_compiled  # (half uses only)

            if view is not None and (enabled_where_compiled(view, use.start, "cl_khr_fp16")
                                     or dead_code(view, use.start)):
                continue
            key = use.item or (use.start, use.end)
            if key in reported:
                continue
            reported.add(key)
            top = _top_level_start(ctx, use.start)
            fix = None
            if top not in seen:  # one pragma per declaration: the same insertion twice would repeat it
                seen.add(top)
                fix = Fix("Add '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'",
                          (Edit(Span(ctx.file, top, top), "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"),),
                          Applicability.SAFE)
            yield self.diagnostic(Span(ctx.file, use.start, use.end),
                                  f"use of '{use.name}' needs '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'",
                                  fix=fix)


def _needs_fp16_pragma(use: Use) -> bool:
    """A scalar `half` value (variable, array, parameter, return value, cast), a load or store
    through a pointer to half, or a `1.0h` literal: clang-19 rejects each without the pragma.
    Vector types (`half4`) are typedefs the header declares when the extension exists, and
    need no pragma."""
    return use.kind in ("literal", "load", "store") or (use.kind == "type" and use.name == "half")


def _top_level_start(ctx: RuleContext, offset: int) -> int:
    """Start of the line where the top-level declaration holding `offset` begins: the
    outermost node that is not a directive block (`#ifdef` ... `#endif` around functions)
    or another container of analysis/toplevel.py, so the function or declaration itself,
    as the incremental driver delimits it (a pragma inside the block is in effect in
    every arm the declaration is compiled in). The fix then depends on that declaration
    and the line it starts on only, not on other declarations in the same block."""
    node = ctx.tree.root_node.descendant_for_byte_range(offset, offset)
    chain = []
    while node is not None and node.parent is not None:
        chain.append(node)
        node = node.parent
    top = next((n for n in reversed(chain) if n.type not in CONTAINERS), chain[0] if chain else None)
    start = top.start_byte if top is not None else 0
    return ctx.source.rfind(b"\n", 0, start) + 1


RULES = [
    UnguardedOptionalFeature,
    FeatureUnavailableOnTarget,
    NewerThanTarget,
    DeprecatedBuiltin,
    UnknownFeatureMacro,
    GuardNeverTrue,
    PragmaEnablesMissingExtension,
    DoubleLiteral,
    ExtensionNotEnabled,
]


def _what(use: Use) -> str:
    if use.kind == "variable":
        return f"program-scope variable '{use.name}'"
    if use.kind == "static variable":
        return f"static local variable '{use.name}'"
    if use.kind == "conversion":
        return f"conversion of '{use.name}'{use.detail}"
    return f"use of '{use.name}'{use.detail}"
