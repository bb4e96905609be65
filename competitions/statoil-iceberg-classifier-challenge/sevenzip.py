"""A small pure-Python 7z reader and writer (stdlib lzma), enough for Kaggle's .7z downloads.

Reading handles the archives 7-Zip writes by default: an optionally LZMA-encoded header, folders of one
Copy, LZMA or LZMA2 coder, several files per folder, empty files and directories. Files are extracted in
a streaming way (bounded memory). Writing produces one LZMA2 folder with names only (no timestamps or
attributes), so the same files always give the same bytes.
"""

from __future__ import annotations

import io
import lzma
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

__all__ = ["extract_7z", "write_7z"]

SIGNATURE = b"7z\xbc\xaf\x27\x1c"
END, HEADER, ARCHIVE_PROPERTIES, MAIN_STREAMS, FILES_INFO = 0x00, 0x01, 0x02, 0x04, 0x05
PACK_INFO, UNPACK_INFO, SUBSTREAMS_INFO, SIZE, CRC, FOLDER = 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B
CODERS_UNPACK_SIZE, NUM_UNPACK_STREAM, EMPTY_STREAM, EMPTY_FILE, NAME, ENCODED_HEADER = (
    0x0C,
    0x0D,
    0x0E,
    0x0F,
    0x11,
    0x17,
)
COPY, LZMA1, LZMA2 = b"\x00", b"\x03\x01\x01", b"\x21"
CHUNK = 1 << 20


class _Folder:
    def __init__(self, codec: bytes, props: bytes) -> None:
        self.codec, self.props = codec, props
        self.unpack_size = 0
        self.crc_defined = False
        self.sizes: list[int] = []  # the sizes of the folder's files


