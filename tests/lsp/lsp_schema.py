"""Minimal valid LSP params built from the lsprotocol types, and schema-violating variants of
them, for the invalid-params property tests (issue 22, item 4)."""

from __future__ import annotations

import collections.abc
import enum
import types as pytypes
import typing
from typing import Any

import attrs
from hypothesis import strategies as st
from lsprotocol import types
from pygls.protocol import default_converter

CONVERTER = default_converter()
URI = "file:///tmp/cllint-lsp-test/schema.cl"
# never sent: they end the session that the other examples share
ENDING = {types.SHUTDOWN, types.EXIT}


def params_type(method: str) -> type | None:
    return types.METHOD_TO_TYPES[method][2]


def is_request(method: str) -> bool:
    return types.METHOD_TO_TYPES[method][1] is not None


def _minimal(tp: Any) -> Any:
    """A minimal value of type `tp`: required attrs fields only, the first choice of a union."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is str:
        return URI
    if tp in (int, float):
        return tp(0)
    if tp is bool:
        return False
    if tp in (type(None), Any, object):
        return None
    if origin in (typing.Union, pytypes.UnionType):
        return _minimal(next((a for a in args if a is not type(None)), type(None)))
    if origin is typing.Literal:
        return args[0]
    if origin in (list, tuple, collections.abc.Sequence) or tp is list:
        return []
    if origin in (dict, collections.abc.Mapping) or tp is dict:
        return {}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return next(iter(tp))
    if attrs.has(tp):
        hints = typing.get_type_hints(tp, vars(types))
        return tp(**{f.name: _minimal(hints[f.name]) for f in attrs.fields(tp) if f.default is attrs.NOTHING})
    raise TypeError(f"no minimal value for {tp!r}")


def minimal_params(method: str) -> Any:
    """The JSON form of the smallest valid params of `method`."""
    cls = params_type(method)
    return CONVERTER.unstructure(_minimal(cls), unstructure_as=cls)


def structures(method: str, params: Any) -> bool:
    """Whether the server's converter accepts `params` for `method` (the schema check)."""
    try:
        CONVERTER.structure(params, params_type(method))
    except Exception:  # noqa: BLE001 - any failure means the params violate the schema
        return False
    return True


MISSING = object()  # "delete this key"
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, prefix + (i,))
    return out


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        out = dict(value)
        if new is MISSING and not rest:
            out.pop(head, None)
        else:
            out[head] = _replace(value[head], rest, new)
        return out
    out = list(value)
    out[head] = _replace(value[head], rest, None if new is MISSING else new)
    return out


@st.composite
def mutated_params(draw: st.DrawFn, method: str) -> Any:
    """The minimal params with one key deleted or one value (or the whole) replaced by JSON
    garbage; MISSING at the root means the message has no "params" at all."""
    base = minimal_params(method)
    path = draw(st.sampled_from(_paths(base)))
    new = draw(st.just(MISSING) | JSON)
    return _replace(base, path, new) if path else new
