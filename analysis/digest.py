"""blake2b for the analysis's digests, without `import hashlib`.

hashlib loads OpenSSL's `_hashlib` at import (~5 ms of a ~120 ms `cllint check` start-up)
although its blake2b is always CPython's own `_blake2.blake2b`; importing that directly is the
same function, digests included.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # a CPython built without its own blake2
    from hashlib import blake2b

__all__ = ["blake2b"]
