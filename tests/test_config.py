"""Project configuration: discovery, loading, validation errors as file:line, merging, targets."""

from pathlib import Path

import pytest

from cllint.analysis.features import Version
from cllint.analysis.target import Target, TargetError
from cllint.config import ConfigError, Settings, build_target, find_config, load_config, merge


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def valid_code(code: str) -> bool:
    return code in {"CL", "CL1", "CL101", "CL2", "CL201", "CL3"}


def test_find_config_walks_up(tmp_path: Path) -> None:
    cfg = write(tmp_path / ".cllint.toml", 'std = "CL2.0"\n')
    kernel = write(tmp_path / "a" / "b" / "k.cl", "")
    assert find_config(kernel) == cfg
    assert find_config(kernel.parent) == cfg


def test_find_config_prefers_dotfile_and_skips_foreign_pyproject(tmp_path: Path) -> None:
    top = write(tmp_path / "pyproject.toml", '[tool.cllint]\nstd = "CL3.0"\n')
    write(tmp_path / "sub" / "pyproject.toml", "[project]\nname = 'x'\n")  # not ours: skipped
    write(tmp_path / "sub" / "broken" / "pyproject.toml", "[project\n")  # broken, not ours
    kernel = write(tmp_path / "sub" / "broken" / "k.cl", "")
    assert find_config(kernel) == top
    both = tmp_path / "both"
    dot = write(both / ".cllint.toml", "")
    write(both / "pyproject.toml", "[tool.cllint]\n")
    assert find_config(both / "k.cl") == dot


def test_find_config_none(tmp_path: Path) -> None:
    # tmp_path lives under /tmp, which has no configuration above it
    assert find_config(tmp_path / "k.cl") is None


def test_broken_pyproject_mentioning_cllint_is_an_error(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.cllint]\nstd = "CL2.0\n')
    with pytest.raises(ConfigError) as exc:
        find_config(tmp_path / "k.cl")
    assert str(exc.value).startswith(f"{tmp_path / 'pyproject.toml'}:2: invalid TOML: ")


def test_load_full_pyproject(tmp_path: Path) -> None:
    path = write(
        tmp_path / "pyproject.toml",
        """[project]
name = "demo"

[tool.cllint]
std = "CL3.0"
features = "+__opencl_c_fp64,-cl_khr_fp16"
include = ["include", "../shared"]
define = ["TILE=16", "DEBUG"]
select = ["CL1", "CL201"]
ignore = ["CL101"]
extend-select = ["CL3"]
exclude = ["third_party/**"]

[tool.cllint.per-file-ignores]
"tests/*.cl" = ["CL2"]
"gen.cl" = "CL1"
""",
    )
    s = load_config(path, valid_code)
    assert s.source == path and s.std == "CL3.0"
    assert s.include == [tmp_path / "include", tmp_path.parent / "shared"]
    assert s.define == {"TILE": "16", "DEBUG": "1"}
    assert s.select == ["CL1", "CL201"] and s.ignore == ["CL101"] and s.extend_select == ["CL3"]
    assert s.per_file_ignores == {"tests/*.cl": ["CL2"], "gen.cl": ["CL1"]}
    assert s.exclude == ["third_party/**"]
    t = build_target(s)
    assert t.version == Version(3, 0) and "__opencl_c_fp64" in t.features
    assert t.describe() == "CL3.0 +__opencl_c_fp64"


def test_load_dotfile_top_level_and_define_table(tmp_path: Path) -> None:
    path = write(tmp_path / ".cllint.toml", 'target = "cl3.0-all"\nfeatures = ["-__opencl_c_pipes"]\n[define]\nN = 4\nNAME = "x"\n')
    s = load_config(path)
    assert s.target == "CL3.0-all" and s.define == {"N": "4", "NAME": "x"}
    assert "__opencl_c_pipes" not in build_target(s).features


