"""TFRecord files and tf.train.Example records, without TensorFlow.

A TFRecord file is a run of records, each framed as::

    uint64 length | uint32 masked CRC-32C of the length bytes | payload | uint32 masked CRC-32C of payload

(little-endian). Kaggle ships image data sets this way; each payload is a serialized ``tf.train.Example``:
a protobuf map from feature name to a ``Feature`` holding one of a bytes, float or int64 list. This module
reads (verifying every checksum) and writes such files, and encodes/decodes just those three list kinds.
Unknown protobuf fields are skipped on decode.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import crc32c

__all__ = [
    "Feature",
    "TFRecordError",
    "bytes_feature",
    "decode_example",
    "encode_example",
    "float_feature",
    "int64_feature",
    "masked_crc32c",
    "read_records",
    "write_records",
]

Kind = Literal["bytes_list", "float_list", "int64_list"]
_KIND_FIELD: dict[Kind, int] = {"bytes_list": 1, "float_list": 2, "int64_list": 3}
_FIELD_KIND: dict[int, Kind] = {v: k for k, v in _KIND_FIELD.items()}
_MASK_DELTA = 0xA282EAD8
_U32, _U64 = 0xFFFFFFFF, (1 << 64) - 1


class TFRecordError(ValueError):
    """A TFRecord file is truncated or fails a checksum."""


def masked_crc32c(data: bytes) -> int:
    """CRC-32C of ``data``, rotated right by 15 bits plus 0xA282EAD8, as TFRecord framing stores it."""
    crc = crc32c.crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & _U32


def read_records(path: Path) -> Iterator[bytes]:
    """Yield the payloads of the TFRecord file ``path``, checking both CRCs of every record.

    Raises ``TFRecordError`` naming the file, record index and byte offset on truncation or a bad checksum.
    """
    with Path(path).open("rb") as src:
        index = offset = 0
        while head := src.read(12):
            where = f"{path}: record {index} at byte {offset}"
            if len(head) < 12:
                raise TFRecordError(f"{where}: truncated length header")
            (length,) = struct.unpack("<Q", head[:8])
            if struct.unpack("<I", head[8:])[0] != masked_crc32c(head[:8]):
                raise TFRecordError(f"{where}: length checksum mismatch (corrupt file?)")
            payload, tail = src.read(length), src.read(4)
            if len(payload) < length or len(tail) < 4:
                raise TFRecordError(f"{where}: truncated payload")
            if struct.unpack("<I", tail)[0] != masked_crc32c(payload):
                raise TFRecordError(f"{where}: payload checksum mismatch (corrupt file?)")
            yield payload
            index, offset = index + 1, offset + 16 + length


def write_records(path: Path, payloads: Iterable[bytes]) -> int:
    """Write ``payloads`` as the TFRecord file ``path`` (streamed); return how many were written."""
    count = 0
    with Path(path).open("wb") as out:
        for payload in payloads:
            head = struct.pack("<Q", len(payload))
            out.write(head + struct.pack("<I", masked_crc32c(head)))
            out.write(payload + struct.pack("<I", masked_crc32c(payload)))
            count += 1
    return count


@dataclass(frozen=True)
class Feature:
    """One ``tf.train.Feature``: its list kind and values (bytes, floats or ints)."""

    kind: Kind
    values: tuple[bytes, ...] | tuple[float, ...] | tuple[int, ...]


def bytes_feature(*values: bytes) -> Feature:
    """Make a bytes_list feature."""
    return Feature("bytes_list", tuple(values))


def float_feature(*values: float) -> Feature:
    """Make a float_list feature (stored as 32-bit floats)."""
    return Feature("float_list", tuple(float(v) for v in values))


def int64_feature(*values: int) -> Feature:
    """Make an int64_list feature."""
    return Feature("int64_list", tuple(int(v) for v in values))


def encode_example(features: Mapping[str, Feature]) -> bytes:
    """Serialize a ``tf.train.Example`` with ``features`` in the given order (numeric lists packed)."""
    entries = bytearray()
    for name, feature in features.items():
        if feature.kind == "bytes_list":
            body = b"".join(_delimited(1, value) for value in feature.values)
        elif feature.kind == "float_list":
            packed = struct.pack(f"<{len(feature.values)}f", *feature.values)
            body = _delimited(1, packed) if feature.values else b""
        else:
            packed = b"".join(_varint(v & _U64) for v in feature.values)
            body = _delimited(1, packed) if feature.values else b""
        value = _delimited(_KIND_FIELD[feature.kind], body)
        entries += _delimited(1, _delimited(1, name.encode()) + _delimited(2, value))
    return _delimited(1, bytes(entries))


def decode_example(payload: bytes) -> dict[str, Feature]:
    """Parse a serialized ``tf.train.Example`` into feature name -> ``Feature``, in stored order."""
    found: dict[str, Feature] = {}
    for number, _, features in _fields(payload):
        if number != 1:
            continue
        for entry_number, _, entry in _fields(features):
            if entry_number != 1:
                continue
            parts = {n: v for n, _, v in _fields(entry)}
            name = bytes(parts.get(1, b"")).decode()
            found[name] = _decode_feature(name, bytes(parts.get(2, b"")))
    return found


def _decode_feature(name: str, data: bytes) -> Feature:
    for number, wire, body in _fields(data):
        kind = _FIELD_KIND.get(number)
        if kind is None or wire != 2:
            continue
        if kind == "bytes_list":
            return Feature(kind, tuple(bytes(v) for n, _, v in _fields(body) if n == 1))
        values: list = []
        for n, w, v in _fields(body):
            if n != 1:
                continue
            if kind == "float_list":
                raw = v if w == 2 else struct.pack("<I", v)
                values += struct.unpack(f"<{len(raw) // 4}f", raw)
            elif w == 2:
                pos = 0
                while pos < len(v):
                    item, pos = _read_varint(v, pos)
                    values.append(_signed(item))
            else:
                values.append(_signed(v))
        return Feature(kind, tuple(values))
    raise ValueError(f"tf.train.Example feature {name!r} holds no bytes, float or int64 list")


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _read_varint(data: bytes | memoryview, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data):
            raise ValueError("truncated protobuf varint")
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            return value, pos


def _delimited(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _fields(data: bytes | memoryview) -> Iterator[tuple[int, int, memoryview | bytes | int]]:
    """(field number, wire type, value) of each field of a protobuf message.

    Varint and fixed32 fields yield ints (fixed32 as its unsigned value), length-delimited fields yield a
    memoryview slice; fixed64 fields yield their 8 raw bytes. Groups are not supported.
    """
    view, pos = memoryview(data), 0
    while pos < len(view):
        key, pos = _read_varint(view, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(view, pos)
        elif wire == 2:
            size, pos = _read_varint(view, pos)
            value, pos = view[pos : pos + size], pos + size
            if pos > len(view):
                raise ValueError("truncated protobuf field")
        elif wire == 5:
            (value,), pos = struct.unpack_from("<I", view, pos), pos + 4
        elif wire == 1:
            value, pos = bytes(view[pos : pos + 8]), pos + 8
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value
