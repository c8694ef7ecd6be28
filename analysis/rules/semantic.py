"""CL010-CL049: compiler-grade semantic errors (names, calls, vectors, redefinitions, returns,
const, kinds of value), one analysis per context (`analysis/semantic`) shared by the rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules._findings import cached, diagnostics
from cllint.analysis.rules._model import model_for
from cllint.analysis.rules.base import FixAvailability, Rule, RuleContext
from cllint.analysis.semantic import findings


class _Semantic(Rule):
    severity: ClassVar[Severity] = Severity.ERROR
    local: ClassVar[bool] = True  # each body against the file's declarations (analysis/semantic)

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        found = cached(ctx, "_semantic_findings",
                       lambda: findings(model_for(ctx), ctx.preprocessor, ctx.in_focus, ctx.focus))
        yield from diagnostics(self, ctx, found)


class MacroArgumentCount(_Semantic):
    """## What it does
    Reports a function-like macro invoked with more or fewer arguments than its `#define`
    names (a variadic macro with fewer than its named ones). Arguments are counted as the
    preprocessor counts them: commas outside parentheses, strings and comments, before
    expansion. Macros whose definitions differ between `#if` arms are left alone.

    ## Why is this bad?
    The compiler rejects the invocation, and then usually reports the macro's name as an
    undeclared identifier too. Often a macro gained a parameter (a row pitch, a width) and
    one use was not updated.

    ## Example
    ```c
    #define IDX2(x, y, w) ((y) * (w) + (x))
    kernel void k(global float *img, int w) { img[IDX2(get_global_id(0), get_global_id(1))] = 0.0f; }
    ```

    ## Use instead
    ```c
    #define IDX2(x, y, w) ((y) * (w) + (x))
    kernel void k(global float *img, int w) { img[IDX2(get_global_id(0), get_global_id(1), w)] = 0.0f; }
    ```

    ## OpenCL spec
    Section 6.10, "Preprocessor Directives and Macros" (C99 6.10.3: the number of arguments
    in an invocation of a function-like macro agrees with its parameters).
    """

    code = "CL005"
    name = "macro-argument-count"
    spec_section = "preprocessor-directives-and-macros"


class UndeclaredIdentifier(_Semantic):
    """## What it does
    Reports a name used in an expression that nothing in scope declares, and suggests the
    closest name in scope when one is near ("did you mean").

    ## Why is this bad?
    The compiler rejects the kernel. Most often it is a typo (`gdi` for `gid`) or a variable
    used outside the block that declares it (a `for` loop's counter after the loop). Names a
    macro or a function-like macro's arguments could declare are left alone. Headers the
    include paths find are read (every arm, nested includes too): what they declare counts as
    declared and may be suggested; while any `#include` of the file cannot be read (missing,
    computed), undeclared names in it are left alone.

    ## Example
    ```c
    kernel void k(global float *a) {
        int gid = get_global_id(0);
        a[gdi] = 1.0f;
    }
    ```

    ## Use instead
    ```c
    kernel void k(global float *a) {
        int gid = get_global_id(0);
        a[gid] = 1.0f;
    }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language": OpenCL C is C99, where every identifier
    must be declared before use (C99 6.5.1).
    """

    code = "CL010"
    name = "undeclared-identifier"
    spec_section = "the-opencl-c-programming-language"


class UnknownTypeName(_Semantic):
    """## What it does
    Reports a word in a type's place (a declaration, a parameter, a cast, `sizeof`, a struct
    member) that no typedef in scope, built-in type, macro or readable header declares, when it
    is a near miss of a typedef or built-in type (named as "did you mean") and the file uses it
    at most twice.

    ## Why is this bad?
    The compiler rejects it. Most often a typedef is misspelt (`ToneParam` for `ToneParams`)
    or a vector type is (`flaot4`). A name used as a type throughout a file, or near no
    declared type, is taken to come from the host (`-Dreal=float`, a header the host prepends)
    and left alone, as are names spelled like a `-D` macro (all capitals), struct tags, vendor
    names, a variable read as a type (`a*b;`) and files with an include cllint cannot read.

    ## Example
    ```c
    kernel void k(global float4 *o) { flaot4 v = o[0]; o[1] = v; }
    ```

    ## Use instead
    ```c
    kernel void k(global float4 *o) { float4 v = o[0]; o[1] = v; }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (C99 6.7.2, type specifiers: a typedef
    name must be declared) and 6.3, "Supported Data Types".
    """

    code = "CL025"
    name = "unknown-type-name"
    spec_section = "the-opencl-c-programming-language"


class UndeclaredFunction(_Semantic):
    """## What it does
    Reports a call to a function that the file does not declare and that is not an OpenCL C
    built-in, and suggests the closest function or built-in name when one is near. The FPGA
    vendors' built-ins count as built-ins: Intel's channel calls (`read_channel_intel`,
    `write_channel_nb_intel`, the `_altera` spellings) and Xilinx's `read_pipe_block` and
    `write_pipe_block`.

    ## Why is this bad?
    C99 has no implicit function declarations and OpenCL C compilers reject the call. Usually
    the helper is defined below its first use without a prototype, or a built-in's name is
    misspelled (`get_global_idx`).

    ## Example
    ```c
    kernel void k(global float *a) { a[0] = sqr(a[0]); }
    ```

    ## Use instead
    ```c
    float sqr(float x) { return x * x; }
    kernel void k(global float *a) { a[0] = sqr(a[0]); }
    ```

    ## OpenCL spec
    Section 6.15, "Built-in Functions", lists every built-in; C99 6.5.2.2 requires a
    declaration before a call.
    """

    code = "CL011"
    name = "undeclared-function"
    spec_section = "built-in-functions"


class HostDefinedMacro(_Semantic):
    """## What it does
    Reports, once per name in each file, an undeclared name spelled like a macro
    (`BLOCK_SIZE`, `TILE_W`) that no near name explains: most likely a macro the host passes
    with `-D` when it builds the program.

    ## Why is this bad?
    It is not a mistake when the host defines it, but cllint (and a compiler run without the
    same options) cannot see the value. Tell cllint about it with `define = ["BLOCK_SIZE=16"]`
    in the configuration or `-D BLOCK_SIZE=16` on the command line; the report then goes away
    and the other checks can read the code that uses it. In the editor, the quick fix "Define
    'BLOCK_SIZE' for the project" adds the name to `define` in the nearest `.cllint.toml` (or
    `[tool.cllint]` of `pyproject.toml`), creating `.cllint.toml` where there is none; set the
    value the host passes there.

    ## Example
    ```c
    kernel void k(global float *a) { local float tile[BLOCK_SIZE]; a[0] = BLOCK_SIZE; }
    ```

    ## Use instead
    ```toml
    [tool.cllint]
    define = ["BLOCK_SIZE=16"]
    ```

    ## OpenCL spec
    Section 6.10, "Preprocessor Directives and Macros"; `clBuildProgram`'s `-D` option.
    """

    code = "CL012"
    name = "host-defined-macro"
    severity = Severity.WARNING
    spec_section = "preprocessor-directives-and-macros"


class WrongArgumentCount(_Semantic):
    """## What it does
    Reports a call to one of the file's functions, or of the headers it includes, with more or
    fewer arguments than its declaration has parameters.

    ## Why is this bad?
    The compiler rejects the call. Functions declared differently in `#if` arms, variadic
    or `overloadable` ones, parameter lists a macro may widen, and calls whose arguments hold
    a macro (which may expand to several) are left alone.

    ## Example
    ```c
    float scale(float x, float s) { return x * s; }
    kernel void k(global float *a) { a[0] = scale(a[0]); }
    ```

    ## Use instead
    ```c
    float scale(float x, float s) { return x * s; }
    kernel void k(global float *a) { a[0] = scale(a[0], 2.0f); }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (C99 6.5.2.2, function calls).
    """

    code = "CL013"
    name = "wrong-argument-count"
    spec_section = "the-opencl-c-programming-language"


class NoMatchingBuiltinOverload(_Semantic):
    """## What it does
    Reports a built-in function call that no overload in the built-in catalogue accepts: the
    wrong number of arguments, or arguments whose types no overload takes (a pointer where a
    vector is expected), or that several overloads accept equally well, none taking the
    argument's type exactly (`abs(x)` with `float x`: every integer overload takes a float by
    the same conversion; use `fabs`, or cast). A tie that exists only where `double` or `half`
    overloads do (`sqrt(n)` with `int n`) or on `size_t` arguments depends on the device and is
    left to the compiler. The candidates are listed as notes, as clang does.

    ## Why is this bad?
    The compiler rejects the call. Argument types are judged only when each is certain (no
    macro, no unknown name); otherwise the call is left alone.

    ## Example
    ```c
    kernel void k(global float *a) { a[1] = fmax(a[0]); }
    ```

    ## Use instead
    ```c
    kernel void k(global float *a) { a[1] = fmax(a[0], 0.0f); }
    ```

    ## OpenCL spec
    Section 6.15, "Built-in Functions", gives every built-in's overloads.
    """

    code = "CL014"
    name = "no-matching-builtin-overload"
    spec_section = "built-in-functions"


class VectorLiteralSize(_Semantic):
    """## What it does
    Reports a vector literal whose components do not add up to the vector's width:
    `(float4)(1.0f, 2.0f, 3.0f)` has three.

    ## Why is this bad?
    The compiler rejects it. A vector literal takes either one scalar (copied into every
    component) or exactly as many components as the vector has, counting a vector argument
    as its width.

    ## Example
    ```c
    kernel void k(global float4 *a) { a[0] = (float4)(1.0f, 2.0f, 3.0f); }
    ```

    ## Use instead
    ```c
    kernel void k(global float4 *a) { a[0] = (float4)(1.0f, 2.0f, 3.0f, 0.0f); }
    ```

    ## OpenCL spec
    Section 6.3.6, "Vector Literals".
    """

    code = "CL015"
    name = "vector-literal-size"
    spec_section = "vector-literals"


class SwizzleOutOfRange(_Semantic):
    """## What it does
    Reports a vector component access beyond the vector's width: `.z` of a `float2`, `.s7`
    of an `int4`, `.w` of a `float3`.

    ## Why is this bad?
    The compiler rejects it; the component does not exist.

    ## Example
    ```c
    kernel void k(global float2 *a, global float *b) { b[0] = a[0].z; }
    ```

    ## Use instead
    ```c
    kernel void k(global float2 *a, global float *b) { b[0] = a[0].y; }
    ```

    ## OpenCL spec
    Section 6.3.7, "Vector Components".
    """

    code = "CL016"
    name = "swizzle-out-of-range"
    spec_section = "vector-components"


class UnknownMember(_Semantic):
    """## What it does
    Reports a member access naming a member the struct or union does not declare, with the
    closest member's name when one is near.

    ## Why is this bad?
    The compiler rejects it. Structs whose declaration the file does not show completely are
    left alone; those of the headers it includes are read when every include resolves, except
    where an `#if` arm, a macro or a second declaration leaves them in doubt.

    ## Example
    ```c
    typedef struct { int width; int height; } dims;
    kernel void k(dims d, global int *o) { o[0] = d.heigth; }
    ```

    ## Use instead
    ```c
    typedef struct { int width; int height; } dims;
    kernel void k(dims d, global int *o) { o[0] = d.height; }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (C99 6.5.2.3, structure and union members).
    """

    code = "CL017"
    name = "unknown-member"
    spec_section = "the-opencl-c-programming-language"


class MemberAccessOperator(_Semantic):
    """## What it does
    Reports `.` on a pointer to a struct or union and `->` on a struct or union that is not a
    pointer, and offers the other operator.

    ## Why is this bad?
    The compiler rejects it. It happens when a parameter changes from a value to a pointer
    (`constant params_t *p`) or back, and some uses keep the old operator.

    ## Example
    ```c
    typedef struct { int w; int h; } dims;
    kernel void k(global int *o, constant dims *d) { o[0] = d.w; }
    ```

    ## Use instead
    ```c
    typedef struct { int w; int h; } dims;
    kernel void k(global int *o, constant dims *d) { o[0] = d->w; }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (C99 6.5.2.3, structure and union members:
    the left operand of `.` is a structure or union, that of `->` a pointer to one).
    """

    code = "CL024"
    name = "member-access-operator"
    fix_availability = FixAvailability.ALWAYS
    spec_section = "the-opencl-c-programming-language"


class Redefinition(_Semantic):
    """## What it does
    Reports a second definition of a name in the same scope: two locals of one name in one
    block, a local named like a parameter in the function's outermost block, or two bodies
    for one function. Definitions in different arms of an `#if` are not compared.

    ## Why is this bad?
    The compiler rejects it. Usually the second was meant to be an assignment, or a new name.

    ## Example
    ```c
    kernel void k(global int *a) { int i = get_global_id(0); int i = 0; a[i] = 1; }
    ```

    ## Use instead
    ```c
    kernel void k(global int *a) { int i = get_global_id(0); i = 0; a[i] = 1; }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (C99 6.7, declarations).
    """

    code = "CL018"
    name = "redefinition"
    spec_section = "the-opencl-c-programming-language"


class ReturnValueMismatch(_Semantic):
    """## What it does
    Reports `return value;` in a `void` function (kernels included) and a bare `return;` in a
    function that returns a value.

    ## Why is this bad?
    clang rejects both in OpenCL C. A kernel cannot return a result: write it to a buffer.

    ## Example
    ```c
    kernel void k(global float *o) { o[0] = 1.0f; return 0; }
    ```

    ## Use instead
    ```c
    kernel void k(global float *o) { o[0] = 1.0f; return; }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (C99 6.8.6.4, the return statement).
    """

    code = "CL019"
    name = "return-value-mismatch"
    spec_section = "the-opencl-c-programming-language"


class MissingReturn(_Semantic):
    """## What it does
    Reports a function returning a value whose end can be reached without a `return`.

    ## Why is this bad?
    The caller reads an undefined value. Compilers warn (clang: `-Wreturn-type`). Reported only
    where the end is certainly reachable: a macro, a `switch`, a label or an `#if` in the
    body leaves the function alone.

    ## Example
    ```c
    int sign_of(int x) { if (x > 0) return 1; if (x < 0) return -1; }
    ```

    ## Use instead
    ```c
    int sign_of(int x) { if (x > 0) return 1; if (x < 0) return -1; return 0; }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (C99 6.9.1p12).
    """

    code = "CL020"
    name = "missing-return"
    severity = Severity.WARNING
    spec_section = "the-opencl-c-programming-language"


class AssignToConst(_Semantic):
    """## What it does
    Reports a write (`=`, `+=`, `++`...) to a `const` variable or through a pointer to
    `const` (writes to `__constant` are CL112's).

    ## Why is this bad?
    The compiler rejects it. Drop `const` from the declaration, or write to another object.

    ## Example
    ```c
    kernel void k(global const float *a) { a[0] = 1.0f; }
    ```

    ## Use instead
    ```c
    kernel void k(global float *a) { a[0] = 1.0f; }
    ```

    ## OpenCL spec
    Section 6.5.3, "Assignment Operator" (`operators-assignment`); C99 6.5.16 requires a
    modifiable lvalue.
    """

    code = "CL021"
    name = "assign-to-const"
    spec_section = "operators-assignment"


class IncompatibleConversion(_Semantic):
    """## What it does
    Reports a value of an incompatible kind in an initialisation, assignment, argument or
    `return`: a pointer where an integer is expected or the reverse, a vector of another
    element type or width, a vector where a scalar is expected; and an explicit cast from a
    vector to another vector type (`(float4)(v.xyz)`, `(int4)f`). Both types must be certain.

    ## Why is this bad?
    The compiler rejects it: OpenCL C never converts between vector types, implicitly or by a
    cast (use `convert_T`, `as_T`, a swizzle or a vector literal with every component), and
    clang treats pointer/integer conversions as errors.

    ## Example
    ```c
    kernel void k(global float4 *a, global int4 *b) { int4 v = a[0]; b[0] = v; }
    ```

    ## Use instead
    ```c
    kernel void k(global float4 *a, global int4 *b) { int4 v = convert_int4(a[0]); b[0] = v; }
    ```

    ## OpenCL spec
    Section 6.4.1, "Implicit Conversions", and 6.4.2, "Explicit Casts" (no casts between
    vector types).
    """

    code = "CL022"
    name = "incompatible-conversion"
    spec_section = "implicit-conversions"


class InvalidOperand(_Semantic):
    """## What it does
    Reports an operand an operator cannot take: `sizeof` applied to `void`, and
    arithmetic, bitwise or comparison operators applied to an image, sampler, event or
    queue, whose values are handles with nothing to compute on. The type must be certain.

    ## Why is this bad?
    The compiler rejects it. An image or sampler is only passed to built-ins
    (`read_imagef`, `get_image_width`); what was meant is usually one of those.

    ## Example
    ```c
    kernel void k(global int *o, read_only image2d_t img) { o[0] = img + 1; }
    ```

    ## Use instead
    ```c
    kernel void k(global int *o, read_only image2d_t img) { o[0] = get_image_width(img) + 1; }
    ```

    ## OpenCL spec
    Section 6.3.3, "Other Built-in Data Types" (images, samplers, events), and C99
    6.5.3.4 for `sizeof`.
    """

    code = "CL023"
    name = "invalid-operand"
    spec_section = "other-built-in-data-types"


RULES = [MacroArgumentCount, UndeclaredIdentifier, UndeclaredFunction, UnknownTypeName, HostDefinedMacro, WrongArgumentCount, NoMatchingBuiltinOverload,
         VectorLiteralSize, SwizzleOutOfRange, UnknownMember, MemberAccessOperator, Redefinition, ReturnValueMismatch, MissingReturn,
         AssignToConst, IncompatibleConversion, InvalidOperand]
