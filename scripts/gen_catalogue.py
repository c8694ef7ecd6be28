#!/usr/bin/env python3
"""Generate analysis/data/builtins.json, the built-in catalogue, from the OpenCL C spec.

Usage: scripts/gen_catalogue.py [SPEC.txt] [-o OUT.json]

Reads the unified AsciiDoc OpenCL C specification (section 6.15 "Built-in Functions",
the C11 atomics declaration blocks, 6.4 conversions and the constant tables) and writes
a deterministic JSON catalogue. What is taken from the text: function names, signatures,
parameter names, the requirement sentences ("Requires support for OpenCL C 2.0 ...",
`ifdef::cl_khr_...[]` blocks, "For OpenCL C 1.2 or newer:" lines), deprecation notes,
section anchors and descriptions. What is encoded here after reading the prose: the
meaning of each section's generic type names (gentype, sgentype, ...), and the types an
extension's note adds to them (EXTENSION_GENTYPES, used only when the note is in the
spec), because the prose defining them is too irregular to parse reliably.
"Version V or newer, or extension E" becomes two alternatives, E and a version name
(`__OPENCL_C_VERSION__>=200`; see analysis/catalogue.py).
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SPEC = REPO / ".." / "shared" / "spec" / "000_d3b3dd38d1ce8d33.txt"
DEFAULT_OUT = REPO / "analysis" / "data" / "builtins.json"

FP64 = [["__opencl_c_fp64"], ["cl_khr_fp64"]]
FP16 = [["cl_khr_fp16"]]
INT64_ATOMICS = [["cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"]]
GENERIC_AS = "__opencl_c_generic_address_space"

INTS = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
FLOATS = ["float", "double", "half"]
WIDTHS = [1, 2, 3, 4, 8, 16]
VEC = [2, 3, 4, 8, 16]
UNSIGNED = {"char": "uchar", "short": "ushort", "int": "uint", "long": "ulong"}
# ugentype: the unsigned integer type of the element's size (spec "Miscellaneous Vector
# Functions": a float vector's shuffle mask is a uint vector, a double's a ulong one).
UNSIGNED_OF_SIZE = {**UNSIGNED, "half": "ushort", "float": "uint", "double": "ulong"}
SIGNED_OF_SIZE = {"char": "char", "uchar": "char", "short": "short", "ushort": "short",
                  "int": "int", "uint": "int", "long": "long", "ulong": "long",
                  "half": "short", "float": "int", "double": "long"}

ATTRS = {"global": "__global", "local": "__local", "private": "__private",
         "constant": "__constant", "generic": "__generic", "rte": "_rte", "rtz": "_rtz",
         "rtp": "_rtp", "rtn": "_rtn", "kernel": "__kernel", "read_only": "read_only",
         "write_only": "write_only", "read_write": "read_write", "plus": "+",
         "localArgType": "localArgType"}


def vec(elem: str, width: int) -> str:
    return elem if width == 1 else f"{elem}{width}"


def all_widths(elems: list[str], widths: list[int] = WIDTHS) -> list[tuple[str, int]]:
    return [(e, w) for e in elems for w in widths]


# Generic type meanings per section anchor, as the prose of each section defines them.
# Each maps to a list of (element, width); derived names (ugentype...) follow gentype.
SECTION_GENTYPES: dict[str, dict[str, list[tuple[str, int]]]] = {
    "math-functions": {"gentype": all_widths(["float", "double", "half"]),
                       "gentypef": all_widths(["float"]), "gentyped": all_widths(["double"]),
                       "gentypeh": all_widths(["half"])},
    "table-builtin-half-native-math": {"gentype": all_widths(["float"])},
    "integer-functions": {"gentype": all_widths(INTS)},
    "table-builtin-fast-integer": {"gentype": all_widths(["int", "uint"])},
    "extended-bit-operations": {"gentype": all_widths(INTS)},
    "common-functions": {"gentype": all_widths(["float", "double", "half"]),
                         "gentypef": all_widths(["float"]), "gentyped": all_widths(["double"]),
                         "gentypeh": all_widths(["half"])},
    "geometric-functions": {"gentypef": all_widths(["float"], [1, 2, 3, 4]),
                            "gentyped": all_widths(["double"], [1, 2, 3, 4]),
                            "gentypeh": all_widths(["half"], [1, 2, 3, 4])},
    "relational-functions": {"gentype": all_widths(INTS + FLOATS)},
    "vector-data-load-and-store-functions": {"gentype": all_widths(INTS + FLOATS, [1])},
    "async-copies": {"gentype": all_widths(INTS + FLOATS)},
    "miscellaneous-vector-functions": {"gentype": all_widths(INTS + FLOATS, [1])},
    "work-group-functions": {"gentype": all_widths(["int", "uint", "long", "ulong", "float", "double", "half"], [1])},
    "work-group-collective-uniform-arithmetic-functions": {"gentype": all_widths(["int", "uint", "long", "ulong", "float", "double", "half"], [1])},
    "table-builtin-work-group-bitwise-integer": {"gentype": all_widths(["int", "uint", "long", "ulong"], [1])},
    "sub-group-functions": {"gentype": all_widths(["int", "uint", "long", "ulong", "float", "double", "half"], [1])},
    "extended-sub-groups-mapping": {"gentype": all_widths(INTS + FLOATS, [1])},
}
# Sections whose `gentype` is any type, user types included: kept generic.
OPAQUE_GENTYPE = {"address-space-qualifier-functions", "pipe-functions", "built-in-pipe-read-and-write-functions",
                  "built-in-work-group-pipe-read-and-write-functions", "built-in-pipe-query-functions"}
COLLECTIVE_OPS = ["add", "min", "max"]


@dataclass(frozen=True)
class ExtensionGentypes:
    """More meanings of `gentype` that an extension gives a table's functions, per its prose."""
    extension: str
    section: str  # anchor of the section whose `ifdef::extension[]` note says so
    table: str  # anchor of the table whose signatures gain the overloads
    names: tuple[str, ...]  # the functions, as the table spells them
    types: list[tuple[str, int]]


