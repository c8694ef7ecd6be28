"""Launch descriptions: what to run a kernel with.

One description comes from up to three places, later ones winning per key:
a sidecar `FILE.cl.run.toml`, a `// cllint-run:` comment above the kernel, and the
command line. Whatever is left out is inferred from the kernel's signature.
Pure: no pyopencl, no numpy; the worker turns a resolved description into buffers.

Argument spec, `:`-separated fields (see docs/run-on-device.md):
    INIT[:TYPE][:COUNT][:seed=N][:show|hide][:save=PATH]
    INIT = zeros | ones | VALUE | fill(V) | range | range(START[,STOP]) | rand | rand(LO,HI)
         | file(PATH) | PATH.npy | local | local(BYTES)
A scalar argument takes a plain VALUE.
"""

from __future__ import annotations

import math
import re
import shlex
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from .results import RunnerError

SCALARS = {
    "char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16",
    "int": "int32", "uint": "uint32", "long": "int64", "ulong": "uint64",
    "float": "float32", "double": "float64", "half": "float16",
    "size_t": "uint64", "ptrdiff_t": "int64", "intptr_t": "int64", "uintptr_t": "uint64",
    "unsigned char": "uint8", "unsigned short": "uint16", "unsigned int": "uint32",
    "unsigned long": "uint64", "bool": "uint8",
}
_INITS = ("zeros", "ones", "fill", "range", "rand", "file", "local")
_DEFAULT_GLOBAL = 1024


@dataclass(frozen=True)
class Launch:
    """A (possibly partial) description; `args` maps a name or a position to a spec string."""

    global_size: tuple[int, ...] | None = None
    local_size: tuple[int, ...] | None = None
    iterations: int | None = None
    args: dict[str, str] = field(default_factory=dict)
    sources: tuple[str, ...] = ()  # where parts came from, for messages

    def merged(self, later: "Launch") -> "Launch":
        return Launch(
            later.global_size or self.global_size,
            later.local_size or self.local_size,
            later.iterations or self.iterations,
            {**self.args, **later.args},
            self.sources + later.sources,
        )


@dataclass(frozen=True)
class ArgInfo:
    """One kernel parameter as `clGetKernelArgInfo` reports it."""

    name: str
    type_name: str  # "float*", "uint", "float4*"
    address: str  # "global" | "local" | "constant" | "private"
    const: bool = False


@dataclass(frozen=True)
class Arg:
    """A resolved argument: exactly what the worker creates."""

    name: str
    kind: str  # "buffer" | "local" | "scalar"
    dtype: str  # numpy name of the scalar element
    width: int = 1  # vector components (float4 -> 4)
    count: int = 0  # elements of the OpenCL type (buffers, local)
    init: str = "rand"  # zeros | ones | fill | range | rand | file
    params: tuple[float, ...] = ()
    path: str = ""  # file() input
    seed: int = 0
    show: bool = False
    save: str = ""
    value: float = 0.0  # scalars

    def spec(self) -> str:
        """The canonical description of this argument, as `--arg` would take it."""
        type_name = _type_name(self.dtype, self.width)
        if self.kind == "scalar":
            return f"{self.name}={_num(self.value)}:{type_name}"
        if self.kind == "local":
            return f"{self.name}=local:{type_name}:{self.count}"
        init = self.init if not self.params else f"{self.init}({','.join(map(_num, self.params))})"
        if self.init == "file":
            init = f"file({self.path})"
        parts = [init, type_name, str(self.count)]
        if self.init == "rand":
            parts.append(f"seed={self.seed}")
        parts.append("show" if self.show else "hide")
        if self.save:
            parts.append(f"save={self.save}")
        return f"{self.name}=" + ":".join(parts)


@dataclass(frozen=True)
class Resolved:
    global_size: tuple[int, ...]
    local_size: tuple[int, ...] | None
    iterations: int
    args: tuple[Arg, ...]


# ---- parsing the three sources -------------------------------------------------------------


def parse_size(text: str) -> tuple[int, ...]:
    parts = [p for p in re.split(r"[,x×]", str(text).strip()) if p]
    if not 1 <= len(parts) <= 3 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise RunnerError(f"bad NDRange '{text}'", "give 1 to 3 positive sizes, e.g. '1024' or '64,64'")
    return tuple(int(p) for p in parts)


def from_cli(
    global_size: str | None, local_size: str | None, iterations: int | None, args: list[str]
) -> Launch:
    parsed: dict[str, str] = {}
    positional = 0
    for item in args:
        key, eq, spec = item.partition("=")
        if not eq or not key or key.startswith(("rand", "range", "fill", "file")):
            key, spec = str(positional), item  # `--arg rand:float` fills the next position
        parsed[key.strip()] = spec.strip()
        positional += 1
    return Launch(
        parse_size(global_size) if global_size else None,
        parse_size(local_size) if local_size else None,
        iterations,
        parsed,
        ("command line",) if (global_size or local_size or iterations or args) else (),
    )


