"""Just enough TFRecord and tf.train.Example handling for cassava, in pure Python (no TensorFlow).

A TFRecord file is a run of records: uint64 length, masked CRC-32C of the length, the payload, masked CRC-32C
of the payload. Each payload is a serialized tf.train.Example, a protobuf map from feature name to a
bytes, float or int64 list.
"""

import struct
from collections.abc import Iterator
from pathlib import Path


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc_table()


def _masked_crc(data: bytes) -> int:
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def read_records(path: Path) -> Iterator[bytes]:
    """Yield the payloads of a TFRecord file (checksums are not verified)."""
    with path.open("rb") as src:
        while head := src.read(12):
            (length,) = struct.unpack("<Q", head[:8])
            yield src.read(length)
            src.read(4)


def write_records(path: Path, payloads) -> None:
    """Write ``payloads`` as a TFRecord file."""
    with path.open("wb") as out:
        for payload in payloads:
            head = struct.pack("<Q", len(payload))
            out.write(head + struct.pack("<I", _masked_crc(head)) + payload)
            out.write(struct.pack("<I", _masked_crc(payload)))


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            return value, pos


def _fields(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(field number, payload) of each length-delimited field of a protobuf message."""
    pos = 0
    while pos < len(data):
        tag, pos = _read_varint(data, pos)
        if tag & 7 != 2:
            raise ValueError(f"unexpected protobuf wire type {tag & 7}")
        length, pos = _read_varint(data, pos)
        yield tag >> 3, data[pos : pos + length]
        pos += length


def _delimited(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def features(example: bytes) -> dict[str, bytes]:
    """Feature name -> serialized tf.train.Feature, in stored order."""
    found = {}
    for _, feats in _fields(example):
        for _, entry in _fields(feats):
            parts = dict(_fields(entry))
            found[parts[1].decode()] = parts.get(2, b"")
    return found


def bytes_value(feature: bytes) -> bytes:
    """Return the first value of a bytes_list feature."""
    for _, bytes_list in _fields(feature):
        for _, value in _fields(bytes_list):
            return value
    raise ValueError("empty bytes_list feature")


def example(feats: dict[str, bytes]) -> bytes:
    """Serialize a tf.train.Example from feature name -> serialized tf.train.Feature."""
    entries = b"".join(_delimited(1, _delimited(1, k.encode()) + _delimited(2, v)) for k, v in feats.items())
    return _delimited(1, entries)


def bytes_feature(value: bytes) -> bytes:
    """Serialize a one-value bytes_list feature."""
    return _delimited(1, _delimited(1, value))


def int64_feature(value: int) -> bytes:
    """Serialize a one-value int64_list feature."""
    return _delimited(3, _delimited(1, _varint(value)))