SUBGROUP_COLLECTIVES = ("sub_group_broadcast", "sub_group_reduce_<op>", "sub_group_scan_exclusive_<op>",
                        "sub_group_scan_inclusive_<op>")
EXTENSION_GENTYPES = [
    # "Sub-Group Functions" (sub-group-functions), the cl_khr_subgroup_extended_types note:
    # `gentype` may additionally be char, uchar, short and ushort; for sub_group_broadcast also
    # any built-in vector type charn ... doublen ("Built-in Vector Data Types": n is 2, 3, 4, 8, 16).
    ExtensionGentypes("cl_khr_subgroup_extended_types", "sub-group-functions", "table-collective-functions",
                      SUBGROUP_COLLECTIVES, all_widths(["char", "uchar", "short", "ushort"], [1])),
    ExtensionGentypes("cl_khr_subgroup_extended_types", "sub-group-functions", "table-collective-functions",
                      ("sub_group_broadcast",), all_widths(INTS + FLOATS, VEC)),
]

CATEGORIES = [  # (anchor prefix of the enclosing level-3 section, category)
    ("work-item-functions", "work-item"), ("math-functions", "math"), ("integer-functions", "integer"),
    ("common-functions", "common"), ("geometric-functions", "geometric"),
    ("relational-functions", "relational"), ("vector-data-load-and-store-functions", "vector-data"),
    ("synchronization-functions", "synchronization"), ("legacy-mem-fence-functions", "synchronization"),
    ("address-space-qualifier-functions", "address-space"), ("async-copies", "async-copy"),
    ("atomic-functions", "atomic"), ("miscellaneous-vector-functions", "misc"), ("printf", "printf"),
    ("image-read-and-write-functions", "image"), ("work-group-functions", "work-group"),
    ("work-group-collective-uniform-arithmetic-functions", "work-group"), ("pipe-functions", "pipe"),
    ("enqueuing-kernels", "enqueue"), ("sub-group-functions", "sub-group"), ("kernel-clock-functions", "misc"),
    ("conversions", "conversion"),
]


@dataclass
class Req:
    """A requirement: minimum version plus DNF of macros (empty = none)."""
    since: str | None = None
    dnf: list[list[str]] = field(default_factory=list)

    def and_(self, other: "Req") -> "Req":
        since = max(filter(None, [self.since, other.since]), default=None)
        if not self.dnf:
            dnf = other.dnf
        elif not other.dnf:
            dnf = self.dnf
        else:
            dnf = [sorted(set(a) | set(b)) for a in self.dnf for b in other.dnf]
        return Req(since, normalize_dnf(dnf, since))


# A version floor that holds in one alternative only ("OpenCL C 2.0 or newer, or the X
# extension"): a name spelled as the condition that tests it. analysis/features.py
# `version_requirement` reads it back.
VERSION_NAME = "__OPENCL_C_VERSION__>="


def version_name(version: str) -> str:
    major, minor = version.split(".")
    return f"{VERSION_NAME}{major}{minor}0"


def _met_by(name: str, since: str | None) -> bool:
    """A version name is true wherever the requirement's own `since` already holds."""
    return since is not None and name.startswith(VERSION_NAME) and name <= version_name(since)


def normalize_dnf(dnf: list[list[str]], since: str | None = None) -> list[list[str]]:
    dnf = [[n for n in alt if not _met_by(n, since)] for alt in dnf]
    if dnf and not all(dnf):
        return []  # an alternative with nothing left to require: no requirement
    out: list[list[str]] = []
    for alt in sorted({tuple(sorted(set(a))) for a in dnf}, key=lambda a: (len(a), a)):
        if not any(set(o) <= set(alt) for o in out):  # drop alternatives implied by shorter ones
            out.append(list(alt))
    return out


def macro_names(text: str) -> list[str]:
    names = [f"__opencl_c_{m}" for m in re.findall(r"\{opencl_c_(\w+?)\}", text)]
    names += re.findall(r"\{(cl_\w+?)_EXT\}", text)
    names += re.findall(r"(?<![{\w])(__opencl_c_\w+|cl_(?:khr|ext|intel|arm|amd|img)_\w+)", text)
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return seen


def parse_requirement(text: str) -> Req:
    """Read a sentence like 'Requires support for OpenCL C 2.0, or OpenCL C 3.0 or newer and the
    {opencl_c_generic_address_space} feature'. OpenCL C 2.0 features are spelled as their 3.0
    feature macros (as clang's opencl-c-base.h does), so '2.0, or 3.0 and F' becomes since 2.0 + F;
    '2.0 or newer, or the extension E' becomes E or the version name of 2.0 (no `since`)."""
    versions = re.findall(r"OpenCL (?:C )?(\d\.\d)", text)
    macros = macro_names(text)
    since = min(versions) if versions else None
    features = [m for m in macros if m.startswith("__opencl_c_")]
    exts = [m for m in macros if not m.startswith("__opencl_c_")]
    if exts and (features or versions) and re.search(r"\bor\b", text):
        # An extension alternative next to a version or feature one: the extension alone is
        # enough before that version, so the version floor moves into its own alternative.
        # "2.0, or 3.0 and F" is F (2.0 compilers define F), so no version name is needed there.
        other = features if features else [version_name(min(versions))]
        return Req(None, normalize_dnf([[e] for e in exts] + [other]))
    if exts and re.search(r"\bor\b", " ".join(text.split())) and not features and len(exts) > 1 \
            and not re.search(r"\b(and|both|all of)\b", text):
        return Req(since, normalize_dnf([[e] for e in exts]))
    if macros:
        return Req(since, [sorted(set(macros))])
    return Req(since, [])


# --- text cleaning -------------------------------------------------------------------------------

# Misspelled type names in the spec's signatures (a type that does not exist would make
# its overload one that no argument fits).
SPEC_TYPOS = {"image2d_array_msaaa_depth_t": "image2d_array_msaa_depth_t"}


def substitute_attrs(s: str) -> str:
    for wrong, right in SPEC_TYPOS.items():
        s = s.replace(wrong, right)
    s = re.sub(r"__([nm])__", lambda m: f"<{m.group(1).upper()}>", s)
    s = re.sub(r"\{(\w+)\}", lambda m: ATTRS.get(m.group(1), m.group(0)), s)
    return s