def test_pyproject_without_section_is_empty(tmp_path: Path) -> None:
    s = load_config(write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n"))
    assert s == Settings(source=tmp_path / "pyproject.toml")


@pytest.mark.parametrize(
    ("name", "text", "line", "message"),
    [
        ("pyproject.toml", '[project]\nname = "x"\n\n[tool.cllint]\nstd = "CL2.0"\nselcet = ["CL1"]\n', 6,
         "unknown option 'selcet' in [tool.cllint] (did you mean 'select'?)"),
        (".cllint.toml", 'extend_select = ["CL1"]\n', 1,
         "unknown option 'extend_select' (did you mean 'extend-select'?)"),
        (".cllint.toml", 'std = "CL2.1"\n', 1,
         "invalid value 'CL2.1' for 'std' (expected one of CL1.0, CL1.1, CL1.2, CL2.0, CL3.0)"),
        (".cllint.toml", '\nstd = 2\n', 2, "option 'std' must be a string, not an integer"),
        (".cllint.toml", 'select = "CL1"\n', 1, "option 'select' must be an array of strings, not a string"),
        (".cllint.toml", 'select = [\n  "CL1",\n  "CL999",\n]\n', 3,
         "unknown rule code or prefix 'CL999' in 'select'"),
        (".cllint.toml", '[per-file-ignores]\n"a.cl" = ["CLX"]\n', 2,
         "unknown rule code or prefix 'CLX' in 'per-file-ignores'"),
        (".cllint.toml", 'target = "CL3.1"\n', 1, "unknown target 'CL3.1' (did you mean 'CL3.0'?)"),
        (".cllint.toml", 'std = "CL1.2"\n\nfeatures = "+__opencl_c_fp46"\n', 3,
         "unknown feature '__opencl_c_fp46' (did you mean '__opencl_c_fp64'?)"),
        (".cllint.toml", 'std = "CL1.2"\nfeatures = [\n "+cl_khr_fp16",\n "+__opencl_c_pipes",\n]\n', 4,
         "feature '__opencl_c_pipes' needs OpenCL C 2.0 or newer, target version is 1.2"),
        (".cllint.toml", 'std = "CL1.2"\ntarget = "CL3.0"\n', 1, "'std' CL1.2 contradicts target 'CL3.0'"),
        (".cllint.toml", 'define = ["1BAD=2"]\n', 1, "invalid macro name '1BAD' in 'define'"),
        (".cllint.toml", 'std = "CL1.2\n', 1, "invalid TOML: "),
        ("pyproject.toml", '[tool.cllint]\nstd = "CL1.2"\nstd = "CL2.0"\n', 3, "invalid TOML: "),
        ("pyproject.toml", '[tool]\ncllint = 3\n', 2, "'tool.cllint' must be a table"),
    ],
)
def test_errors_name_file_and_line(tmp_path: Path, name: str, text: str, line: int, message: str) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(ConfigError) as exc:
        load_config(path, valid_code)
    assert exc.value.line == line
    assert str(exc.value).startswith(f"{path}:{line}: {message}")
    assert "\n" not in str(exc.value)


def test_unreadable_file_has_no_line(tmp_path: Path) -> None:
    path = tmp_path / ".cllint.toml"
    path.write_bytes(b"std = '\xff'\n")
    with pytest.raises(ConfigError, match=r"\.cllint\.toml: file is not valid UTF-8$"):
        load_config(path)


def test_merge_cli_wins(tmp_path: Path) -> None:
    path = write(tmp_path / ".cllint.toml",
                 'target = "CL2.0"\nfeatures = "+cl_khr_fp16"\nselect = ["CL1"]\nignore = ["CL101"]\ndefine = ["A=1", "B=2"]\n')
    s = load_config(path)
    m = merge(s, {"std": "CL3.0", "features": "+__opencl_c_fp64", "select": ["CL2"],
                  "ignore": ["CL201"], "define": {"A": "9"}, "include": ["inc"], "target": None})
    assert m.std == "CL3.0" and m.target is None  # a CLI base replaces the file's base
    assert m.select == ["CL2"] and m.ignore == ["CL101", "CL201"]
    assert m.define == {"A": "9", "B": "2"} and m.include == [Path("inc")]
    assert s.ignore == ["CL101"]  # the loaded settings are left alone
    t = build_target(m)
    assert t.version == Version(3, 0) and {"cl_khr_fp16", "cl_khr_fp64"} <= t.extensions
    with pytest.raises(ValueError):
        merge(s, {"slect": ["CL1"]})


def test_build_target_defaults_and_devices() -> None:
    assert build_target(Settings()).name == "CL1.2"
    with pytest.raises(TargetError, match="needs a device"):
        build_target(Settings(target="device:0"))
    dev = Target.from_device("OpenCL C 1.2", [], "cl_khr_fp64", name="device:1")
    t = build_target(Settings(target="device:1", features="-cl_khr_fp64"), device_reader=lambda i: dev)
    assert t.describe() == "device:1 -cl_khr_fp64" and "__opencl_c_fp64" not in t.features
    with pytest.raises(TargetError, match="cannot be combined"):
        build_target(Settings(target="device:1", std="CL1.2"), device_reader=lambda i: dev)
