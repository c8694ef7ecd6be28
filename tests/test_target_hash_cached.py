"""A target's hash is read from its fields once (issue 32, session 21: ~74 hashes a keystroke,
each a Python call hashing a tuple of them): the cached hash must stay what the fields give,
in copies, and in a process with another hash seed (a pickled target's cached value would
be the first process's). Its predefined macros are kept too: each call still returns a
dictionary of its own. Held-out cases: test_target_hash_cached_heldout.py."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

from cllint.analysis.target import PRESETS, Target


def _field_hash(t: Target) -> int:
    return hash((t.version, t.features, t.extensions, t.name))


def test_override_hash_is_field_hash() -> None:
    t = Target.preset("CL3.0").apply_overrides("-all,+__opencl_c_fp64")
    again = Target.preset("CL3.0").apply_overrides("-all,+__opencl_c_fp64")
    assert hash(t) == _field_hash(t) == hash(again)
    assert t == again and {t: 1}[again] == 1


def test_device_targets_equal_hash_equal() -> None:
    a = Target.from_device("OpenCL C 1.2 pocl", extensions="cl_khr_fp64 cl_khr_int64_base_atomics")
    b = Target.from_device("OpenCL C 1.2 pocl", extensions=["cl_khr_int64_base_atomics", "cl_khr_fp64"])
    assert a == b and hash(a) == hash(b) == _field_hash(a)
    assert hash(a) != hash(Target.from_device("OpenCL C 1.2 pocl"))


def test_pickle_in_other_hash_seed() -> None:
    targets = [Target.preset(name) for name in PRESETS]
    data = pickle.dumps(targets)
    check = ("import pickle, sys\n"
             "ts = pickle.loads(sys.stdin.buffer.read())\n"
             "bad = [t.name for t in ts if hash(t) != hash((t.version, t.features, t.extensions, t.name))]\n"
             "print(bad or 'ok')\n")
    for seed in ("1", "2"):
        run = subprocess.run([sys.executable, "-c", check], input=data, capture_output=True,
                             env={"PYTHONHASHSEED": seed, "PYTHONPATH": ":".join(sys.path)}, check=True)
        assert run.stdout.decode().strip() == "ok", run.stdout + run.stderr


def test_copies_keep_hash() -> None:
    t = Target.preset("CL2.0").apply_overrides("+cl_khr_fp64")
    for c in (copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        assert c == t and hash(c) == hash(t) == _field_hash(c)


def test_predefined_macros_as_defined() -> None:
    for name in PRESETS:
        t = Target.preset(name)
        v = t.version
        want = {"__OPENCL_VERSION__": str(v.number), "__OPENCL_C_VERSION__": str(v.number),
                "CL_VERSION_1_0": "100", "CL_VERSION_1_1": "110", "CL_VERSION_1_2": "120",
                "CL_VERSION_2_0": "200", "CL_VERSION_3_0": "300", "__ENDIAN_LITTLE__": "1"}
        if "__opencl_c_images" in t.features:
            want["__IMAGE_SUPPORT__"] = "1"
        if v.number >= 200:
            want.update((f, "1") for f in sorted(t.features))
        want.update((e, "1") for e in sorted(t.extensions))
        got = t.predefined_macros()
        assert got == want and list(got) == list(want), name
