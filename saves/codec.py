"""Provides the save file codec: two msgpack objects (header, body), bounded unpacking and the checksum.

Layout (see ``saves/FORMAT.md``): the header is a msgpack map whose first entries are ``magic`` and
``format``, and which ends with the body's length and SHA-256; the body is a msgpack map holding a copy of
the header (without those two entries) and the game. Nothing here knows about games: this module turns
``(header, body)`` dicts into bytes and back, and checks everything it can about the bytes on the way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgpack

import engine

from . import migrations
from .errors import SaveError, shown

__all__ = [
    "BODY_LIMITS",
    "HEADER_LIMITS",
    "MAGIC",
    "MAX_FILE_BYTES",
    "MAX_HEADER_BYTES",
    "SIGNATURE",
    "Limits",
    "Packed",
    "decode_header",
    "pack_array",
    "pack_save",
    "pack_value",
    "read_header_dict",
    "split_save",
    "unpack_save",
]

MAGIC = "planspiel"
"""The value of the header's first entry, ``magic``."""

SIGNATURE = b"\xa5magic\xa9planspiel"
"""The bytes of the header's first entry (``"magic": "planspiel"`` in msgpack), at offset 3 of every save; a
reader looks for them in the first 32 bytes to tell a damaged save from a file that is not a save."""

MAX_FILE_BYTES = 8 * 1024 * 1024
"""The largest save file read (a finished Hannut game is about 0.1 MB)."""

MAX_HEADER_BYTES = 64 * 1024
"""The largest header read (a header is about 0.5 KB)."""