_KERNEL = r"(?:__)?kernel\b[^;{(]*?\b{name}\s*\("
_ANNOT = re.compile(r"^\s*//\s*cllint-run:(.*)$")


def kernel_name_span(text: str, kernel: str) -> tuple[int, int] | None:
    """Character offsets of the kernel's name in its definition, or None (diagnostics about a
    run sit there)."""
    m = re.search(_KERNEL.replace("{name}", re.escape(kernel)), text)
    if not m:
        return None
    start = text.rindex(kernel, m.start(), m.end())
    return start, start + len(kernel)


def from_annotation(text: str, kernel: str) -> Launch:
    """`// cllint-run: global=1024 local=64 a=rand:float n=1024` lines right above the kernel."""
    m = re.search(_KERNEL.replace("{name}", re.escape(kernel)), text)
    if not m:
        return Launch()
    # the comment block that ends on the line just above the kernel's first line
    lines = text[: text.rfind("\n", 0, m.start()) + 1].rstrip().splitlines()
    tokens: list[str] = []
    for line in reversed(lines):
        a = _ANNOT.match(line)
        if a:
            tokens[:0] = shlex.split(a.group(1), comments=False)
        elif not line.strip().startswith("//"):
            break
    if not tokens:
        return Launch()
    keyed = dict(t.partition("=")[::2] for t in tokens)
    for t in tokens:
        if "=" not in t:
            raise RunnerError(f"cllint-run annotation item '{t}' is not 'key=value'",
                              "write e.g. '// cllint-run: global=1024 a=rand:float'")
    return _from_mapping(keyed, f"annotation above '{kernel}'")