def strip_italics(s: str) -> str:
    s = re.sub(r"(?<!\w)__(\w+?)__(?!\w)", r"\1", s)
    return re.sub(r"(?<!\w)_(\*?)([A-Za-z]\w*?)_(?!\w)", r"\1\2", s)


def plain(text: str) -> str:
    """Description markup -> plain words."""
    t = re.sub(r"footnote:[\w-]*\[[^\]]*\]", "", text)
    t = re.sub(r"<<[^,>]+,\s*([^>]+)>>", r"\1", t)
    t = re.sub(r"<<([^>]+)>>", r"\1", t)
    t = re.sub(r"https?://\S+?\[([^\]]*)\]", r"\1", t)
    t = re.sub(r"\{(\w+?)_EXT\}", r"\1", t)
    t = re.sub(r"\{opencl_c_(\w+)\}", r"__opencl_c_\1", t)
    t = t.replace("{pi}", "π").replace("{plus}", "+").replace("{leq}", "<=").replace("{geq}", ">=")
    t = re.sub(r"\{(\w+)\}", r"\1", t)
    t = re.sub(r"\*\*?([^*\s][^*]*?)\*\*?", r"\1", t)
    t = strip_italics(t.replace("__n__", "n"))
    t = t.replace("`", "").replace("\\|", "|").replace("+\n", " ")
    return " ".join(t.split())


def summary_of(desc: str) -> str:
    text = plain(desc.split("\n\n")[0])
    m = re.match(r"(.+?[.:])(\s|$)", text)
    s = m.group(1) if m else text
    return s.rstrip(":.") + "." if s else ""


# --- spec pass: anchors, headings, ifdef stack, section-level notes ---------------------------------

@dataclass
class Line:
    text: str
    section: str  # nearest enclosing heading anchor
    top: str  # enclosing level-3 ('===') section anchor, for categories
    table: str  # nearest anchor (table anchors included)
    ifdefs: tuple[str, ...]
    section_req: Req
    deprecated: str | None


def scan(lines: list[str]) -> list[Line]:
    out: list[Line] = []
    ifdefs: list[str] = []
    pending_anchor = ""
    last_anchor = ""
    levels: dict[int, tuple[str, Req, str | None]] = {}
    section, top = "", ""
    for i, text in enumerate(lines):
        m = re.match(r"^\[\[([\w-]+)\]\]\s*$", text)
        if m:
            pending_anchor = last_anchor = m.group(1)
        h = re.match(r"^(=+) (.+)", text)
        if h:
            level = len(h.group(1))
            anchor = pending_anchor or re.sub(r"[^a-z0-9]+", "-", h.group(2).lower()).strip("-")
            for lv in [lv for lv in levels if lv >= level]:
                del levels[lv]
            levels[level] = (anchor, Req(), None)
            section = anchor
            if level <= 3:
                top = anchor
            pending_anchor = ""
        elif not m and text.strip():
            pending_anchor = ""
        md = re.match(r"^ifdef::([\w,+]+)\[\]\s*$", text)
        me = re.match(r"^endif::([\w,+]+)\[\]\s*$", text)
        if me and ifdefs:
            ifdefs.pop()
        # Section-level notes outside tables: "The functionality described in this section requires ..."
        # Also "NOTE: Sampler-less image read functions <<..., require>> support for OpenCL C 1.2".
        if levels and (re.match(r"^(NOTE|IMPORTANT): (The|This) (functionality|atomic functions|memory fence functions|.*functions) described in this", text)
                       or re.match(r"^(NOTE|IMPORTANT): [\w -]+ functions <<unified-spec, require>>", text)):
            para = " ".join(lines[i:i + 8]).split("\n\n")[0]
            para = para[: para.find(".", para.find("requires") if "requires" in para else 0) + 1] if "." in para else para
            joined = " ".join(lines[i:i + 6])
            lvl = max(levels)
            anchor, req, dep = levels[lvl]
            mreq = re.search(r"requires?>>(.*?)(\.\s|\.$|, and are)", joined)
            if mreq:
                req = req.and_(parse_requirement(mreq.group(1)))
            mdep = re.search(r"deprecated by>>\s*OpenCL C (\d\.\d)", joined)
            if mdep:
                dep = mdep.group(1)
            levels[lvl] = (anchor, req, dep)
        sreq, sdep = Req(), None
        for lv in sorted(levels):
            sreq = sreq.and_(levels[lv][1])
            sdep = levels[lv][2] or sdep
        out.append(Line(text, section, top, last_anchor, tuple(ifdefs), sreq, sdep))
        if md:
            ifdefs.append(md.group(1))
    return out


def ifdef_req(ifdefs: tuple[str, ...]) -> Req:
    req = Req()
    for name in ifdefs:
        if name.startswith("cl_") and "," not in name and "+" not in name:
            req = req.and_(Req(None, [[name]]))
    return req


# --- tables ---------------------------------------------------------------------------------------

@dataclass
class Cell:
    lines: list[int]  # indexes into the spec
    text: str


def table_cells(lines: list[Line], start: int, end: int) -> list[Cell]:
    cells: list[Cell] = []
    in_code = False
    for i in range(start, end):
        text = lines[i].text
        if text.startswith("----"):
            in_code = not in_code
        parts = [text]
        if not in_code and re.match(r"^\s*[a-z0-9]*\|", text):
            # A cell may open on bold text: `|*Function* |*Description*` is a header row.
            parts = re.split(r"(?:(?<=^)|(?<=\s))[0-9]*a?\|(?=\s|$|\[|\*)", text)
            head = parts.pop(0)
            if head.strip() and cells:
                cells[-1].text += "\n" + head
                cells[-1].lines.append(i)
            for p in parts:
                cells.append(Cell([i], p))
            continue
        if cells:
            cells[-1].text += "\n" + text
            cells[-1].lines.append(i)
    return cells


SIG_MARK = re.compile(r"\*\*?([A-Za-z_][\w<>]*)\*\*?\s*\(")


@dataclass
class RawSig:
    name: str
    ret: str
    params: list[tuple[str, str]]
    req: Req


