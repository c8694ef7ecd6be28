"""Held-out cases of test_target_hash_cached.py (chosen by crc32 of the name % 3 == 0 before
the code was written)."""

from __future__ import annotations

from cllint.analysis.records import replace
from cllint.analysis.target import PRESETS, Target


def _field_hash(t: Target) -> int:
    return hash((t.version, t.features, t.extensions, t.name))


def test_preset_hash_is_field_hash() -> None:
    for name in PRESETS:
        t = Target.preset(name)
        assert hash(t) == _field_hash(t) == hash(Target.preset(name)), name


def test_replace_keeps_hash() -> None:
    t = Target.preset("CL1.2")
    r = replace(t, name="other", features=t.features | {"__opencl_c_fp64"})
    assert hash(r) == _field_hash(r) and r.name == "other"
    assert replace(r, name="CL1.2", features=t.features) == t
    assert hash(replace(r, name="CL1.2", features=t.features)) == hash(t)


def test_predefined_macros_fresh_dict() -> None:
    t = Target.preset("CL3.0-all")
    first = t.predefined_macros()
    first["MINE"] = "1"
    del first["__OPENCL_C_VERSION__"]
    again = t.predefined_macros()
    assert "MINE" not in again and again["__OPENCL_C_VERSION__"] == "300"
    assert again is not t.predefined_macros()


def test_has_as_defined() -> None:
    for name in PRESETS:
        t = Target.preset(name)
        for word in ("__opencl_c_fp64", "cl_khr_fp64", "__IMAGE_SUPPORT__", "__ENDIAN_LITTLE__", "CL_VERSION_2_0",
                     "__opencl_c_generic_address_space", "__OPENCL_C_VERSION__>=200", "no_such_thing"):
            macros = t.predefined_macros()
            direct = word in t.features or word in t.extensions
            assert t.has(word) == (direct or (word in macros if ">=" not in word else t.version.number >= 200)), \
                (name, word)