_BODY_KEYS = ("body_size", "body_sha256")


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds for unpacking one msgpack object, so that a hostile file cannot exhaust memory."""

    buffer: int
    """The most bytes fed to the unpacker (``max_buffer_size``)."""
    str_len: int
    bin_len: int
    array_len: int
    map_len: int
    containers: int
    """The most arrays and maps in the whole object: each costs memory even when empty, so this bounds the
    memory an object of ``buffer`` bytes can take (msgpack itself limits only each container's length)."""
    depth: int
    """The deepest nesting of arrays and maps (msgpack allows 1,024 levels, far more than Python code can walk
    recursively): a deeper object is refused before anything reads it."""


HEADER_LIMITS = Limits(
    buffer=MAX_HEADER_BYTES, str_len=16 * 1024, bin_len=64, array_len=1024, map_len=1024, containers=4096, depth=8
)
"""A header nests 3 levels deep (the header, its ``sides``, each side)."""
BODY_LIMITS = Limits(
    buffer=MAX_FILE_BYTES,
    str_len=MAX_FILE_BYTES,
    bin_len=MAX_FILE_BYTES,
    array_len=1_000_000,
    map_len=1_000_000,
    containers=200_000,
    depth=64,
)
"""The bodies of real saves of every shipped scenario nest at most 10 levels deep (an Art of Tactic position
keeps a copy of the state inside the state)."""


class _TooManyContainers(ValueError):
    pass


class _TooDeep(ValueError):
    pass


def _check_depth(value: Any, limit: int) -> None:
    """Raise :class:`_TooDeep` if arrays and maps nest more than ``limit`` levels in ``value``; one pass over
    the containers, without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            raise _TooDeep(f"arrays and maps nested more than {limit} levels deep")
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))


class _Budget:
    """Counts the arrays and maps an unpacker builds (its list and object hooks) and stops it at a limit."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def _spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _TooManyContainers("too many arrays and maps")

    def on_list(self, value: list[Any]) -> list[Any]:
        self._spend()
        return value

    def on_map(self, value: dict[str, Any]) -> dict[str, Any]:
        self._spend()
        return value


def _unpacker(limits: Limits, *, strict_keys: bool = True) -> Any:
    """An unpacker bounded by ``limits``; ``strict_keys`` allows only text keys (the body also allows numbers
    in ruleset data; a key that cannot be a dict key then fails as damage)."""
    budget = _Budget(limits.containers)
    return msgpack.Unpacker(
        None,
        raw=False,
        use_list=True,
        strict_map_key=strict_keys,
        max_buffer_size=limits.buffer,
        max_str_len=limits.str_len,
        max_bin_len=limits.bin_len,
        max_array_len=limits.array_len,
        max_map_len=limits.map_len,
        max_ext_len=0,
        list_hook=budget.on_list,
        object_hook=budget.on_map,
    )


def _describe(err: BaseException) -> str:
    if isinstance(err, msgpack.StackError):
        return "nested too deeply"
    if isinstance(err, msgpack.OutOfData):
        return "it ends early"
    if isinstance(err, msgpack.BufferFull):
        return "it is too large"
    if isinstance(err, UnicodeDecodeError):
        return "text that is not UTF-8"
    return str(err) or type(err).__name__


@dataclass(frozen=True, slots=True)
class Packed:
    """A value already packed with msgpack: :func:`pack_save` writes its bytes as they are (encoders re-use the
    packed history, log and scenario text from one save to the next instead of packing them again)."""

    data: bytes


def pack_array(items: list[bytes]) -> Packed:
    """A msgpack array of already packed items (the same bytes as packing the list of their values)."""
    return Packed(bytes(msgpack.Packer(use_bin_type=True).pack_array_header(len(items))) + b"".join(items))


def pack_value(value: Any) -> bytes:
    """``value`` packed the way a save packs it."""
    return bytes(msgpack.packb(value, use_bin_type=True))


def _pack_map(entries: list[tuple[str, Any]]) -> bytes:
    packer = msgpack.Packer(use_bin_type=True)
    out = [bytes(packer.pack_map_header(len(entries)))]
    for key, value in entries:
        out.append(bytes(packer.pack(key)))
        out.append(value.data if isinstance(value, Packed) else bytes(packer.pack(value)))
    return b"".join(out)


def pack_save(header: dict[str, Any], body: dict[str, Any]) -> bytes:
    """The bytes of a save: ``header`` (with the body's size and checksum added) then the body.

    The body written holds ``header`` as its first entry, ``"header"``, then the entries of ``body``, whose
    values may be :class:`Packed`. The bytes are the same as ``msgpack.packb`` of the plain dicts.

    Raises:
        TypeError, ValueError, OverflowError: a value msgpack cannot write (not plain data, or an integer
            beyond 64 bits).
    """
    packed_body = _pack_map([("header", header), *body.items()])
    full = {**header, "body_size": len(packed_body), "body_sha256": hashlib.sha256(packed_body).digest()}
    return pack_value(full) + packed_body


def _looks_like_ours(data: bytes) -> bool:
    return SIGNATURE in data[:32]


def _not_ours(name: str, data: bytes) -> SaveError:
    if not data:
        return SaveError(name, "is empty: not a Planspiel save")
    return SaveError(name, "is not a Planspiel save (no planspiel header at the start)")


def _check_version(name: str, raw: dict[str, Any]) -> int:
    version = raw.get("format")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(name, f"is damaged: the header names no valid save format ({shown(version)})")
    current = migrations.FORMAT_VERSION
    if version > current:
        app = raw.get("app")
        made_by = f"Planspiel {app}" if isinstance(app, str) and len(app) < 40 else "a newer Planspiel"
        raise SaveError(
            name,
            f"was made by a newer version of Planspiel ({made_by}, save format {version}); this is Planspiel "
            f"{engine.__version__}, which reads save formats 1 to {current}: update Planspiel to load it",
        )
    return version


def decode_header(data: bytes, name: str) -> tuple[dict[str, Any], int, int]:
    """Read the header at the start of ``data`` (the whole file, or at least its first bytes).

    Checks the magic and the format version (a newer format is refused), without migrating.

    Args:
        data: the file's bytes (the first :data:`MAX_HEADER_BYTES` are enough).
        name: the file's name for messages.

    Returns:
        ``(header, format version, offset of the body)``; the header is the raw dict as stored.

    Raises:
        SaveError: empty, not a Planspiel save, truncated, damaged or of a newer format.
    """
    unpacker = _unpacker(HEADER_LIMITS)
    head = data[:MAX_HEADER_BYTES]
    ours = _looks_like_ours(head)
    try:
        unpacker.feed(head)
        raw = unpacker.unpack()
        end = int(unpacker.tell())
        if isinstance(raw, (dict, list)):
            _check_depth(raw, HEADER_LIMITS.depth)
    except msgpack.OutOfData:
        if not ours:
            raise _not_ours(name, data) from None
        if len(data) < MAX_HEADER_BYTES:
            raise SaveError(name, f"is truncated: the file ends inside its header, after {len(data)} bytes") from None
        raise SaveError(name, f"is damaged: its header is larger than {MAX_HEADER_BYTES} bytes") from None
    except Exception as err:  # msgpack raises several types for bad bytes; each is a damaged file
        if not ours:
            raise _not_ours(name, data) from None
        raise SaveError(name, f"is damaged: its header cannot be read ({_describe(err)})") from None
    if not isinstance(raw, dict) or raw.get("magic") != MAGIC:
        raise _not_ours(name, data)
    return raw, _check_version(name, raw), end


def split_save(data: bytes, name: str) -> tuple[dict[str, Any], int, bytes]:
    """Check a save's header, size and checksum, without reading its body.

    Returns:
        ``(raw header, format version, body bytes)``.

    Raises:
        SaveError: too large, not a Planspiel save, truncated, damaged, or of a newer format.
    """
    if len(data) > MAX_FILE_BYTES:
        raise SaveError(name, f"is too large for a save ({len(data)} bytes; the limit is {MAX_FILE_BYTES})")
    raw, version, end = decode_header(data, name)
    size, digest = raw.get("body_size"), raw.get("body_sha256")
    if not isinstance(size, int) or isinstance(size, bool) or size < 1 or not isinstance(digest, bytes):
        raise SaveError(name, "is damaged: its header has no valid body size and checksum")
    body_bytes = data[end:]
    if len(body_bytes) < size:
        raise SaveError(name, f"is truncated: the file ends after {len(data)} of {end + size} bytes")
    if len(body_bytes) > size:
        raise SaveError(name, f"is damaged: {len(body_bytes) - size} unexpected bytes follow the body")
    if hashlib.sha256(body_bytes).digest() != digest:
        raise SaveError(name, "is damaged: checksum mismatch (the body's SHA-256 differs from the header's)")
    return raw, version, body_bytes


def unpack_save(data: bytes, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check and read a whole save: header, size, checksum, body, the header's copy, then migrate.

    Args:
        data: the file's bytes.
        name: the file's name for messages.

    Returns:
        ``(header, body)`` as raw dicts of the current format; the header has no ``body_size`` and
        ``body_sha256`` entries, and the body's ``header`` entry is the same dict.

    Raises:
        SaveError: anything wrong with the bytes, each with its own sentence.
    """
    raw, version, body_bytes = split_save(data, name)
    unpacker = _unpacker(BODY_LIMITS, strict_keys=False)
    try:
        unpacker.feed(body_bytes)
        body = unpacker.unpack()
        rest = len(body_bytes) - int(unpacker.tell())
        if isinstance(body, (dict, list)):
            _check_depth(body, BODY_LIMITS.depth)
    except Exception as err:  # see decode_header
        raise SaveError(name, f"is damaged: its body cannot be read ({_describe(err)})") from None
    if rest:
        raise SaveError(name, f"is damaged: {rest} unexpected bytes follow the body")
    if not isinstance(body, dict):
        raise SaveError(name, "is damaged: its body is not a map")
    header = {k: v for k, v in raw.items() if k not in _BODY_KEYS}
    if body.get("header") != header:
        raise SaveError(name, "is damaged: its header differs from the copy kept in the body")
    body["header"] = header
    if version < migrations.FORMAT_VERSION:
        try:
            migrations.migrate(header, body, version)
        except Exception as err:  # a migration meeting data it does not expect
            raise SaveError(name, f"cannot be upgraded from save format {version}: {_describe(err)}") from None
    return header, body


def read_header_dict(data: bytes, name: str) -> dict[str, Any]:
    """The header at the start of ``data``, migrated to the current format, without its body entries.

    Raises:
        SaveError: see :func:`decode_header`.
    """
    raw, version, _ = decode_header(data, name)
    header = {k: v for k, v in raw.items() if k not in _BODY_KEYS}
    if version < migrations.FORMAT_VERSION:
        try:
            migrations.migrate(header, None, version)
        except Exception as err:  # see unpack_save
            raise SaveError(name, f"cannot be upgraded from save format {version}: {_describe(err)}") from None
    return header
