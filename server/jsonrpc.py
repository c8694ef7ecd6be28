"""Answers for the messages pygls 2 would leave unanswered (JSON-RPC 2.0, sections 4.2 and 5.1).

pygls structures each message inside `json.loads`' object hook; when the params violate the
schema it raises there, the reader only logs it, and the request gets no response: the client
waits forever. CllintProtocol (server/lsp.py) keeps plain dicts through the hook, structures
the whole message once it is read, and answers what it cannot read with these errors.
"""

from __future__ import annotations

from typing import Any

from cattrs import ClassValidationError, transform_error

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
VERSION = "2.0"


def message_id(data: Any) -> int | str | None:
    """The id to answer with: null when the message has none JSON-RPC allows."""
    msg_id = data.get("id") if isinstance(data, dict) else None
    return msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None


def is_request(data: Any) -> bool:
    return isinstance(data, dict) and "id" in data and "method" in data


def error(msg_id: int | str | None, code: int, message: str) -> dict:
    return {"jsonrpc": VERSION, "id": msg_id, "error": {"code": code, "message": message}}


def invalid_params(method: str, exc: BaseException) -> str:
    """Where the params differ from the schema, as cattrs words it ("required field missing @ $.params.position")."""
    cause = exc.__cause__ if isinstance(exc.__cause__, ClassValidationError) else None
    where = transform_error(cause) if cause is not None else []
    return f"invalid params for '{method}'" + (f": {'; '.join(where[:3])}" if where else "")


def answer_for(data: Any, exc: BaseException | None) -> dict | None:
    """The error answer to a message that could not be read (None: a notification or a
    response, which JSON-RPC never answers). `exc` is pygls's structuring error, if any."""
    if not isinstance(data, dict):
        return error(None, INVALID_REQUEST, "a JSON-RPC message must be an object")
    if not is_request(data):
        return None
    msg_id, method = message_id(data), data.get("method")
    if data.get("jsonrpc") != VERSION or not isinstance(method, str) or msg_id is None:
        return error(msg_id, INVALID_REQUEST, "not a JSON-RPC 2.0 request (jsonrpc, id and method)")
    if isinstance(exc, Exception) and isinstance(exc.__cause__, ClassValidationError):
        return error(msg_id, INVALID_PARAMS, invalid_params(method, exc))
    return error(msg_id, INVALID_PARAMS, f"invalid params for '{method}'")
