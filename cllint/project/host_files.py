"""What makes a workspace file host code or a build file, and which folders a workspace walk
skips: apart from the host readers (hosts.py and the rest), so that a workspace without host
files imports none of them (issue 32: each module costs start-up to load)."""

from __future__ import annotations

HOST_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".py",
                           ".cmake", ".java", ".clj", ".cljc", ".rs", ".go", ".cs", ".jl", ".m", ".mm"})
# Clojure hosts are read as forms (clojure_builds.py), not by the readers of C-like text
CLOJURE_SUFFIXES = frozenset({".clj", ".cljc"})
HOST_NAMES = frozenset({"CMakeLists.txt", "Makefile", "makefile", "GNUmakefile", "meson.build", "configure.ac"})
# data files a host may read its `-D` names from (data_defines.py)
DATA_SUFFIXES = frozenset({".xml", ".json", ".yaml", ".yml"})
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__", ".cllint_cache"})