def split_params(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [p.strip() for p in out]


def parse_param(p: str, index: int, count: int) -> tuple[str, str]:
    p = " ".join(p.replace("+", " ").split())
    if p in ("void", ""):
        return ("", "")
    if p == "...":
        return ("...", "...")
    if "(^" in p:  # block parameter
        m = re.match(r"(.*)\(\^\s*(\w*)\s*\)\s*(\(.*\))", p)
        if m:
            return (m.group(2) or "block", f"{m.group(1).strip()} (^){m.group(3)}")
    m = re.match(r"^(.*?[\s*])(\w+)$", p)
    type_words = {"int", "uint", "float", "half", "double", "gentype", "size_t", "char", "uchar", "short",
                  "ushort", "long", "ulong", "bool", "event_t", "sampler_t", "memory_order", "memory_scope"}
    if m and not re.fullmatch(r"[\w<>]+", p) and m.group(2) not in type_words and not re.search(
            r"^(gentype|[a-z]+\d*|.*<[NM]>|.*_t)$", m.group(2)) or (m and m.group(1).strip().endswith("*")):
        return (m.group(2), m.group(1).strip())
    if m and m.group(2) not in type_words and " " in p and not m.group(1).strip() in ("const", "volatile", "unsigned"):
        return (m.group(2), m.group(1).strip())
    default = ["x", "y", "z", "w"][index] if count <= 4 else f"arg{index}"
    return (default, p)


CONDITION_LINE = re.compile(r"^\s*(For OpenCL C .*|If the .*|For .* or newer.*|.*requires? support for.*):\s*$")


def c_declarations(text: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """Plain C prototypes in a `[source,opencl_c]` block -> (return, name, params)."""
    out = []
    body = re.sub(r"//[^\n]*", "", text)
    for decl in re.findall(r"([^;()]*?\b\w+\s*\((?:[^()]|\([^()]*\))*\))\s*;?", body):
        m = re.match(r"\s*(.*?)\b(\w+)\s*\((.*)\)\s*$", decl, re.S)
        if not m or not m.group(1).strip():
            continue
        plist = split_params(" ".join(m.group(3).split()))
        params = [parse_param(p, k, len(plist)) for k, p in enumerate(plist)]
        out.append((" ".join(m.group(1).split()), m.group(2), [p for p in params if p != ("", "")]))
    return out


def cell_signatures(cell: Cell, lines: list[Line], base: Req) -> list[RawSig]:
    sigs: list[RawSig] = []
    if "[source" in cell.text:
        code = "\n".join(re.findall(r"^-{4,}\n(.*?)^-{4,}", cell.text, re.S | re.M))
        line_idx = cell.lines[0]
        req = base.and_(ifdef_req(lines[line_idx].ifdefs))
        return [RawSig(n, r, ps, req) for r, n, ps in c_declarations(code)]
    cond = Req()
    rows = cell.text.split("\n")
    # flatten, remembering each line's start offset for ifdef lookup
    offsets, pos = [], 0
    for r in rows:
        offsets.append(pos)
        pos += len(r) + 1
    text = cell.text
    consumed = 0
    for ln, r in enumerate(rows):
        if r.strip().endswith(":") and not SIG_MARK.search(r):
            # the sentence may start on the previous line(s)
            k, sent = ln, r
            while k > 0 and rows[k - 1].strip() and not SIG_MARK.search(rows[k - 1]):
                k -= 1
                sent = rows[k] + " " + sent
            if not re.search(r"OpenCL C|extension|feature|supported", sent):
                continue
            cond = parse_requirement(sent)
            if "as an alias" in sent:
                cond = parse_requirement(sent.split(",")[0])
        elif ln > 0 and rows[ln - 1].strip().endswith(":") is False and False:
            pass
        for m in SIG_MARK.finditer(r):
            start = offsets[ln] + m.start()
            if start < consumed:
                continue
            # matching paren
            depth, j = 0, offsets[ln] + m.end() - 1
            while j < len(text):
                if text[j] == "(":
                    depth += 1
                elif text[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            consumed = j + 1
            ret = r[: m.start()]
            ret = re.sub(r"^.*\[", "", ret)  # inline ifdef::x[...]
            ret = ret.replace("+", " ").strip()
            params_text = strip_italics(text[offsets[ln] + m.end(): j].replace("\n", " "))
            plist = split_params(params_text)
            params = [parse_param(p, k, len(plist)) for k, p in enumerate(plist)]
            params = [p for p in params if p != ("", "")]
            line_idx = cell.lines[min(ln, len(cell.lines) - 1)]
            req = base.and_(cond).and_(ifdef_req(lines[line_idx].ifdefs))
            inline = re.match(r"^\s*ifdef::(cl_\w+)\[", r)
            if inline:
                req = req.and_(Req(None, [[inline.group(1)]]))
            sigs.append(RawSig(m.group(1), strip_italics(ret), params, req))
    return sigs


def description_req(desc: str) -> tuple[Req, dict[str, Req], str | None]:
    """(requirement of the whole row, requirements of the functions a sentence names, deprecation)."""
    req, scoped = Req(), {}
    dep = None
    flat = " ".join(desc.split())
    for m in re.finditer(r"[Rr]equires>>(.*?)(?:\.\s|\.$|,$)", flat + " "):
        # "*write_imageh* requires support for cl_khr_fp16": that function only, not the row
        subject = re.search(r"\*(\w+)\*\s*<<[\w-]+,\s*$", flat[:m.start()])
        if subject:
            name = subject.group(1)
            scoped[name] = scoped.get(name, Req()).and_(parse_requirement(m.group(1)))
        else:
            req = req.and_(parse_requirement(m.group(1)))
    m = re.search(r"deprecated by>>\s*OpenCL C (\d\.\d)", flat)
    if m and "Scalar inputs" not in flat:
        dep = m.group(1)
    return req, scoped, dep


# --- expansion ----------------------------------------------------------------------------------

def normalize_type(t: str) -> str:
    t = " ".join(t.replace("*", " * ").split())
    words = t.split()
    quals = [w for w in words if w in ("const", "volatile")]
    aspace = [w if w.startswith("__") else f"__{w}" for w in words
              if w in ("__global", "__local", "__private", "__constant", "__generic", "global", "local", "private", "constant")]
    rest = [w for w in words if w not in quals and w.lstrip("_") not in ("global", "local", "private", "constant", "generic")]
    base = " ".join(w for w in rest if w != "*")
    stars = rest.count("*")
    out = " ".join(quals + aspace + [base])
    return out + (" " + "*" * stars if stars else "")


def gentype_ctx(line: Line) -> dict[str, list[tuple[str, int]]]:
    for key in (line.table, line.section, line.top):
        if key in SECTION_GENTYPES:
            return SECTION_GENTYPES[key]
    return {}


def expand(sig: RawSig, line: Line, gentypes: list[tuple[str, int]] | None = None) -> list[dict]:
    """The overloads a table signature stands for; `gentypes` replaces the section's meaning
    of `gentype` (the types an extension adds)."""
    ctx = gentype_ctx(line)
    opaque = line.section in OPAQUE_GENTYPE or line.top in OPAQUE_GENTYPE
    texts = [sig.ret] + [t for _, t in sig.params]
    joined = " ".join(texts) + " " + sig.name
    fam = None
    for g in ("gentypef", "gentyped", "gentypeh"):
        if re.search(rf"\b{g}\b", joined):
            fam = g
    if fam is None and re.search(r"\b[usi]?gentype\b|gentype<", joined) and not opaque:
        fam = "gentype"
    choices: list[tuple[str, int]] = ctx.get(fam, []) if fam else [("", 1)]
    if fam == "gentype" and gentypes is not None:
        choices = gentypes
    elif fam and not choices:
        choices = all_widths(INTS + FLOATS)
    ns = VEC if "<N>" in joined else [0]
    ms = [2, 4, 8, 16] if "<M>" in joined else [0]
    if "<N>" in joined and "<M>" in joined:
        ns = [2, 4, 8, 16]
    ops = COLLECTIVE_OPS if "<op>" in sig.name else [""]
    quals = [""]
    if re.search(r"\baQual\b", joined):
        quals = ["read_only", "write_only", "read_write"] if "write" not in sig.name else ["write_only", "read_write"]
        if "read_image" in sig.name:
            quals = ["read_only", "read_write"]
    out = []
    for (elem, width), n, mm, op, q in itertools.product(choices, ns, ms, ops, quals):
        def sub(t: str) -> str:
            if fam:
                u = UNSIGNED_OF_SIZE.get(elem, elem)
                t = re.sub(r"\bugentype<N>", vec(u, n), t)
                t = re.sub(r"\bugentype<M>", vec(u, mm), t)
                t = re.sub(rf"\b{fam}<N>", vec(elem, n), t)
                t = re.sub(rf"\b{fam}<M>", vec(elem, mm), t)
                t = re.sub(rf"\b{fam}\b", vec(elem, width), t)
                t = re.sub(r"\bugentype\b", vec(u, width), t)
                t = re.sub(r"\bsgentype\b", elem, t)
                t = re.sub(r"\bigentype\b", vec(SIGNED_OF_SIZE[elem], width), t)
            t = re.sub(r"(\w+)<N>", lambda m: vec(m.group(1), n), t)
            t = re.sub(r"(\w+)<M>", lambda m: vec(m.group(1), mm), t)
            t = re.sub(r"\baQual\b", q, t)
            return t
        name = sub(sig.name).replace("<op>", op)
        if fam == "gentype" and elem in ("half", "double", "float") and re.search(r"\b[ui]gentype\b", joined) \
                and line.top in ("integer-functions",):
            continue
        ret = normalize_type(sub(sig.ret))
        params = [{"name": pn, "type": normalize_type(sub(pt)) if pt != "..." else "..."} for pn, pt in sig.params]
        if sig.name == "sub_group_broadcast" and width > 1 and gentypes is None:
            continue  # vector broadcasts come from cl_khr_subgroup_extended_types only
        req = sig.req
        types = [ret] + [p["type"] for p in params]
        if any(re.search(r"\bdouble\d*\b", t) for t in types):
            req = req.and_(Req(None, FP64))
        if any(re.search(r"\bhalf\d*\b", t) and "*" not in t for t in types) or any(
                re.search(r"\bhalf\d*\b", t) for t in types) and not re.search(r"v(load|store)a?_half", name):
            req = req.and_(Req(None, FP16))
        if q == "read_write":
            req = req.and_(Req("2.0", [["__opencl_c_read_write_images"]]))
        if any(re.search(r"\bimage3d_t\b", t) for t in types) and "write" in name:
            req = req.and_(Req(None, [["__opencl_c_3d_image_writes"], ["cl_khr_3d_image_writes"]]))
        if any(not t.startswith(("const __", "volatile __", "__", "const volatile __")) and t.endswith("*")
               and "(^" not in t for t in types[1:]) and line.top not in (
                "address-space-qualifier-functions", "printf", "enqueuing-kernels", "pipe-functions") \
                and not line.section.startswith(("built-in-pipe", "built-in-functions-")) and req.since != "2.0":
            # a pointer without an address space is generic: 2.0 or the 3.0 feature
            pass
        out.append({"name": name, "returns": ret, "params": params, "req": req})
    return out


# --- atomics declaration blocks ---------------------------------------------------------------

ATOMIC_TYPES = [("atomic_int", "int", "int"), ("atomic_uint", "uint", "uint"), ("atomic_long", "long", "long"),
                ("atomic_ulong", "ulong", "ulong"), ("atomic_float", "float", "float"),
                ("atomic_double", "double", "double"), ("atomic_intptr_t", "intptr_t", "ptrdiff_t"),
                ("atomic_uintptr_t", "uintptr_t", "ptrdiff_t"), ("atomic_size_t", "size_t", "size_t"),
                ("atomic_ptrdiff_t", "ptrdiff_t", "ptrdiff_t")]
FETCH_KEYS = ["add", "sub", "or", "xor", "and", "min", "max"]


def atomic_blocks(lines: list[Line]) -> list[tuple[RawSig, Line]]:
    out: list[tuple[RawSig, Line]] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.top == "atomic-functions" and ln.text.startswith("[source,opencl_c]"):
            j = i + 2
            comment, decl, comment_done = "", "", False
            while j < len(lines) and not lines[j].text.startswith("----"):
                t = lines[j].text
                if t.startswith("//"):
                    if comment_done:
                        comment, comment_done = "", False
                    comment += " " + t[2:]
                elif t.strip():
                    comment_done = True
                    decl += " " + t.strip()
                    if decl.rstrip().endswith(")") or decl.rstrip().endswith(");"):
                        m = re.match(r"\s*(.*?)\b(\w+)\s*\((.*)\)\s*;?\s*$", decl)
                        if m and not m.group(1).strip().startswith("#"):
                            plist = split_params(m.group(3))
                            params = [parse_param(p, k, len(plist)) for k, p in enumerate(plist)]
                            params = [p for p in params if p != ("", "")]
                            req = parse_requirement(comment) if comment else Req()
                            req = req.and_(ifdef_req(lines[j].ifdefs)).and_(lines[j].section_req)
                            out.append((RawSig(m.group(2), m.group(1).strip(), params, req), lines[j]))
                        decl = ""
                j += 1
            i = j
        i += 1
    return out


def expand_atomic(sig: RawSig, line: Line) -> list[dict]:
    joined = " ".join([sig.ret] + [t for _, t in sig.params])
    keys = FETCH_KEYS if "_key" in sig.name else [""]
    out = []
    generic = re.search(r"\bA\b", joined)
    for (a, c, m), key in itertools.product(ATOMIC_TYPES if generic else [("", "", "")], keys):
        if key and c in ("float", "double"):
            continue  # fetch-and-modify on floating point comes from extensions
        if key and a in ("atomic_intptr_t", "atomic_uintptr_t") and key not in ("add", "sub"):
            mm = c
        else:
            mm = m
        def sub(t: str) -> str:
            t = re.sub(r"\bA\b", a, t)
            t = re.sub(r"\bC\b", c, t)
            return re.sub(r"\bM\b", mm, t)
        name = sig.name.replace("_key", f"_{key}") if key else sig.name
        params = [{"name": pn, "type": normalize_type(sub(pt))} for pn, pt in sig.params]
        ret = normalize_type(sub(sig.ret))
        req = sig.req
        if c in ("long", "ulong", "double"):
            req = req.and_(Req(None, INT64_ATOMICS))
        if c == "double":
            req = req.and_(Req(None, FP64))
        out.append({"name": name, "returns": ret, "params": params, "req": req})
    return out


# --- conversions (6.4.3, 6.4.4) -------------------------------------------------------------------

def conversions(lines: list[Line]) -> list[dict]:
    """convert_<type><n>[_sat][_rounding] and as_<type><n>, as section 6.4 defines them."""
    text = "\n".join(ln.text for ln in lines)
    anchor_conv = "explicit-conversions" if "[[explicit-conversions]]" in text else "conversions"
    anchor_as = "reinterpreting-types-using-as_type-and-as_typen"
    modes = re.findall(r"^\| `(_rt[enpz])`", text, re.M) or ["_rte", "_rtz", "_rtp", "_rtn"]
    types = INTS + FLOATS
    out = []
    for dst in types:
        for w in WIDTHS:
            for sat in ("", "_sat"):
                if sat and dst in FLOATS:
                    continue  # saturation is only defined for integer destinations
                for mode in [""] + modes:
                    name = f"convert_{vec(dst, w)}{sat}{mode}"
                    ovs = []
                    for src in types:
                        ovs.append({"name": name, "returns": vec(dst, w),
                                    "params": [{"name": "x", "type": vec(src, w)}],
                                    "req": type_req([dst, src])})
                    out.append({"anchor": anchor_conv, "overloads": ovs,
                                "summary": f"Converts a value to '{vec(dst, w)}'"
                                           f"{' with saturation' if sat else ''}"
                                           f"{' rounding ' + mode[1:] if mode else ''}."})
            name = f"as_{vec(dst, w)}"
            size = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "half": 2, "int": 4, "uint": 4,
                    "float": 4, "long": 8, "ulong": 8, "double": 8}
            nbytes = size[dst] * (4 if w == 3 else w)
            ovs = []
            for src in types:
                for sw in WIDTHS:
                    if size[src] * (4 if sw == 3 else sw) == nbytes and (src, sw) != (dst, w):
                        ovs.append({"name": name, "returns": vec(dst, w),
                                    "params": [{"name": "x", "type": vec(src, sw)}],
                                    "req": type_req([dst, src])})
            out.append({"anchor": anchor_as, "overloads": ovs,
                        "summary": f"Reinterprets the bits of a value of the same size as '{vec(dst, w)}'."})
    return out


def type_req(elems: list[str]) -> Req:
    req = Req()
    if "double" in elems:
        req = req.and_(Req(None, FP64))
    if "half" in elems:
        req = req.and_(Req(None, FP16))
    return req


# --- constants and types --------------------------------------------------------------------------

def constants(lines: list[Line]) -> list[dict]:
    out: dict[str, dict] = {}
    for i, ln in enumerate(lines):
        text = ln.text
        m = re.match(r"^#define\s+([A-Z_][A-Z0-9_]*)\s+(\S+)", text)
        c = re.match(r"^\|\s*`([A-Z][A-Z0-9_]+|memory_(?:order|scope)_\w+)`\s*(\|.*)?$", text)
        name = m.group(1) if m else (c.group(1) if c else None)
        if not name:  # CLK_* enumerants named in prose and tables (fence flags, sampler modes, errors)
            found = [k for k in re.findall(r"`(CLK_[A-Z0-9_]+)`", text) if not k.endswith("_") and k not in out]
            name = found[0] if found else None
            for extra in found[1:]:
                out[extra] = {"name": extra, "type": "int", "value": None, "since": None,
                              "requires": [], "spec": ln.section}
        if not name or name in out or not (ln.top.startswith(("built-in", "math", "integer", "atomic", "synchron",
                                                                "image", "enqueu", "floating", "legacy", "printf"))
                                           or ln.section.startswith(("floating-point-macros", "integer-macros",
                                                                     "order-and", "memory-scope", "samplers"))):
            continue
        if name.startswith(("CL_", "CLK_ADDRESS_MODE")) and not name.startswith("CLK_"):
            continue
        req = ifdef_req(ln.ifdefs).and_(ln.section_req)
        if name.startswith(("DBL_", "M_")) and not name.endswith(("_F", "_H")) or name in ("HUGE_VAL", "FP_FAST_FMA"):
            req = req.and_(Req(None, FP64))
        if name.startswith("HALF_") or name.endswith("_H") or name == "FP_FAST_FMA_HALF":
            req = req.and_(Req(None, FP16))
        ctype = ("float" if name.endswith("_F") or name.startswith("FLT_") and name not in ("FLT_DIG", "FLT_MANT_DIG", "FLT_RADIX") and "EXP" not in name
                 else "double" if name.startswith("DBL_") and "EXP" not in name and "DIG" not in name or (name.startswith("M_") and not name.endswith(("_F", "_H")))
                 else "half" if name.endswith("_H") or name in ("HALF_MAX", "HALF_MIN", "HALF_EPSILON")
                 else "memory_order" if name.startswith("memory_order_")
                 else "memory_scope" if name.startswith("memory_scope_")
                 else "cl_mem_fence_flags" if name.endswith("_MEM_FENCE") or name == "CLK_IMAGE_MEM_FENCE"
                 else "int")
        if name in ("MAXFLOAT", "HUGE_VALF", "INFINITY", "NAN"):
            ctype = "float"
        if name == "HUGE_VAL":
            ctype = "double"
        out[name] = {"name": name, "type": ctype, "value": m.group(2) if m else None,
                     "since": req.since, "requires": req.dnf, "spec": ln.section}
    return [out[k] for k in sorted(out)]


# Built-in types: (name, since, requires), per sections 6.3 (built-in data types) and 6.15.
BUILTIN_TYPES: list[tuple[str, str | None, list[list[str]]]] = [
    ("bool", None, []), ("char", None, []), ("uchar", None, []), ("short", None, []), ("ushort", None, []),
    ("int", None, []), ("uint", None, []), ("long", None, [["__opencl_c_int64"], []]), ("ulong", None, []),
    ("float", None, []), ("half", None, []), ("double", None, FP64), ("size_t", None, []),
    ("ptrdiff_t", None, []), ("intptr_t", None, []), ("uintptr_t", None, []), ("void", None, []),
    ("image2d_t", None, [["__opencl_c_images"]]), ("image3d_t", None, [["__opencl_c_images"]]),
    ("image2d_array_t", "1.2", [["__opencl_c_images"]]), ("image1d_t", "1.2", [["__opencl_c_images"]]),
    ("image1d_buffer_t", "1.2", [["__opencl_c_images"]]), ("image1d_array_t", "1.2", [["__opencl_c_images"]]),
    # table-other-builtin-types: "OpenCL C 2.0 or newer, or the cl_khr_depth_images extension" (and images)
    ("image2d_depth_t", None, [["cl_khr_depth_images"], ["__opencl_c_images", version_name("2.0")]]),
    ("image2d_array_depth_t", None, [["cl_khr_depth_images"], ["__opencl_c_images", version_name("2.0")]]),
    ("image2d_msaa_t", None, [["cl_khr_gl_msaa_sharing"]]), ("image2d_array_msaa_t", None, [["cl_khr_gl_msaa_sharing"]]),
    ("image2d_msaa_depth_t", None, [["cl_khr_gl_msaa_sharing"]]),
    ("image2d_array_msaa_depth_t", None, [["cl_khr_gl_msaa_sharing"]]),
    ("sampler_t", None, [["__opencl_c_images"]]), ("event_t", None, []),
    ("queue_t", "2.0", [["__opencl_c_device_enqueue"]]), ("ndrange_t", "2.0", [["__opencl_c_device_enqueue"]]),
    ("clk_event_t", "2.0", [["__opencl_c_device_enqueue"]]), ("reserve_id_t", "2.0", [["__opencl_c_pipes"]]),
    ("cl_mem_fence_flags", None, []), ("memory_order", "2.0", []), ("memory_scope", "2.0", []),
    ("atomic_int", "2.0", []), ("atomic_uint", "2.0", []), ("atomic_long", "2.0", INT64_ATOMICS),
    ("atomic_ulong", "2.0", INT64_ATOMICS), ("atomic_float", "2.0", []), ("atomic_double", "2.0", [
        ["__opencl_c_fp64", "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"],
        ["cl_khr_fp64", "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"]]),
    ("atomic_intptr_t", "2.0", []), ("atomic_uintptr_t", "2.0", []), ("atomic_size_t", "2.0", []),
    ("atomic_ptrdiff_t", "2.0", []), ("atomic_flag", "2.0", []),
    ("kernel_enqueue_flags_t", "2.0", [["__opencl_c_device_enqueue"]]),
    ("clk_profiling_info", "2.0", [["__opencl_c_device_enqueue"]]),
]


def types_list() -> list[dict]:
    out = []
    for name, since, req in BUILTIN_TYPES:
        req = [r for r in req if r]  # an empty alternative means optional only on some profiles
        out.append({"name": name, "since": since, "requires": req})
        if name in INTS + FLOATS:
            for w in VEC:
                out.append({"name": vec(name, w), "since": "1.1" if w == 3 else since, "requires": req})
    return sorted(out, key=lambda t: t["name"])


# --- assembly -------------------------------------------------------------------------------------

def category_of(line: Line) -> str:
    for prefix, cat in CATEGORIES:
        if line.top.startswith(prefix) or line.section.startswith(prefix):
            return cat
    return "misc"


def build(spec_path: Path) -> dict:
    # The spec breaks long names with a zero-width space (`get_kernel_preferred_&#8203;work_...`)
    # for the HTML; it is no part of the name.
    raw = spec_path.read_text(encoding="utf-8").replace("&#8203;", "").replace("\u200b", "").split("\n")
    lines = scan(raw)
    begin = next(i for i, ln in enumerate(raw) if ln.strip() == "[[built-in-functions]]")
    end = next(i for i, ln in enumerate(raw) if ln.strip() == "[[opencl-numerical-compliance]]")
    entries: dict[str, dict] = {}
    extra_gentypes = extension_gentypes(lines)

    def add(ov: dict, line: Line, summary: str, dep: str | None, anchor: str | None = None) -> None:
        name = ov["name"]
        e = entries.setdefault(name, {"name": name, "overloads": [], "spec": anchor or line.section,
                                      "category": category_of(line) if line else "conversion",
                                      "summary": summary, "deprecated": dep, "keys": set()})
        key = (ov["returns"], tuple(p["type"] for p in ov["params"]))
        if key in e["keys"]:
            return
        e["keys"].add(key)
        e["overloads"].append(ov)
        if not e["summary"]:
            e["summary"] = summary

    i = begin
    while i < end:
        m = re.match(r'^\[cols="?([^"\]]*)"?', raw[i])
        if m and raw[i + 1].startswith("|==="):
            ncols = len(m.group(1).split(","))
            j = i + 2
            while not raw[j].startswith("|==="):
                j += 1
            cells = table_cells(lines, i + 2, j)
            if ncols >= 2:
                rows = [cells[k:k + ncols] for k in range(ncols, len(cells), ncols)]
                for row in rows:
                    sig_cell, desc = row[0], row[1].text if len(row) > 1 else ""
                    if "**" in sig_cell.text and "(" not in sig_cell.text:
                        continue  # extension summary tables list names only
                    line = lines[sig_cell.lines[0]]
                    dreq, scoped, ddep = description_req(desc)
                    base = line.section_req.and_(dreq)
                    base = base.and_(ifdef_req(line.ifdefs))
                    for sig in cell_signatures(Cell(sig_cell.lines, substitute_attrs(sig_cell.text)), lines, base):
                        if sig.name in scoped:
                            sig.req = sig.req.and_(scoped[sig.name])
                        for ov in expand(sig, line) + extension_overloads(sig, line, extra_gentypes):
                            add(ov, line, summary_of(desc), ddep or line.deprecated)
            i = j + 1
            continue
        i += 1
    for sig, line in atomic_blocks(lines):
        if not sig.name.startswith("atomic_"):
            continue  # code examples in the prose, and the ATOMIC_VAR_INIT macro
        desc = atomic_summary(lines, line)
        for ov in expand_atomic(sig, line):
            add(ov, line, desc, line.deprecated)
    for conv in conversions(lines):
        for ov in conv["overloads"]:
            add(ov, None, conv["summary"], None, conv["anchor"])  # type: ignore[arg-type]
    functions = []
    for name in sorted(entries):
        e = entries[name]
        reqs = [ov.pop("req") for ov in e["overloads"]]
        common = common_req(reqs)
        ovs = []
        for ov, r in zip(e["overloads"], reqs):
            item = {"returns": ov["returns"], "params": ov["params"]}
            if r.since != common.since and r.since:
                item["since"] = r.since
            if r.dnf != common.dnf:
                item["requires"] = r.dnf
            ovs.append(item)
        ovs.sort(key=lambda o: (o["returns"], [p["type"] for p in o["params"]]))
        functions.append({"name": name, "category": e["category"], "summary": e["summary"],
                          "since": common.since or "1.0", "requires": common.dnf,
                          "deprecated": e["deprecated"], "removed": None, "spec": e["spec"], "overloads": ovs})
    return {"spec_url": "https://registry.khronos.org/OpenCL/specs/3.0-unified/html/OpenCL_C.html",
            "source": spec_path.name, "functions": functions, "types": types_list(),
            "constants": constants(lines[begin - 3000:end])}


def extension_gentypes(lines: list[Line]) -> list[ExtensionGentypes]:
    """The EXTENSION_GENTYPES whose note is in the spec: an `ifdef::extension[]` line of the
    section that speaks of `gentype`."""
    notes = {(ln.section, name) for ln in lines if "gentype" in ln.text for name in ln.ifdefs}
    return [e for e in EXTENSION_GENTYPES if (e.section, e.extension) in notes]


def extension_overloads(sig: RawSig, line: Line, extra: list[ExtensionGentypes]) -> list[dict]:
    """The overloads extensions add to a table signature, each also needing its extension."""
    out = []
    for e in extra:
        if line.table == e.table and sig.name in e.names:
            req = sig.req.and_(Req(None, [[e.extension]]))
            out += expand(RawSig(sig.name, sig.ret, sig.params, req), line, e.types)
    return out


def common_req(reqs: list[Req]) -> Req:
    """The requirement every overload shares: the minimum version, and the DNF if all agree."""
    since = min((r.since or "1.0" for r in reqs), default="1.0")
    dnfs = {json.dumps(r.dnf) for r in reqs}
    dnf = reqs[0].dnf if len(dnfs) == 1 else []
    if len(dnfs) > 1:
        # keep alternatives' common conjuncts when every overload has exactly one alternative
        if all(len(r.dnf) == 1 for r in reqs):
            shared = set.intersection(*(set(r.dnf[0]) for r in reqs))
            dnf = [sorted(shared)] if shared else []
    return Req(None if since == "1.0" else since, dnf)


def atomic_summary(lines: list[Line], line: Line) -> str:
    idx = lines.index(line)
    k = idx
    while k < len(lines) and not lines[k].text.startswith("----"):
        k += 1
    k += 1
    para = []
    while k < len(lines) and lines[k].text.strip() != "--":
        if lines[k].text.strip() == "" and para:
            if not para[-1].startswith("The _order_") and not para[0].startswith("The _order_"):
                break
            para = []
            k += 1
            continue
        para.append(lines[k].text)
        k += 1
    text = " ".join(p for p in para if not p.startswith(("NOTE", "The _order_")))
    return summary_of(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("spec", nargs="?", type=Path, default=DEFAULT_SPEC)
    ap.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    if not args.spec.is_file():
        print(f"gen_catalogue: spec not found: {args.spec}", file=sys.stderr)
        return 2
    data = build(args.spec)
    for f in data["functions"]:
        for key in list(f):
            if isinstance(f[key], set):
                del f[key]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    n_ov = sum(len(f["overloads"]) for f in data["functions"])
    print(f"wrote {args.output}: {len(data['functions'])} functions, {n_ov} overloads, "
          f"{len(data['types'])} types, {len(data['constants'])} constants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
