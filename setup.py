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
scanner = Path("grammar/src/scanner.c")
setup(
    packages=names,
    package_dir=dirs,
    package_data={
        "cllint.grammar": ["queries/*.scm", "src/node-types.json"],
        "cllint.analysis": ["data/*.json"],
    },
    ext_modules=[
        Extension(
            "cllint.grammar._binding",
            sources=["grammar/bindings/binding.c", "grammar/src/parser.c"]
            + ([str(scanner)] if (HERE / scanner).exists() else []),
            include_dirs=["grammar/src"],
            extra_compile_args=["-std=c11", "-O2", "-Wno-unused"],
            define_macros=[("PY_SSIZE_T_CLEAN", None), ("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
        )
    ],
)
