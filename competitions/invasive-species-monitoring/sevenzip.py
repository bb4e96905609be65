"""A small pure-Python 7z reader and writer, enough for invasive-species-monitoring's image archives.

The reader handles archives whose folders each use one coder (Copy, LZMA or LZMA2, as 7-Zip and py7zr
write for JPEGs), with a plain or LZMA-encoded header; it streams each folder, so memory stays bounded by
one file. The writer stores files with the Copy coder (or LZMA2) in one solid folder, without timestamps
or attributes, so the same files always give the same bytes.
"""

from __future__ import annotations

import lzma
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

SIGNATURE = b"7z\xbc\xaf\x27\x1c"
CHUNK = 1 << 20

K_END, K_HEADER, K_ARCHIVE_PROPERTIES, K_ADDITIONAL_STREAMS, K_MAIN_STREAMS, K_FILES_INFO = range(6)
K_PACK_INFO, K_UNPACK_INFO, K_SUBSTREAMS_INFO, K_SIZE, K_CRC, K_FOLDER = range(6, 12)
K_CODERS_UNPACK_SIZE, K_NUM_UNPACK_STREAM, K_EMPTY_STREAM = 0x0C, 0x0D, 0x0E
K_NAME, K_ENCODED_HEADER = 0x11, 0x17

COPY, LZMA1, LZMA2 = b"\x00", b"\x03\x01\x01", b"\x21"
LZMA2_PROPS = bytes([16])  # dictionary of 1 MiB, as preset 1 uses


# ---------------------------------------------------------------------------------------------- reading