def from_sidecar(path: Path, kernel: str) -> Launch:
    """`[KERNEL]` table of a TOML sidecar: global, local, iterations and an `args` table."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RunnerError(f"cannot read sidecar '{path}': {exc}", "fix the TOML syntax") from None
    table = data.get(kernel)
    if not isinstance(table, dict):
        return Launch()
    flat = {k: v for k, v in table.items() if k != "args"}
    flat.update({k: v for k, v in (table.get("args") or {}).items()})
    return _from_mapping(flat, str(path))


def _from_mapping(items: dict, source: str) -> Launch:
    def size(v: object) -> tuple[int, ...]:
        return parse_size(",".join(map(str, v)) if isinstance(v, list) else str(v))

    g = items.pop("global", None)
    lo = items.pop("local", None)
    it = items.pop("iterations", None)
    return Launch(
        size(g) if g is not None else None,
        size(lo) if lo is not None else None,
        int(it) if it is not None else None,
        {str(k): str(v) for k, v in items.items()},
        (source,),
    )


# ---- resolution against the kernel signature -----------------------------------------------


def _type_name(dtype: str, width: int) -> str:
    base = next(k for k, v in SCALARS.items() if v == dtype)
    return base + (str(width) if width > 1 else "")


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def split_type(type_name: str) -> tuple[str, int, bool] | None:
    """'float4*' -> ('float32', 4, True); None for types the runner cannot fill (images, structs)."""
    t = re.sub(r"\b(const|volatile|restrict|__global|global|__local|local|__constant|constant)\b", "",
               type_name).strip()
    pointer = t.endswith("*")
    t = t.rstrip("*").strip()
    m = re.fullmatch(r"([a-z_ ]+?)(2|3|4|8|16)?", t)
    if not m or m.group(1) not in SCALARS:
        return None
    return SCALARS[m.group(1)], int(m.group(2) or 1), pointer


def resolve(launch: Launch, sig: list[ArgInfo], kernel: str, max_wg: int = 256) -> Resolved:
    """Fill the gaps of `launch` from the signature; raise RunnerError when they disagree."""
    names = [a.name for a in sig]
    specs: dict[int, str] = {}
    for key, spec in launch.args.items():
        i = int(key) if key.isdigit() else (names.index(key) if key in names else -1)
        if not 0 <= i < len(sig):
            listed = ", ".join(f"'{n}'" for n in names) or "none"
            raise RunnerError(
                f"kernel '{kernel}' has no argument '{key}'",
                f"its {len(sig)} arguments are {listed}; name one of them or a position 0..{len(sig) - 1}",
            )
        specs[i] = spec

    explicit_counts = [c for i, s in specs.items() if (c := _explicit_count(s, sig[i]))]
    if launch.global_size:
        gsize = launch.global_size
    else:  # a buffer count given without a global size sets the NDRange: one item per element
        gsize = (explicit_counts[0],) if explicit_counts else (_DEFAULT_GLOBAL,)
    items = math.prod(gsize)
    lsize = launch.local_size
    if lsize and len(lsize) != len(gsize):
        raise RunnerError(f"local size {lsize} has {len(lsize)} dimensions but global size {gsize} has "
                          f"{len(gsize)}", "give both the same number of dimensions")
    if lsize and any(g % lo for g, lo in zip(gsize, lsize)):
        raise RunnerError(f"global size {gsize} is not a multiple of local size {lsize}",
                          "OpenCL 1.2 requires it; round the global size up")
    if lsize is None and any(a.address == "local" for a in sig):
        lsize = _pick_local(gsize, max_wg)
    args = tuple(_resolve_arg(i, a, specs.get(i), items, lsize, kernel) for i, a in enumerate(sig))
    return Resolved(tuple(gsize), lsize, launch.iterations or 10, args)


def _pick_local(gsize: tuple[int, ...], max_wg: int) -> tuple[int, ...]:
    # local memory needs a known work-group size: the largest power of two up to 64 that divides
    first = next(s for s in (64, 32, 16, 8, 4, 2, 1) if gsize[0] % s == 0 and s <= max_wg)
    return (first,) + (1,) * (len(gsize) - 1)


def _explicit_count(spec: str, info: ArgInfo) -> int | None:
    if info.address in ("local", "private"):
        return None
    for f in spec.split(":")[1:]:
        if f.isdigit():
            return int(f)
    return None


def _resolve_arg(i: int, info: ArgInfo, spec: str | None, items: int,
                 lsize: tuple[int, ...] | None, kernel: str) -> Arg:
    typ = split_type(info.type_name)
    where = f"argument '{info.name}' of '{kernel}'"
    if typ is None:
        raise RunnerError(f"{where} has type '{info.type_name}', which the runner cannot fill",
                          "run kernels whose arguments are scalars or pointers to scalar/vector types")
    dtype, width, pointer = typ
    fields = spec.split(":") if spec else []
    head = fields[0] if fields else ""
    opts = fields[1:]
    for f in opts:  # an explicit type must match the signature
        t = split_type(f)
        if t and not f.isdigit() and (t[0], t[1]) != (dtype, width):
            raise RunnerError(f"{where} is '{info.type_name}' but the description gives '{f}'",
                              f"write '{_type_name(dtype, width)}' or leave the type out")
    if info.address == "local":
        if head and not head.startswith("local"):
            raise RunnerError(f"{where} is a '__local' pointer but the description gives '{head}'",
                              "describe it as 'local', 'local:TYPE:COUNT' or 'local(BYTES)'")
        count = next((int(f) for f in opts if f.isdigit()), 0)
        if m := re.fullmatch(r"local\((\d+)\)", head):
            count = max(1, int(m.group(1)) // (_itemsize(dtype) * width))
        return Arg(info.name, "local", dtype, width, count or math.prod(lsize or (64,)))
    if not pointer:
        if not head:
            value = float(items) if dtype.startswith(("int", "uint")) else 1.0
        else:
            try:
                value = float(int(head, 0)) if re.fullmatch(r"-?(0x)?[0-9a-fA-F]+", head) else float(head)
            except ValueError:
                raise RunnerError(f"{where} is a scalar '{info.type_name}' but the description gives "
                                  f"'{spec}'", "give a number, e.g. n=1024") from None
        return Arg(info.name, "scalar", dtype, width, value=value)
    return _buffer(info, dtype, width, head, opts, items, i, where)


def _buffer(info: ArgInfo, dtype: str, width: int, head: str, opts: list[str], items: int,
            position: int, where: str) -> Arg:
    arg = Arg(info.name, "buffer", dtype, width, items, "rand", seed=position,
              show=not (info.const or info.address == "constant"))
    if head.endswith(".npy"):
        head = f"file({head})"
    if head:
        m = re.fullmatch(r"([a-z]+)(?:\((.*)\))?", head)
        if m and m.group(1) in _INITS and m.group(1) != "local":
            init, inner = m.group(1), m.group(2)
            if init == "file":
                arg = replace(arg, init="file", path=inner or "", count=0)
            else:
                params = tuple(float(p) for p in inner.split(",")) if inner else ()
                arg = replace(arg, init=init, params=params)
        else:
            try:
                arg = replace(arg, init="fill", params=(float(head),))
            except ValueError:
                raise RunnerError(f"{where} is a buffer '{info.type_name}' but the description gives "
                                  f"'{head}'", "start with zeros, ones, fill(V), range, rand, "
                                  "file(PATH.npy) or a number") from None
    for f in opts:
        key, _, val = f.partition("=")
        if f.isdigit():
            arg = replace(arg, count=int(f))
        elif key == "seed":
            arg = replace(arg, seed=int(val))
        elif f in ("show", "hide"):
            arg = replace(arg, show=f == "show")
        elif key == "save":
            arg = replace(arg, save=val, show=True)
        elif not split_type(f):
            raise RunnerError(f"unknown field '{f}' in the description of {where}",
                              "fields are TYPE, COUNT, seed=N, show, hide, save=PATH")
    if arg.init == "range" and len(arg.params) == 2 and not any(f.isdigit() for f in opts):
        arg = replace(arg, count=max(1, int(arg.params[1] - arg.params[0])))
    return arg


def _itemsize(dtype: str) -> int:
    return int(re.sub(r"\D", "", dtype)) // 8
