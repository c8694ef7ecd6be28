"""CL6xx: host-kernel interface checks for pyopencl programs.

The checks read the Python host file, not a kernel, so they live in
analysis/embedded/host_checks.py and run from `lint_host`; these classes register the
codes so that selection, suppression by code and the docs work as for every rule.
"""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules.base import Rule, RuleContext


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


RULES = [KernelArgumentCount, UnknownKernelName]
