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


RULES = [BuildError, BuildWarning, OclgrindDivergence, OclgrindRace, OclgrindOutOfBounds,
         OclgrindUninitialised, OclgrindOther]
