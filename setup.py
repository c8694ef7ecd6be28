"""Build script: maps the repository folders into the single `cllint` namespace
and compiles the generated tree-sitter parser as a C extension."""

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent
# Top-level folders keep their names in the repository; installed, they live under `cllint.`.
FOLDERS = {
    "cllint": "cllint",
    "cllint.grammar": "grammar",
    "cllint.analysis": "analysis",
    "cllint.server": "server",
    "cllint.cli": "cli",
}
SKIP = {"node_modules", "src", "test", "bindings", "queries", "__pycache__"}


def packages() -> tuple[list[str], dict[str, str]]:
    names: list[str] = []
    dirs: dict[str, str] = {}
    for pkg, folder in FOLDERS.items():
        dirs[pkg] = folder
        for init in sorted((HERE / folder).rglob("__init__.py")):
            rel = init.parent.relative_to(HERE / folder)
            if any(part in SKIP for part in rel.parts):
                continue
            names.append(".".join([pkg, *rel.parts]) if rel.parts else pkg)
    return names, dirs


names, dirs = packages()
# Folders that hold only data are packages too (setuptools warns "Package would be ignored"
# for data in a folder that is not one); the parser's C sources stay out of the wheel.
DATA_PACKAGES = {"cllint.grammar.queries": "grammar/queries", "cllint.grammar.src": "grammar/src"}
scanner = Path("grammar/src/scanner.c")
setup(
    packages=names + list(DATA_PACKAGES),
    package_dir={**dirs, **DATA_PACKAGES},
    package_data={
        "cllint.grammar.queries": ["*.scm"],
        "cllint.grammar.src": ["node-types.json"],
        "cllint.analysis": ["data/*.json"],
    },
    exclude_package_data={"cllint.grammar": ["bindings/*"],
                          "cllint.grammar.src": ["*.c", "*.h", "grammar.json", "tree_sitter/*"]},
    ext_modules=[
        Extension(
            "cllint.grammar._binding",
            sources=["grammar/bindings/binding.c", "grammar/src/parser.c"]
            + ([str(scanner)] if (HERE / scanner).exists() else []),
            # listed so that the sdist carries them: a wheel built from it needs them
            depends=sorted(str(h.relative_to(HERE)) for h in (HERE / "grammar/src/tree_sitter").glob("*.h")),
            include_dirs=["grammar/src"],
            extra_compile_args=["-std=c11", "-O2", "-Wno-unused"],
            define_macros=[("PY_SSIZE_T_CLEAN", None), ("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
        )
    ],
    # the extension uses only the stable ABI of 3.11: one wheel for every CPython >= 3.11
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
