"""The kernels of host buffers as files of their own Host (analysis/embedded/documents.py),
as the language server reads them: host <-> kernel offsets, one-edit updates, and
diagnostics that equal `cllint check`'s after every edit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cllint.analysis.embedded import find_kernels, lint_host
from cllint.analysis.embedded.documents import EmbeddedHost, host_file_of, kernel_file, text_edit
from cllint.analysis.embedded.posmap import SYNTHETIC
from cllint.analysis.lint import LintOptions
from cllint.server import embedded

HERE = Path(__file__).parent
HOSTS = sorted(p for folder in ("fixtures", "heldout") for p in (HERE / folder).iterdir())


@pytest.mark.parametrize("path", HOSTS, ids=lambda p: p.name)
def test_host_offsets_map_to_the_kernel_bytes_they_produced(path: Path) -> None:
    source = path.read_bytes()
    for kernel in find_kernels(str(path), source):
        pos = kernel.positions
        first: dict[int, int] = {}
        for k, h in enumerate(pos.starts):
            if h != SYNTHETIC:
                first.setdefault(h, k)
        for h, k in first.items():
            assert pos.to_kernel(h) == k, (h, k)
            assert pos.to_host(k, k + 1)[0] == h
        inside = set(range(*pos.host_extent)) | {pos.host_extent[1]}
        for h in range(len(source) + 1):
            if h not in inside:
                assert pos.to_kernel(h) is None, h


def test_cursor_inside_an_escape_and_after_the_last_byte() -> None:
    src = b'import pyopencl as cl\nprg = cl.Program(ctx, "ab\\ncd" "ef")\n'
    pos = find_kernels("a.py", src)[0].positions
    assert pos.to_kernel(src.index(b"\\n") + 1) == 2  # on the 'n' of '\n': the newline it makes
    assert pos.to_kernel(src.index(b'" "')) == 5  # after 'cd', before the closing quote
    assert pos.to_kernel(src.index(b'" "') + 1) is None  # between the two literals
    assert pos.to_kernel(src.index(b"Program")) is None


def test_text_edit_is_one_minimal_edit() -> None:
    rng = random.Random(20)
    for _ in range(300):
        old = bytes(rng.choice(b"ab\n") for _ in range(rng.randrange(0, 12)))
        new = bytearray(old)
        for _ in range(rng.randrange(0, 3)):
            at = rng.randrange(0, len(new) + 1)
            new[at:at + rng.randrange(0, 3)] = bytes(rng.choice(b"abc") for _ in range(rng.randrange(0, 3)))
        e = text_edit(old, bytes(new))
        assert old[:e.start] + e.new_text + old[e.old_end:] == bytes(new)
        prefix = next((i for i in range(min(len(old), len(new))) if old[i] != new[i]), min(len(old), len(new)))
        suffix = next((i for i in range(min(len(old), len(new)) - prefix) if old[-1 - i] != new[-1 - i]),
                      min(len(old), len(new)) - prefix)
        assert (e.start, e.old_end) == (prefix, len(old) - suffix)  # nothing kept is rewritten


def test_kernel_file_ids() -> None:
    f = kernel_file("file:///a/app.py", 3)
    assert host_file_of(f) == "file:///a/app.py"
    assert host_file_of("file:///a/k.cl") is None
    assert host_file_of("file:///a/x#cllint-kernel-") is None


def _server_path(store: EmbeddedHost, uri: str, text: bytes, version: int, options: LintOptions):
    found = store.update(uri, version, text, options)
    return embedded.diagnostics(store, uri, text, options, found)


def _key(diags) -> list[tuple]:
    return sorted((d.code, d.span.file, d.span.start, d.span.end, d.message) for d in diags)


@pytest.mark.parametrize("path", HOSTS, ids=lambda p: p.name)
def test_language_server_diagnostics_equal_the_command_line_through_edits(path: Path) -> None:
    """Random edits inside the kernel strings: the incremental kernel Host reports what a
    fresh `lint_host` reports, at every version."""
    uri = str(path)
    text = path.read_bytes()
    options = LintOptions()
    store = EmbeddedHost()
    rng = random.Random(path.name)
    assert _key(_server_path(store, uri, text, 1, options)) == _key(lint_host(uri, text, options))
    edits = 0
    for version in range(2, 14):
        kernels = find_kernels(uri, text)
        if not kernels:
            break
        pos = rng.choice(kernels).positions
        hosts = [h for h in pos.starts if h != SYNTHETIC]
        at = rng.choice(hosts)
        if pos.to_kernel(at) is None or text[at:at + 1] in (b'"', b"'", b"\\", b"{", b"}", b"%", b"$"):
            continue
        edit = rng.choice([b"x", b";", b" ", b"", b"(", b"int q = 1;"])
        text = text[:at] + edit + text[at + (1 if edit == b"" else 0):]
        edits += 1
        assert _key(_server_path(store, uri, text, version, options)) == _key(lint_host(uri, text, options)), \
            (version, at, edit)
    assert edits >= 3 or not find_kernels(uri, path.read_bytes())
