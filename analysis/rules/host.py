"""CL6xx: host-kernel interface checks for pyopencl programs.

The checks read the Python host file, not a kernel, so they live in
analysis/embedded/host_checks.py and run from `lint_host`; these classes register the
codes so that selection, suppression by code and the docs work as for every rule.
"""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules.base import FixAvailability, Rule, RuleContext


class _HostRule(Rule):
    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return iter(())


class KernelArgumentCount(_HostRule):
    """## What it does
    Checks the number of kernel arguments at a pyopencl kernel call, `prg.name(queue,
    global_size, local_size, *args)` or `knl(queue, ...)` with `knl = prg.name`, against the
    parameters of the kernel the program's source defines. It reports only where the
    program is built from a string literal in the same file and bound to a name once.
    Up to four positional values after the kernel's arguments are pyopencl's launch options
    (`global_offset`, `g_times_l`, `allow_empty_ndrange`, `wait_for`), so "too many" means
    more than that.

    ## Why is this bad?
    pyopencl raises at the call (`Kernel.__call__ expected N arguments, got M`, or
    `clEnqueueNDRangeKernel failed: INVALID_KERNEL_ARGS` when an argument is left unset),
    only when that line runs.

    ## Example
    ```python
    prg = cl.Program(ctx, "__kernel void add(__global float *a, float s) { }").build()
    prg.add(queue, (n,), None, a_buf)
    ```

    ## Use instead
    ```python
    prg.add(queue, (n,), None, a_buf, np.float32(2))
    ```

    ## OpenCL spec
    OpenCL 3.0 API, section 5.9.2 "Setting Kernel Arguments" (`clSetKernelArg`) and 5.10
    `clEnqueueNDRangeKernel` (`CL_INVALID_KERNEL_ARGS`).
    """

    code = "CL601"
    name = "kernel-argument-count"
    severity = Severity.ERROR


class UnknownKernelName(_HostRule):
    """## What it does
    Reports `prg.name(queue, ...)` where the program, built from a string literal in the
    same file, defines no kernel called `name`. Only programs whose kernels are all visible
    (no `#include`, `#if` or function-like macros) are checked.

    ## Why is this bad?
    pyopencl looks the kernel up when the attribute is read and raises
    (`clCreateKernel failed: INVALID_KERNEL_NAME`).

    ## Example
    ```python
    prg = cl.Program(ctx, "__kernel void add(__global float *a) { }").build()
    prg.ad(queue, (n,), None, a_buf)
    ```

    ## Use instead
    ```python
    prg.add(queue, (n,), None, a_buf)
    ```

    ## OpenCL spec
    OpenCL 3.0 API, section 5.9.1 "Creating Kernel Objects" (`CL_INVALID_KERNEL_NAME`).
    """

    code = "CL602"
    name = "unknown-kernel-name"
    severity = Severity.ERROR


class ScalarArgumentType(_HostRule):
    """## What it does
    Reports a Python number, `None` or a numpy scalar of the wrong width passed to a scalar
    kernel parameter at a pyopencl kernel call, where the source spells the value.

    The values: a Python `int`, `float` or `bool` (a literal, or a name bound once to one),
    `None`, or a numpy scalar (`np.float64(x)`) whose width is not the parameter's (`double`
    8 bytes, `float` and `int` 4, `short` and `half` 2, `char` 1, vectors their element
    times 1, 2, 4, 8 or 16, 3 counting as 4). Kernels given
    `set_scalar_arg_dtypes` anywhere in the file are not checked: pyopencl then converts.
    A numpy scalar of the right width but another kind (`np.int32` for `float`) is not
    reported: pyopencl passes its bytes without a word.

    ## Why is this bad?
    pyopencl hands the value's bytes to `clSetKernelArg`. A Python number has no size it
    could hand over: the call raises `Kernel.set_arg failed: INVALID_VALUE`. A numpy scalar
    of another width raises `clSetKernelArg failed: INVALID_ARG_SIZE`, as does `None`.

    ## Example
    ```python
    prg = cl.Program(ctx, "__kernel void scale(__global float *a, float s) { }").build()
    prg.scale(queue, (n,), None, a_buf, 2.0)
    prg.scale(queue, (n,), None, a_buf, np.float64(2))
    ```

    ## Use instead
    ```python
    prg.scale(queue, (n,), None, a_buf, np.float32(2))
    ```

    ## OpenCL spec
    OpenCL 3.0 API, section 5.9.2 "Setting Kernel Arguments" (`clSetKernelArg`:
    `CL_INVALID_ARG_SIZE` when `arg_size` does not match the size of the argument's type).
    """

    code = "CL603"
    name = "scalar-argument-type"
    severity = Severity.ERROR
    fix_availability = FixAvailability.SOMETIMES


class BufferArgumentType(_HostRule):
    """## What it does
    Reports a numpy array, `None` or a Python number passed where a pyopencl kernel call
    needs a buffer or local memory, where the source spells the value.

    The values: a numpy array (`np.zeros(n)`, `np.empty_like(a)`,
    `np.random.rand(n).astype(...)`, or a name bound once to one) where a `__global` or
    `__constant` buffer is expected, `None` where a `__local` one is, or a Python number
    where any pointer is. `None` for a `__global` or `__constant` pointer is not reported:
    pyopencl passes a NULL pointer, which the kernel may test.

    ## Why is this bad?
    pyopencl passes a numpy array's bytes as the pointer's value (raising
    `clSetKernelArg failed: INVALID_ARG_SIZE` unless the array happens to be 8 bytes, when
    the kernel reads a pointer made of the data). A `__local` parameter needs its size,
    `cl.LocalMemory(nbytes)`; `None` raises `INVALID_ARG_VALUE`. A Python number raises
    `Kernel.set_arg failed: INVALID_VALUE`.

    ## Example
    ```python
    prg = cl.Program(ctx, "__kernel void scale(__global float *a, __local float *t) { }").build()
    prg.scale(queue, (n,), (n,), np.zeros(n, np.float32), None)
    ```

    ## Use instead
    ```python
    a_buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    prg.scale(queue, (n,), (n,), a_buf, cl.LocalMemory(4 * n))
    ```

    ## OpenCL spec
    OpenCL 3.0 API, section 5.9.2 "Setting Kernel Arguments" (`clSetKernelArg`: a buffer
    object for a `__global` or `__constant` pointer, `arg_value` NULL and `arg_size` the
    size for a `__local` one).
    """

    code = "CL604"
    name = "buffer-argument-type"
    severity = Severity.ERROR


class WorkSizeDimensions(_HostRule):
    """## What it does
    Reports a pyopencl kernel call whose global and local sizes are both tuples or lists in
    the source, of different lengths: `prg.k(queue, (n,), (8, 8), ...)`.

    ## Why is this bad?
    Both sizes give one entry per dimension of the NDRange. pyopencl raises
    `enqueue_nd_range_kernel failed: INVALID_VALUE - global/local work sizes have differing
    dimensions`.

    ## Example
    ```python
    prg.blur(queue, (w, h), (16, 16, 1), img_buf)
    ```

    ## Use instead
    ```python
    prg.blur(queue, (w, h), (16, 16), img_buf)
    ```

    ## OpenCL spec
    OpenCL 3.0 API, section 5.10 `clEnqueueNDRangeKernel` (`work_dim` values in
    `global_work_size` and in `local_work_size`).
    """

    code = "CL605"
    name = "work-size-dimensions"
    severity = Severity.ERROR


RULES = [KernelArgumentCount, UnknownKernelName, ScalarArgumentType, BufferArgumentType, WorkSizeDimensions]
