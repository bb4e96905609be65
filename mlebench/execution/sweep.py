"""The reaper's hook (``python -m mlebench.execution.sweep``): remove what killed runs left in the engines.

Sweeps Docker's engine when one answers, and the user's Podman when its service answers (none is started
for this): the agent containers, proxies, relays, sandboxes, networks and socket volumes whose owner process
is gone (:func:`mlebench.execution.docker.egress.sweep`). A machine without an engine is a no-op.
"""

from __future__ import annotations

from mlebench.execution.docker.egress import sweep
from mlebench.execution.docker.engine import InfraError, connect, engine_problem
from mlebench.execution.podman import connect as podman_connect


def main() -> int:
    """Sweep every engine that answers; print what was removed."""
    clients = [connect()] if engine_problem() is None else []
    try:
        clients.append(podman_connect(timeout=10, start=False))
    except InfraError:
        pass
    for client in clients:
        for name in sweep(client):
            print(f"removed {name} (its run was killed)")
        client.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