class _Streams:
    def __init__(self) -> None:
        self.pack_pos = 0
        self.pack_sizes: list[int] = []
        self.folders: list[_Folder] = []


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.buf = io.BytesIO(data)

    def byte(self) -> int:
        return self.buf.read(1)[0]

    def number(self) -> int:
        first, mask = self.byte(), 0x80
        for extra in range(8):
            if not first & mask:
                low = int.from_bytes(self.buf.read(extra), "little")
                return low | ((first & (mask - 1)) << (8 * extra))
            mask >>= 1
        return int.from_bytes(self.buf.read(8), "little")

    def bits(self, n: int) -> list[bool]:
        data = self.buf.read((n + 7) // 8)
        return [bool(data[i // 8] & (0x80 >> (i % 8))) for i in range(n)]

    def defined(self, n: int) -> list[bool]:
        return [True] * n if self.byte() else self.bits(n)

    def skip_digests(self, n: int) -> None:
        self.buf.read(4 * sum(self.defined(n)))


def _read_folder(r: _Reader) -> _Folder:
    if r.number() != 1:
        raise ValueError("7z: only folders with a single coder are supported")
    flags = r.byte()
    codec = r.buf.read(flags & 0x0F)
    if flags & 0x10:
        raise ValueError("7z: complex coders are not supported")
    props = r.buf.read(r.number()) if flags & 0x20 else b""
    return _Folder(codec, props)


def _read_streams(r: _Reader) -> _Streams:
    streams = _Streams()
    kind = r.byte()
    if kind == PACK_INFO:
        streams.pack_pos, count = r.number(), r.number()
        for kind in iter(r.byte, END):
            if kind == SIZE:
                streams.pack_sizes = [r.number() for _ in range(count)]
            elif kind == CRC:
                r.skip_digests(count)
        kind = r.byte()
    if kind == UNPACK_INFO:
        if r.byte() != FOLDER:
            raise ValueError("7z: malformed unpack info")
        count = r.number()
        if r.byte():
            raise ValueError("7z: external folders are not supported")
        streams.folders = [_read_folder(r) for _ in range(count)]
        if r.byte() != CODERS_UNPACK_SIZE:
            raise ValueError("7z: malformed unpack info")
        for folder in streams.folders:
            folder.unpack_size = r.number()
            folder.sizes = [folder.unpack_size]
        for kind in iter(r.byte, END):
            if kind == CRC:
                for folder, defined in zip(streams.folders, r.defined(count), strict=True):
                    folder.crc_defined = defined
                    r.buf.read(4 * defined)
        kind = r.byte()
    if kind == SUBSTREAMS_INFO:
        _read_substreams(r, streams.folders)
        kind = r.byte()
    if kind != END:
        raise ValueError(f"7z: unexpected property {kind} in streams info")
    return streams


def _read_substreams(r: _Reader, folders: list[_Folder]) -> None:
    counts = [1] * len(folders)
    kind = r.byte()
    if kind == NUM_UNPACK_STREAM:
        counts = [r.number() for _ in folders]
        kind = r.byte()
    for folder, count in zip(folders, counts, strict=True):
        if kind == SIZE:
            sizes = [r.number() for _ in range(count - 1)] if count else []
            folder.sizes = [*sizes, folder.unpack_size - sum(sizes)] if count else []
        else:
            folder.sizes = [folder.unpack_size] if count else []
    if kind == SIZE:
        kind = r.byte()
    while kind != END:
        if kind == CRC:
            r.skip_digests(sum(len(f.sizes) for f in folders if not (len(f.sizes) == 1 and f.crc_defined)))
        kind = r.byte()


def _decompressor(folder: _Folder):
    if folder.codec == COPY:
        return None
    if folder.codec == LZMA1:
        d = folder.props[0]
        dict_size = struct.unpack("<I", folder.props[1:5])[0]
        lzma_filter = {
            "id": lzma.FILTER_LZMA1,
            "dict_size": dict_size,
            "lc": d % 9,
            "lp": d // 9 % 5,
            "pb": d // 45,
        }
    elif folder.codec == LZMA2:
        d = folder.props[0]
        lzma_filter = {"id": lzma.FILTER_LZMA2, "dict_size": (2 | (d & 1)) << (d // 2 + 11)}
    else:
        raise ValueError(f"7z: unsupported codec {folder.codec.hex()}")
    return lzma.LZMADecompressor(format=lzma.FORMAT_RAW, filters=[lzma_filter])


def _unpacked(handle, start: int, size: int, folder: _Folder) -> Iterator[bytes]:
    """Yield the folder's unpacked bytes, in chunks, from its pack stream at ``start`` of length ``size``."""
    handle.seek(start)
    decompressor, left, out_left = _decompressor(folder), size, folder.unpack_size
    while out_left > 0:
        chunk = b""
        if left and (decompressor is None or decompressor.needs_input):
            chunk = handle.read(min(CHUNK, left))
            left -= len(chunk)
        data = chunk if decompressor is None else decompressor.decompress(chunk, max_length=CHUNK)
        if not data and not chunk:
            raise ValueError("7z: a packed stream ended early")
        data = data[:out_left]
        out_left -= len(data)
        if data:
            yield data


def _folder_bytes(handle, start: int, size: int, folder: _Folder) -> bytes:
    return b"".join(_unpacked(handle, start, size, folder))


def _read_names(r: _Reader, n_files: int) -> tuple[list[str], list[bool], list[bool]]:
    names, empty_stream, empty_file = [""] * n_files, [False] * n_files, []
    for kind in iter(r.number, END):
        size = r.number()
        data = r.buf.read(size)
        if kind == NAME:
            if data[0]:
                raise ValueError("7z: external names are not supported")
            names = data[1:].decode("utf-16-le").split("\0")[:n_files]
        elif kind == EMPTY_STREAM:
            empty_stream = _Reader(data).bits(n_files)
        elif kind == EMPTY_FILE:
            empty_file = _Reader(data).bits(sum(empty_stream))
    return names, empty_stream, empty_file


def extract_7z(archive: Path, dest: Path) -> None:
    """Extract every file and directory of ``archive`` into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    with archive.open("rb") as handle:
        start = handle.read(32)
        if start[:6] != SIGNATURE:
            raise ValueError(f"{archive}: not a 7z archive")
        offset, size = struct.unpack_from("<QQ", start, 12)
        handle.seek(32 + offset)
        header = handle.read(size)
        while header[0] == ENCODED_HEADER:
            r = _Reader(header[1:])
            streams = _read_streams(r)
            folder = streams.folders[0]
            header = _folder_bytes(handle, 32 + streams.pack_pos, streams.pack_sizes[0], folder)
        r = _Reader(header)
        if r.byte() != HEADER:
            raise ValueError(f"{archive}: malformed 7z header")
        kind, streams = r.byte(), _Streams()
        if kind == ARCHIVE_PROPERTIES:
            raise ValueError(f"{archive}: 7z archive properties are not supported")
        if kind == MAIN_STREAMS:
            streams = _read_streams(r)
            kind = r.byte()
        names, empty_stream, empty_file = ([], [], [])
        if kind == FILES_INFO:
            n_files = r.number()
            names, empty_stream, empty_file = _read_names(r, n_files)
        _write_files(handle, streams, names, empty_stream, empty_file, dest)


def _write_files(handle, streams, names, empty_stream, empty_file, dest: Path) -> None:
    root = dest.resolve()
    targets = [(dest / name.replace("\\", "/")) for name in names]
    for target in targets:
        if root not in target.resolve().parents:
            raise ValueError(f"7z member {target} would extract outside {dest}")
    empties = iter(empty_file)
    with_data = []
    for target, is_empty in zip(targets, empty_stream or [False] * len(targets), strict=True):
        if not is_empty:
            with_data.append(target)
        elif next(empties, False):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(b"")
        else:
            target.mkdir(parents=True, exist_ok=True)
    members = iter(with_data)
    position = 32 + streams.pack_pos
    for folder, pack_size in zip(streams.folders, streams.pack_sizes, strict=True):
        chunks, pending = _unpacked(handle, position, pack_size, folder), memoryview(b"")
        for size in folder.sizes:
            target = next(members)
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as out:
                while size > 0:
                    if not pending:
                        pending = memoryview(next(chunks))
                    piece, pending = pending[:size], pending[size:]
                    out.write(piece)
                    size -= len(piece)
        position += pack_size


def _number(value: int) -> bytes:
    for extra in range(8):
        if value < 1 << (8 * extra + 7 - extra):
            first = (0xFF00 >> extra) & 0xFF | (value >> (8 * extra))
            return bytes([first]) + (value & ((1 << (8 * extra)) - 1)).to_bytes(extra, "little")
    return b"\xff" + value.to_bytes(8, "little")


def write_7z(members: list[tuple[str, Path]], archive: Path) -> None:
    """Write ``members`` (name in the archive, file to store; non-empty files) as one LZMA2 folder."""
    dict_size = 1 << 22
    props = next(d for d in range(41) if (2 | (d & 1)) << (d // 2 + 11) >= dict_size)
    compressor = lzma.LZMACompressor(
        format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "preset": 6, "dict_size": dict_size}]
    )
    sizes, crcs, packed = [], [], 0
    with archive.open("wb") as out:
        out.write(b"\0" * 32)
        for _, path in members:
            size, crc = 0, 0
            with path.open("rb") as src:
                for data in iter(lambda: src.read(CHUNK), b""):
                    size, crc = size + len(data), zlib.crc32(data, crc)
                    packed += out.write(compressor.compress(data))
            if not size:
                raise ValueError(f"write_7z stores non-empty files only: {path}")
            sizes.append(size)
            crcs.append(crc)
        packed += out.write(compressor.flush())
        names = b"\0" + b"".join(name.encode("utf-16-le") + b"\0\0" for name, _ in members)
        header = b"".join(
            [
                bytes([HEADER, MAIN_STREAMS, PACK_INFO]),
                _number(0) + _number(1) + bytes([SIZE]) + _number(packed) + bytes([END]),
                bytes([UNPACK_INFO, FOLDER]) + _number(1) + b"\0",
                _number(1) + bytes([0x21]) + LZMA2 + _number(1) + bytes([props]),
                bytes([CODERS_UNPACK_SIZE]) + _number(sum(sizes)) + bytes([END]),
                bytes([SUBSTREAMS_INFO, NUM_UNPACK_STREAM]) + _number(len(sizes)),
                bytes([SIZE]) + b"".join(_number(s) for s in sizes[:-1]),
                bytes([CRC, 1]) + b"".join(struct.pack("<I", c) for c in crcs) + bytes([END, END]),
                bytes([FILES_INFO]) + _number(len(members)),
                bytes([NAME]) + _number(len(names)) + names + bytes([END, END]),
            ]
        )
        out.write(header)
        tail = struct.pack("<QQI", packed, len(header), zlib.crc32(header))
        out.seek(0)
        out.write(SIGNATURE + b"\x00\x04" + struct.pack("<I", zlib.crc32(tail)) + tail)