class _Buffer:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def byte(self) -> int:
        self.pos += 1
        return self.data[self.pos - 1]

    def take(self, n: int) -> bytes:
        self.pos += n
        return self.data[self.pos - n : self.pos]

    def number(self) -> int:
        first, mask, value = self.byte(), 0x80, 0
        for i in range(8):
            if not first & mask:
                return value | ((first & (mask - 1)) << (8 * i))
            value |= self.byte() << (8 * i)
            mask >>= 1
        return value

    def bits(self, n: int) -> list[bool]:
        raw = self.take((n + 7) // 8)
        return [bool(raw[i // 8] & (0x80 >> (i % 8))) for i in range(n)]

    def digests(self, n: int) -> list[bool]:
        defined = [True] * n if self.byte() else self.bits(n)
        self.take(4 * sum(defined))
        return defined


class _Folder:
    def __init__(self, codec: bytes, props: bytes) -> None:
        self.codec, self.props = codec, props
        self.unpack_size = 0
        self.has_crc = False
        self.sizes: list[int] = []  # of the files it holds, in order


class _Streams:
    def __init__(self) -> None:
        self.pack_pos = 0
        self.pack_sizes: list[int] = []
        self.folders: list[_Folder] = []


def _read_folder(buf: _Buffer) -> _Folder:
    if buf.number() != 1:
        raise ValueError("7z: only folders with a single coder are supported")
    flags = buf.byte()
    codec = buf.take(flags & 0x0F)
    if flags & 0x10 and (buf.number(), buf.number()) != (1, 1):
        raise ValueError("7z: complex coders are not supported")
    props = buf.take(buf.number()) if flags & 0x20 else b""
    return _Folder(codec, props)


def _read_streams(buf: _Buffer) -> _Streams:
    streams, pid = _Streams(), buf.byte()
    if pid == K_PACK_INFO:
        streams.pack_pos, count = buf.number(), buf.number()
        pid = buf.byte()
        if pid == K_SIZE:
            streams.pack_sizes = [buf.number() for _ in range(count)]
            pid = buf.byte()
        if pid == K_CRC:
            buf.digests(count)
            pid = buf.byte()
        pid = buf.byte()  # past the PackInfo's kEnd
    if pid == K_UNPACK_INFO:
        if buf.byte() != K_FOLDER:
            raise ValueError("7z: malformed unpack info")
        count = buf.number()
        if buf.byte():
            raise ValueError("7z: external folders are not supported")
        streams.folders = [_read_folder(buf) for _ in range(count)]
        buf.byte()  # kCodersUnpackSize
        for folder in streams.folders:
            folder.unpack_size = buf.number()
        pid = buf.byte()
        if pid == K_CRC:
            for folder, defined in zip(streams.folders, buf.digests(count), strict=True):
                folder.has_crc = defined
            pid = buf.byte()
        pid = buf.byte()  # past the UnpackInfo's kEnd
    counts = [1] * len(streams.folders)
    if pid == K_SUBSTREAMS_INFO:
        pid = buf.byte()
        if pid == K_NUM_UNPACK_STREAM:
            counts = [buf.number() for _ in streams.folders]
            pid = buf.byte()
        for folder, count in zip(streams.folders, counts, strict=True):
            if count:
                first = [buf.number() for _ in range(count - 1)] if pid == K_SIZE else []
                folder.sizes = [*first, folder.unpack_size - sum(first)]
        if pid == K_SIZE:
            pid = buf.byte()
        if pid == K_CRC:
            buf.digests(
                sum(c for f, c in zip(streams.folders, counts, strict=True) if not (c == 1 and f.has_crc))
            )
            pid = buf.byte()
        pid = buf.byte()  # past the SubStreamsInfo's kEnd
    else:
        for folder in streams.folders:
            folder.sizes = [folder.unpack_size]
    if pid != K_END:
        raise ValueError(f"7z: unexpected property {pid} in streams info")
    return streams


def _read_names(buf: _Buffer) -> list[tuple[str, bool]]:
    """(name, has data) of every entry; directories and empty files have no data."""
    count, names = buf.number(), []
    empty = [False] * count
    while (kind := buf.number()) != K_END:
        data = _Buffer(buf.take(buf.number()))
        if kind == K_EMPTY_STREAM:
            empty = data.bits(count)
        elif kind == K_NAME:
            if data.byte():
                raise ValueError("7z: external names are not supported")
            names = data.data[1:].decode("utf-16-le").split("\0")[:count]
    return [(name, not blank) for name, blank in zip(names, empty, strict=True)]


def _decoder(folder: _Folder):
    if folder.codec == COPY:
        return None
    if folder.codec == LZMA2:
        p = folder.props[0]
        size = 0xFFFFFFFF if p >= 40 else (2 | (p & 1)) << (p // 2 + 11)
        return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "dict_size": size}])
    if folder.codec == LZMA1:
        d, size = folder.props[0], int.from_bytes(folder.props[1:5], "little")
        lzma1 = {"id": lzma.FILTER_LZMA1, "dict_size": size, "lc": d % 9, "lp": d // 9 % 5, "pb": d // 45}
        return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[lzma1])
    raise ValueError(f"7z: coder {folder.codec.hex()} is not supported")


def _unpacked(file, offset: int, packed: int, folder: _Folder) -> Iterator[bytes]:
    decoder, left = _decoder(folder), folder.unpack_size
    file.seek(offset)
    while packed and left:
        chunk = file.read(min(CHUNK, packed))
        packed -= len(chunk)
        out = chunk if decoder is None else decoder.decompress(chunk)
        out = out[:left]
        left -= len(out)
        yield out


def _folder_files(file, offset: int, packed: int, folder: _Folder) -> Iterator[bytes]:
    chunks, pending = _unpacked(file, offset, packed, folder), bytearray()
    for size in folder.sizes:
        while len(pending) < size:
            pending += next(chunks)
        yield bytes(pending[:size])
        del pending[:size]


def _header(file) -> _Buffer:
    start = file.read(32)
    if start[:6] != SIGNATURE:
        raise ValueError("not a 7z archive")
    offset, size, _ = struct.unpack("<QQI", start[12:32])
    file.seek(32 + offset)
    buf = _Buffer(file.read(size))
    while (pid := buf.byte()) == K_ENCODED_HEADER:
        streams = _read_streams(buf)
        folder = streams.folders[0]
        data = b"".join(_unpacked(file, 32 + streams.pack_pos, streams.pack_sizes[0], folder))
        buf = _Buffer(data)
    if pid != K_HEADER:
        raise ValueError("7z: malformed header")
    return buf


def read_members(path: Path) -> Iterator[tuple[str, bytes]]:
    """Yield (name, bytes) of every file with data in the 7z archive ``path``, in archive order."""
    with path.open("rb") as file:
        buf = _header(file)
        pid, streams, entries = buf.byte(), _Streams(), []
        if pid == K_ARCHIVE_PROPERTIES:
            while buf.byte() != K_END:
                buf.take(buf.number())
            pid = buf.byte()
        if pid == K_ADDITIONAL_STREAMS:
            _read_streams(buf)
            pid = buf.byte()
        if pid == K_MAIN_STREAMS:
            streams = _read_streams(buf)
            pid = buf.byte()
        if pid == K_FILES_INFO:
            entries = _read_names(buf)
        names = iter(name for name, has_data in entries if has_data)
        offset = 32 + streams.pack_pos
        for folder, packed in zip(streams.folders, streams.pack_sizes, strict=True):
            for data in _folder_files(file, offset, packed, folder):
                yield next(names), data
            offset += packed


# ---------------------------------------------------------------------------------------------- writing


def _number(value: int) -> bytes:
    for n in range(9):
        if n == 8 or value < 1 << (7 * n + 7):
            first = (0xFF00 >> n) & 0xFF | (value >> (8 * n) if n < 8 else 0)
            return bytes([first]) + (value & ((1 << (8 * n)) - 1)).to_bytes(n, "little")
    raise AssertionError("unreachable")


class Writer:
    """Write files to a new 7z archive as one solid folder; the header goes at the end, on close."""

    def __init__(self, path: Path, *, compress: bool = False) -> None:
        self.out = path.open("wb")
        self.out.write(bytes(32))
        self.codec = LZMA2 if compress else COPY
        filters = [{"id": lzma.FILTER_LZMA2, "preset": 1}]
        self.encoder = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=filters) if compress else None
        self.names: list[str] = []
        self.sizes: list[int] = []
        self.crcs: list[int] = []
        self.packed = 0

    def add(self, name: str, data: bytes) -> None:
        """Append the file ``name`` with contents ``data``."""
        self.names.append(name)
        self.sizes.append(len(data))
        self.crcs.append(zlib.crc32(data))
        self._write(data if self.encoder is None else self.encoder.compress(data))

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Write the header and the signature header, then close the file."""
        if self.encoder is not None:
            self._write(self.encoder.flush())
        header = _archive_header(self.names, self.sizes, self.crcs, self.packed, self.codec)
        self.out.write(header)
        start = struct.pack("<QQI", self.packed, len(header), zlib.crc32(header))
        self.out.seek(0)
        self.out.write(SIGNATURE + b"\x00\x04" + struct.pack("<I", zlib.crc32(start)) + start)
        self.out.close()

    def _write(self, chunk: bytes) -> None:
        self.out.write(chunk)
        self.packed += len(chunk)


def _archive_header(names: list[str], sizes: list[int], crcs: list[int], packed: int, codec: bytes) -> bytes:
    props = LZMA2_PROPS if codec == LZMA2 else b""
    coder = (
        bytes([len(codec) | (0x20 if props else 0)]) + codec + (_number(len(props)) + props if props else b"")
    )
    pack_info = bytes([K_PACK_INFO]) + _number(0) + _number(1) + bytes([K_SIZE]) + _number(packed) + b"\0"
    unpack_info = (
        bytes([K_UNPACK_INFO, K_FOLDER]) + _number(1) + b"\0" + _number(1) + coder
        + bytes([K_CODERS_UNPACK_SIZE]) + _number(sum(sizes)) + b"\0"
    )  # fmt: skip
    substreams = (
        bytes([K_SUBSTREAMS_INFO, K_NUM_UNPACK_STREAM]) + _number(len(sizes))
        + bytes([K_SIZE]) + b"".join(_number(s) for s in sizes[:-1])
        + bytes([K_CRC, 1]) + b"".join(struct.pack("<I", c) for c in crcs) + b"\0"
    )  # fmt: skip
    text = b"\0" + "".join(f"{name}\0" for name in names).encode("utf-16-le")
    files = bytes([K_FILES_INFO]) + _number(len(names)) + bytes([K_NAME]) + _number(len(text)) + text + b"\0"
    main = bytes([K_MAIN_STREAMS]) + pack_info + unpack_info + substreams + b"\0"
    return bytes([K_HEADER]) + main + files + b"\0"
