"""mlebench.data.tfrecord: record framing, checksums and the tf.train.Example codec."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from mlebench.data.tfrecord import (
    TFRecordError,
    bytes_feature,
    decode_example,
    encode_example,
    float_feature,
    int64_feature,
    masked_crc32c,
    read_records,
    write_records,
)


def test_masked_crc32c_known_values() -> None:
    # CRC-32C("123456789") is the standard check value 0xE3069283; TFRecord masks it as
    # rotr15(crc) + 0xA282EAD8. An empty string has CRC 0, so its mask is the delta itself.
    assert masked_crc32c(b"123456789") == 0xC78AB0E5
    assert masked_crc32c(b"") == 0xA282EAD8


def test_records_round_trip(tmp_path: Path) -> None:
    payloads = [b"", b"one", bytes(range(256)) * 3]
    path = tmp_path / "x.tfrec"
    assert write_records(path, iter(payloads)) == 3
    assert list(read_records(path)) == payloads
    head = path.read_bytes()[:12]
    assert head[:8] == struct.pack("<Q", 0)
    assert struct.unpack("<I", head[8:])[0] == masked_crc32c(head[:8])


def test_example_round_trip() -> None:
    features = {
        "image": bytes_feature(b"\xff\xd8jpeg", b""),
        "image_name": bytes_feature(b"ISIC_0000001"),
        "scores": float_feature(0.5, -2.25),
        "target": int64_feature(1),
        "ids": int64_feature(0, 300, -7, 2**62),
        "empty": int64_feature(),
    }
    decoded = decode_example(encode_example(features))
    assert decoded == features
    assert list(decoded) == list(features)


def test_decode_accepts_unpacked_numeric_lists() -> None:
    # int64_list {value: 5 value: 6} and float_list {value: 1.0} written unpacked (wire types 0 and 5).
    int_list = b"\x08\x05\x08\x06"
    float_list = b"\x0d" + struct.pack("<f", 1.0)

    def entry(name: bytes, kind_field: int, body: bytes) -> bytes:
        feature = bytes([kind_field << 3 | 2, len(body)]) + body
        inner = b"\x0a" + bytes([len(name)]) + name + b"\x12" + bytes([len(feature)]) + feature
        return b"\x0a" + bytes([len(inner)]) + inner

    features = entry(b"n", 3, int_list) + entry(b"f", 2, float_list)
    example = b"\x0a" + bytes([len(features)]) + features
    assert decode_example(example) == {"n": int64_feature(5, 6), "f": float_feature(1.0)}


def test_corrupt_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.tfrec"
    write_records(path, [b"first", b"second record"])
    data = bytearray(path.read_bytes())
    data[-6] ^= 0x01  # flip a bit in the second payload
    path.write_bytes(bytes(data))
    records = read_records(path)
    assert next(records) == b"first"
    with pytest.raises(TFRecordError, match=r"bad\.tfrec: record 1 at byte 21: payload checksum"):
        next(records)


def test_truncated_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "short.tfrec"
    write_records(path, [b"payload"])
    path.write_bytes(path.read_bytes()[:-2])
    with pytest.raises(TFRecordError, match="short.tfrec: record 0 at byte 0: truncated"):
        list(read_records(path))
