"""CL9xx: diagnostics from a real device compiler or a checking device (Oclgrind).

These rules have no static check: `cllint build` and `cllint run` (server/runner)
produce them. They are registered here so that codes, docs and selection work the
same way for every diagnostic.
"""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules.base import Rule, RuleContext


class _DeviceRule(Rule):
    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return iter(())


class BuildError(_DeviceRule):
    """## What it does
    Shows an error from the device's OpenCL C compiler (`clBuildProgram`), mapped back
    to the file and line it names, included files too.

    ## Why is this bad?
    The program does not build on that device, so no kernel in it can run there.

    ## Example
    `cllint build kernel.cl --device gpu` on a kernel that uses an undeclared name.

    ## Use instead
    Fix the code the compiler names; run `cllint check` with `--target device:N` so the
    static checks use the same version and features as that device.

    ## OpenCL spec
    OpenCL 1.2 API, section 5.6.2 "Building Program Executables".
    """

    code = "CL901"
    name = "device-build-error"
    severity = Severity.ERROR


class BuildWarning(_DeviceRule):
    """## What it does
    Shows a warning from the device's OpenCL C compiler.

    ## Why is this bad?
    Vendor compilers warn about code that builds but may not behave as written on that
    device (implicit conversions, unused values, unsupported attributes).

    ## Example
    `cllint build kernel.cl` where the compiler log contains `warning:` lines.

    ## Use instead
    Address the warning, or keep it if it is expected for that device.

    ## OpenCL spec
    OpenCL 1.2 API, section 5.6.2 "Building Program Executables".
    """

    code = "CL902"
    name = "device-build-warning"
    severity = Severity.WARNING


class OclgrindDivergence(_DeviceRule):
    """## What it does
    Reports a work-group barrier that Oclgrind saw reached by only some work-items
    when the kernel ran (`cllint run --device oclgrind`).

    ## Why is this bad?
    The behaviour is undefined: GPUs hang or skip the barrier, CPUs compute wrong results.

    ## Example
    `if (get_local_id(0) < 16) barrier(CLK_LOCAL_MEM_FENCE);`

    ## Use instead
    Reach the barrier from every work-item: move it out of the work-item-dependent
    branch. See CL201 for the static check.

    ## OpenCL spec
    Section 6.15.8 "Synchronization Functions".
    """

    code = "CL910"
    name = "device-barrier-divergence"
    severity = Severity.ERROR


class OclgrindRace(_DeviceRule):
    """## What it does
    Reports a data race that Oclgrind detected while running the kernel.

    ## Why is this bad?
    Two work-items access the same memory without synchronisation and at least one
    writes: the result depends on scheduling and differs between devices.

    ## Example
    Every work-item of a group writing `tile[0]` and then reading it without a barrier.

    ## Use instead
    Separate the accesses with a barrier, use atomics, or give each work-item its own
    location.

    ## OpenCL spec
    Section 6.15.8 "Synchronization Functions" and the memory model (3.3 of the API spec).
    """

    code = "CL911"
    name = "device-data-race"
    severity = Severity.ERROR


class OclgrindOutOfBounds(_DeviceRule):
    """## What it does
    Reports an out-of-bounds or otherwise invalid memory access that Oclgrind detected
    while running the kernel.

    ## Why is this bad?
    The access reads or corrupts memory the kernel does not own; on GPUs it may crash
    the context or silently read garbage.

    ## Example
    `out[gid] = in[gid + 1];` for the last work-item.

    ## Use instead
    Guard the access with the buffer's size, or size the NDRange to the data.

    ## OpenCL spec
    Section 6.7 "Address Space Qualifiers" (objects and their extent).
    """

    code = "CL912"
    name = "device-invalid-access"
    severity = Severity.ERROR


class OclgrindUninitialised(_DeviceRule):
    """## What it does
    Reports a use of uninitialised memory that Oclgrind detected while running the kernel.

    ## Why is this bad?
    The value is whatever the memory held before: results differ between runs and devices.

    ## Example
    `__local float tile[64];` read before any work-item wrote it.

    ## Use instead
    Write the memory (and synchronise) before reading it.

    ## OpenCL spec
    Section 6.7.2 "__local (or local)".
    """

    code = "CL913"
    name = "device-uninitialised-value"
    severity = Severity.WARNING


class OclgrindOther(_DeviceRule):
    """## What it does
    Shows any other error Oclgrind reported while running the kernel.

    ## Why is this bad?
    Oclgrind checks the OpenCL C rules that hardware does not: each report is undefined
    or implementation-defined behaviour on some device.

    ## Example
    An invalid work-group size or an unsupported built-in call during a run.

    ## Use instead
    Follow the message; it names the rule and the source line.

    ## OpenCL spec
    See the message.
    """

    code = "CL919"
    name = "device-other-error"
    severity = Severity.ERROR


class SlowerThanPrevious(_DeviceRule):
    """## What it does
    Says that a kernel ran slower than its previous run, beyond noise.

    The previous run is the last one of the same kernel with the same launch (global and
    local size, argument descriptions) on the same device. Beyond noise: the median time grew by more than 5%, the new median is above every time the previous
    run measured, and the previous median is below every time this run measured. It comes from
    runs on save, from the ▶ Run lens and from `cllint run`, which keep their results in
    `.cllint/runs.jsonl` (`cllint runs` lists them), and is shown at the kernel's name until
    the next edit. Faster runs are shown in the lens, not as diagnostics.

    ## Why is this bad?
    A change meant to be neutral (a refactoring, a new guard, another work-group size inside
    the kernel) may have cost time; seeing it at the save that caused it saves comparing
    timings by hand.

    ## Example
    Saving a kernel that now recomputes a value in its loop:
    `'vadd' took 0.47 ms, 12% slower than the previous run's 0.42 ms`.

    ## Use instead
    Look at what the save changed; keep the change if the time is worth it. Run with more
    iterations (`iterations=` in the description) when one launch is too short to time well.

    ## OpenCL spec
    OpenCL 1.2 API, section 5.12 "Profiling Operations on Memory Objects and Kernels" (the times
    come from `CL_PROFILING_COMMAND_START` and `END`).
    """

    code = "CL920"
    name = "slower-than-previous"
    severity = Severity.INFO


class OutputChanged(_DeviceRule):
    """## What it does
    Warns that a shown output buffer of a kernel differs from its previous run's.

    The previous run is the last one of the same kernel, launch (inputs included) and
    device. It differs beyond a relative tolerance of 1e-4 and
    an absolute one of 1e-5 for floating-point values, exactly for integers, on the stored
    sample of the buffer (up to 1,024 evenly strided values) or on its summary (minimum,
    maximum, mean, NaN and infinity counts). The message names the buffer, the first differing
    index and both values. Shown at the kernel's name until the next edit.

    ## Why is this bad?
    The same inputs now give other results: an optimisation changed what the kernel computes,
    or an out-of-bounds access or race now reads other values.

    ## Example
    `output 'c' changed since the previous run: c[8] is 3.5, was 2.5`.

    ## Use instead
    If the new output is the intended one, nothing: the next run compares with this one. If
    not, undo the change or run on the `oclgrind` device to look for invalid accesses and races.

    ## OpenCL spec
    OpenCL 1.2, section 7.4 "Relative Error as ULPs" (why floating-point results may differ by
    rounding, which the tolerance allows).
    """

    code = "CL921"
    name = "output-changed"
    severity = Severity.WARNING


RULES = [BuildError, BuildWarning, OclgrindDivergence, OclgrindRace, OclgrindOutOfBounds,
         OclgrindUninitialised, OclgrindOther, SlowerThanPrevious, OutputChanged]
