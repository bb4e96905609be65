"""An agent's network policy as a type: what it allows, whether it is proxied, which route holds it.

An agent config names its policy (``network: none | egress | llm``, with ``endpoints`` under ``llm``); the
runner that runs the cell holds it by a route of its own and records the held policy in run.json
(``network_policy``, :meth:`NetworkPolicy.to_json`). Integrity, the report and verify-bundle read the
*recorded* policy (:meth:`NetworkPolicy.recorded`), never the planned one again. The policy's name is
compared here and nowhere else: callers ask the type (:attr:`proxied`, :attr:`allows_all`, :attr:`reaches`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["none", "egress", "llm"]
KINDS: tuple[Kind, ...] = ("none", "egress", "llm")
ANY_PUBLIC_HOST = "any public host (private networks refused)"


@dataclass(frozen=True)
class NetworkPolicy:
    """One agent's network policy, and (once a runner held it) the route that held it.

    ``kind``: ``none`` (no network), ``egress`` (any public host) or ``llm`` (only ``endpoints``). Under
    ``egress`` and ``llm`` every request leaves through the cell's own logging proxy. ``route`` is how the
    runner held the agent to it ("" in a plan, and where the runner does not hold it: the local runner).
    """

    kind: Kind = "none"
    endpoints: tuple[str, ...] = ()
    route: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"network {self.kind!r} is not one of {', '.join(KINDS)}")

    @property
    def proxied(self) -> bool:
        """Whether the agent's traffic leaves through the cell's logging proxy (``egress``, ``llm``)."""
        return self.kind != "none"

    @property
    def reaches(self) -> bool:
        """Whether the policy lets the agent reach other hosts (everywhere, or its endpoints)."""
        return self.proxied

    @property
    def allows_all(self) -> bool:
        """Whether the proxy lets the agent reach any public host (``egress``), not only its endpoints."""
        return self.kind == "egress"

    @property
    def allows(self) -> str:
        """What the policy allows, in words (run.json's ``egress.allows``)."""
        if not self.proxied:
            return "nothing"
        return ANY_PUBLIC_HOST if self.allows_all else "the endpoints"

    def held(self, route: str) -> NetworkPolicy:
        """Return this policy as held by ``route`` (what the runner records)."""
        return NetworkPolicy(self.kind, self.endpoints, route)

    def endpoints_problem(self) -> str:
        """Why the endpoints do not fit the policy ("" when they do): required under ``llm`` alone."""
        if self.kind == "llm" and not self.endpoints:
            return (
                "network 'llm' needs `endpoints: [host:port, ...]`, the model API endpoints its proxy lets "
                "through"
            )
        if self.kind != "llm" and self.endpoints:
            return (
                f"`endpoints` only applies to network 'llm' (this agent has network {self.kind!r}): "
                "set `network: llm` or drop them"
            )
        return ""

    def to_json(self) -> dict[str, Any]:
        """Return the policy as run.json's ``network_policy`` holds it."""
        return {
            "kind": self.kind,
            "allows": self.allows,
            "endpoints": list(self.endpoints),
            "proxied": self.proxied,
            "route": self.route,
        }

    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> NetworkPolicy:
        """Read :meth:`to_json`'s dict, or the bare name an older run.json recorded (``network``)."""
        if isinstance(data, str):
            return cls(data)  # type: ignore[arg-type]
        return cls(data["kind"], tuple(data.get("endpoints") or ()), str(data.get("route") or ""))

    @classmethod
    def recorded(cls, run: dict[str, Any]) -> NetworkPolicy | None:
        """Return the policy a run record (run.json, as a dict) holds; None when it records none.

        ``network_policy`` (the typed field), else an older record's ``network`` name with its
        ``egress.endpoints`` and ``egress.route``; None for an older local runner's record, which named none.
        """
        if isinstance(run.get("network_policy"), dict):
            return cls.from_json(run["network_policy"])
        if not isinstance(run.get("network"), str):
            return None
        egress = run.get("egress") or {}
        return cls(run["network"], tuple(egress.get("endpoints") or ()), str(egress.get("route") or ""))
