"""The host scans find what the earlier word-anchored patterns found (issue 29, session 12):
they are now anchored on a literal (`-D`, `cl`, `[`, `(`) with the word before checked apart,
so that a large host tree (MNN: 5,400 host files, 148 MB) is read within the editor's first
seconds. The earlier patterns are kept here as the reference."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cllint.project import hosts

OLD_OPTION = re.compile(rb"""(?:^|(?<=["'\s(,\[{])|(?<=%s))-D[ \t]*([A-Za-z_]\w*)""", re.M)
OLD_TUNER_CALL = re.compile(rb"\b(?:add|set|define)\w*?(?:param\w*|definition|define|macro)\s*\(\s*"
                            rb"(?:[^,;()\"]{0,80},\s*)?\"([A-Za-z_]\w*)\"", re.I)
OLD_TUNER_KEY = re.compile(rb"\b\w*(?:tune|tuning)_?params\w*\s*\[\s*[\"']([A-Za-z_]\w*)[\"']\s*\]\s*=(?!=)")
OLD_EXTENSION = re.compile(rb"\b(cl_(?:khr|ext|intel|amd|nv|arm|qcom|img|apple|altera)_\w+|__opencl_c_\w+)")
OLD_SUFFIX = re.compile(rb"[._](?:cl|ocl|opencl|clh)(?![A-Za-z0-9])")

TEXTS = [
    b'-DTILE=4 "-D WIDTH" (-DA,-DB) [-DC {-DD\n-DE\t-DF x-DG %s-DH a%s-DI 1-DJ',
    b'clBuildProgram(p, 0, 0, "-DX -Dy_2 -D  Z", 0, 0); opts += "-D" + name;',
    b'tuner.AddParameter(id, "WPTX", {1}); obj.setParam ( "A" ); defineMacro("B"); x.addparam(k, "C");'
    b' readd_param("D"); add_definition(code,\n "E", 1); set_value("F"); getParam("G"); 2add_param("H")',
    b'tune_params["WPTX"] = [1]; my_tuning_params[ "VEC" ]= 2; tune_params["X"] == 3; tuneparams["Y"]=1;'
    b' xtune_params_all["Z"] = 4; tune_params["F(a)"] = 5; params["W"] = 6',
    b'cl_khr_fp16 xcl_khr_fp64 "cl_intel_subgroups" __opencl_c_fp64 a__opencl_c_images _cl_khr_gl cl_foo_bar',
    b'a.cl b.clh c.ocl d.opencl e.oclh f_cl_src g.cls h.cl2 i.opencl.cl j._cl k..cl l_opencl_c m.CL n.ocl.h',
    b'"kernels/scan_dim.cl" scan_dim_cl_src, read("common.cl") + read("k.clh") .cl _clh_ 0.cl',
]


def old_macros(text: bytes) -> set[bytes]:
    return set(OLD_OPTION.findall(text)) | set(OLD_TUNER_CALL.findall(text)) | set(OLD_TUNER_KEY.findall(text))


@pytest.mark.parametrize("text", TEXTS)
def test_options_tuners_and_keys_as_before(text: bytes) -> None:
    assert {n.encode() for n in hosts.macros_in([text])} == old_macros(text)


def test_keys_of_maps_named_for_macros() -> None:
    text = (b'defines["TILE"] = "4"; compilationDefines["F(a, b)"] = "a"; m_macros[ \'S\' ]= 1;'
            b' replacements["KEY"] = k; config["NO"] = 1; defines["EQ"] == 2; undefined_x["NO2"] = 1;'
            b' tune_params["W"] = [1];')
    assert set(hosts.macros_in([text])) == {"TILE", "F", "S", "KEY", "W"}


@pytest.mark.parametrize("text", TEXTS)
def test_extension_names_as_before(text: bytes) -> None:
    assert sorted(hosts._named_extensions(text)) == sorted(OLD_EXTENSION.findall(text))


@pytest.mark.parametrize("text", TEXTS)
def test_source_suffixes_as_before(text: bytes) -> None:
    assert list(hosts._suffix_refs(text)) == [(m.start(), m.end()) for m in OLD_SUFFIX.finditer(text)]


def test_image_creation_as_before() -> None:
    assert hosts._creates_images(Path("h.cpp"), b"cl::Image2D img(ctx, flags, fmt, w, h);")
    assert hosts._creates_images(Path("h.c"), b"m = clCreateImage (ctx, f, &fmt, &d, 0, &e);")
    assert hosts._creates_images(Path("h.py"), b"img = cl.image_from_array(ctx, a, 4)")
    assert not hosts._creates_images(Path("h.c"), b"m = myclCreateImage(ctx); // clCreateImage(")
    assert not hosts._creates_images(Path("h.py"), b"# cl.Image(ctx, f, fmt)\nx = 1")
