"""A byte relay between a TCP and a UNIX socket: the only way out of an agent's empty network namespace.

Standard library only, one file, run by whatever Python is at hand (the agent image's, the host's), so the
runners copy or bind it into a cell as it is (``python -I relay.py LISTEN CONNECT [-- command ...]``):

- ``relay.py tcp:127.0.0.1:3128 unix:/run/mlebench-egress/proxy.sock`` listens on the agent's loopback and
  carries each connection, byte for byte, over the UNIX socket that a runner mounted into the agent's
  namespace (the namespace itself has no interface but ``lo``: no route, no DNS);
- ``relay.py unix:/run/mlebench-egress/proxy.sock tcp:127.0.0.1:3128 --mode 0666`` is the other end, beside
  the cell's proxy (in its network namespace, or on the host): it makes the socket and hands each connection
  to the proxy's port.

With a command after ``--``, the relay binds its socket first, then runs the command in its own place and
keeps relaying from a child process: the command never starts before the relay listens. Without one it
serves in the foreground and prints ``READY`` (a line) once it listens.

A connection is only carried on once its client has sent a byte, so an empty probe (a client checking that
the port answers) never reaches the proxy or its log. At most ``MAX_CONNECTIONS`` are open at once; more
wait. The relay adds no policy: what may pass is the proxy's decision, logged by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys

READY = "READY"
MAX_CONNECTIONS = 256
CHUNK = 65536


def parse(address: str) -> tuple[str, str | tuple[str, int]]:
    """Return ``("tcp", (host, port))`` or ``("unix", path)`` from ``tcp:HOST:PORT`` or ``unix:PATH``.

    >>> parse("tcp:127.0.0.1:3128"), parse("unix:/run/x.sock")
    (('tcp', ('127.0.0.1', 3128)), ('unix', '/run/x.sock'))
    """
    kind, _, rest = address.partition(":")
    if kind == "tcp":
        host, _, port = rest.rpartition(":")
        return kind, (host, int(port))
    if kind == "unix" and rest:
        return kind, rest
    raise ValueError(f"not an address: {address!r} (tcp:HOST:PORT or unix:PATH)")


def listen(address: str, mode: int | None = None) -> socket.socket:
    """Bind and listen on ``address``; a UNIX socket gets ``mode`` (its file's permissions) when given."""
    kind, where = parse(address)
    if kind == "tcp":
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(where)
    else:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(where)
        if mode is not None:
            os.chmod(where, mode)
    sock.listen(128)
    return sock


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        pass


async def _carry(
    target: str, slots: asyncio.Semaphore, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    async with slots:
        upstream = None
        try:
            first = await reader.read(CHUNK)
            if not first:
                return
            kind, where = parse(target)
            if kind == "tcp":
                up_reader, upstream = await asyncio.open_connection(*where)
            else:
                up_reader, upstream = await asyncio.open_unix_connection(where)
            upstream.write(first)
            await upstream.drain()
            await asyncio.gather(_pipe(reader, upstream), _pipe(up_reader, writer))
        except (ConnectionError, OSError):
            pass
        finally:
            for w in (writer, upstream):
                if w is not None:
                    w.close()
                    with contextlib.suppress(Exception):
                        await w.wait_closed()


async def _serve(sock: socket.socket, target: str) -> None:
    slots = asyncio.Semaphore(MAX_CONNECTIONS)

    def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> asyncio.Task:
        return asyncio.ensure_future(_carry(target, slots, reader, writer))

    if sock.family == socket.AF_UNIX:
        server = await asyncio.start_unix_server(handle, sock=sock)
    else:
        server = await asyncio.start_server(handle, sock=sock)
    async with server:
        await server.serve_forever()


def serve(sock: socket.socket, target: str) -> None:
    """Carry every connection ``sock`` accepts to ``target`` until the process is killed."""
    asyncio.run(_serve(sock, target))


def main(argv: list[str]) -> int:
    """Parse ``LISTEN CONNECT [--mode OCTAL] [-- command ...]`` and relay (see the module)."""
    command: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, command = argv[:cut], argv[cut + 1 :]
    mode = None
    if "--mode" in argv:
        at = argv.index("--mode")
        mode = int(argv[at + 1], 8)
        argv = argv[:at] + argv[at + 2 :]
    if len(argv) != 2:
        print("usage: relay.py LISTEN CONNECT [--mode OCTAL] [-- command ...]", file=sys.stderr)
        return 2
    parse(argv[1])  # a bad target fails here, before anything listens
    sock = listen(argv[0], mode)
    if not command:
        print(READY, flush=True)
    elif os.fork() != 0:
        sock.close()
        os.execvp(command[0], command)
    with contextlib.suppress(KeyboardInterrupt):
        serve(sock, argv[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
