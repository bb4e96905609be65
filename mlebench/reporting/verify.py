"""``mlebench verify-bundle``: re-hash, re-grade and re-aggregate a bundle against this checkout.

Checks, each problem naming the file it is about:

- every file against the manifest (changed, missing, or not listed);
- one v1 grading report per declared seed, each with one entry per competition and totals that add up;
- the locally prepared answers against their manifest (a changed file is named and nothing is re-graded
  against it; a ``--data-dir`` folder without a manifest is used with a warning);
- every submission re-graded against the locally prepared answers: score, thresholds and medal flags must
  equal both the report entry and the cell's grading record;
- each record's lineage against this checkout: the competition's declaration hash and version, the grader
  code hash, the prepared answers' and public split's hashes, the submission's hash, the hardware profile,
  and the run record's agent and config hashes;
- the claimed per-split figures against those recomputed from the re-graded results, counted as the
  headline counts them (unisolated cells left out, flagged ones as no medal unless the bundle says
  ``count_flagged``; isolation from each cell's grade.json, the verdict from its integrity.json; under
  a ``process.headline`` of ``reproduced``, a medal only where the cell's reproduction.json says
  ``reproduced``: that record is checked by its hash, not re-run, which needs the agent's image).

The leaderboard row printed on success is computed from the re-graded results, not from the claims.
"""

from __future__ import annotations

import json
import math
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graders.grade import grade
from mlebench.reporting.bundle import INTEGRITY, MANIFEST, file_hashes, run_group
from mlebench.reporting.records import competition_hash
from mlebench.reporting.reproduction import RECORD, counted_reproduced
from mlebench.reporting.stats import agent_figures, leaderboard_row
from mlebench.reporting.v1 import ENTRY_FIELDS, totals
from mlebench.reporting.verdicts import counted, load_verdict
from mlebench_spec.datadir import prepared_in
from mlebench_spec.declarations import Competition, load_competition
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.hashing import sha256_file, sha256_tree
from mlebench_spec.manifest import verify_split
from mlebench_spec.paths import prepared_dir, repo_root

GRADED = tuple(f for f in ENTRY_FIELDS if f not in ("competition_id", "created_at", "submission_path"))
"""The fields a re-grade must reproduce: every v1 report field but the id, the time and the path."""


@dataclass(frozen=True)
class Verification:
    """What verifying a bundle found: its problems (empty when it holds), and the re-graded figures."""

    problems: list[str]
    figures: dict[str, Any]
    row: str
    regraded: int
    files: int

    @property
    def ok(self) -> bool:
        """Whether nothing was found wrong."""
        return not self.problems


def verify_bundle(
    bundle: Path, root: Path | None = None, data_dir: Path | None = None, pad_missing: bool | None = None
) -> Verification:
    """Verify a bundle folder or ``.tar.gz``; ``data_dir`` is in our layout or v1's (default: data/)."""
    with _opened(bundle) as folder:
        return _Verifier(folder, root or repo_root(), data_dir).run(pad_missing)


@contextmanager
def _opened(bundle: Path) -> Iterator[Path]:
    if bundle.is_dir():
        yield bundle
        return
    if not bundle.is_file():
        raise ConfigError(f"{bundle}: no such bundle (a folder or a .tar.gz written by `mlebench bundle`)")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            with tarfile.open(bundle, "r:*") as tar:
                tar.extractall(tmp, filter="data")
        except (tarfile.TarError, OSError) as exc:
            raise ConfigError(f"{bundle}: not a readable bundle archive ({exc})") from None
        yield Path(tmp)


class _Verifier:
    def __init__(self, folder: Path, root: Path, data_dir: Path | None) -> None:
        self.folder, self.root, self.data_dir = folder, root, data_dir
        self.problems: list[str] = []
        self.trees: dict[Path, str] = {}
        self.verdicts: dict[tuple[str, int], dict[str, Any]] = {}

    def run(self, pad_missing: bool | None) -> Verification:
        manifest = self._json(MANIFEST)
        files = self._check_manifest(manifest["files"]) if manifest else 0
        submission = self._json("submission.json")
        if submission is None:
            return Verification(self.problems, {}, "", 0, files)
        hardware = (self._json("hardware.json") or {}).get("profile")
        agent, ids = submission["agent"], submission["competition_set"]["ids"]
        comps = {cid: self._competition(cid) for cid in ids}
        regraded = []
        for seed in submission["seeds"]:
            rel = f"runs/{run_group(agent, seed)}/grading_report.json"
            report = self._json(rel, f"seed {seed} has no grading report")
            if report is not None:
                regraded += self._check_report(rel, report, agent, seed, comps, hardware)
        pad = submission.get("pad_missing", False) if pad_missing is None else pad_missing
        complexity = {cid: comp.complexity for cid, comp in comps.items() if comp is not None}
        known = [cid for cid in ids if cid in complexity]
        flagged_count = submission.get("count_flagged", False)
        headline = [
            c
            for r in regraded
            if (c := counted(r, self.verdicts[(r["competition_id"], r["seed"])], flagged_count)) is not None
        ]
        if (submission.get("process") or {}).get("headline") == "reproduced":
            headline = [  # reproductions are taken as recorded (hashed), not re-run: that needs the image
                counted_reproduced(r, self._reproduction(f"cells/{r['competition_id']}/{r['seed']}"))
                for r in headline
            ]
        figures = agent_figures(headline, agent, complexity, known, pad)
        if pad == submission.get("pad_missing", False):
            for split, claimed in submission.get("figures", {}).items():
                ours = figures.get(split, {}).get("metrics", {}).get("any_medal", {}).get("per_seed")
                if claimed["metrics"]["any_medal"]["per_seed"] != ours:
                    self.problems.append(
                        f"submission.json: figures.{split} claim any-medal % per seed "
                        f"{claimed['metrics']['any_medal']['per_seed']}, re-graded {ours}"
                    )
        return Verification(self.problems, figures, leaderboard_row(figures), len(regraded), files)

    def _reproduction(self, cell: str) -> dict[str, Any] | None:
        path = self.folder / cell / RECORD
        return self._json(f"{cell}/{RECORD}") if path.is_file() else None

    def _json(self, rel: str, why: str = "missing") -> Any:
        path = self.folder / rel
        if not path.is_file():
            self.problems.append(f"{rel}: {why}")
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            self.problems.append(f"{rel}: not valid JSON ({exc})")
            return None

    def _check_manifest(self, listed: dict[str, str]) -> int:
        actual = file_hashes(self.folder)
        for rel, digest in sorted(listed.items()):
            if rel not in actual:
                self.problems.append(f"{rel}: listed in the manifest but missing from the bundle")
            elif actual[rel] != digest:
                self.problems.append(
                    f"{rel}: sha256 {actual[rel][:16]}… differs from the manifest's {digest[:16]}…"
                )
        self.problems += [f"{rel}: not in the manifest" for rel in sorted(set(actual) - set(listed))]
        return len(actual)

    def _competition(self, cid: str) -> Competition | None:
        try:
            return load_competition(cid, self.root)
        except ConfigError:
            self.problems.append(f"submission.json: competition {cid!r} is not declared in this checkout")
            return None

    def _check_report(
        self, rel: str, report: dict, agent: str, seed: int, comps: dict, hardware: Any
    ) -> list[dict[str, Any]]:
        entries = report.get("competition_reports", [])
        counted = totals(entries)
        claimed = {k: report.get(k) for k in counted}
        if claimed != counted:
            self.problems.append(f"{rel}: totals {claimed} do not match its entries ({counted})")
        by_cid: dict[str, dict] = {}
        for item in entries:
            cid = item.get("competition_id")
            if cid in by_cid or cid not in comps:
                self.problems.append(f"{rel}: entry for {cid!r} is a duplicate or not in the competition set")
            else:
                by_cid[cid] = item
        self.problems += [
            f"{rel}: no entry for {cid} (seed {seed} is incomplete)" for cid in comps if cid not in by_cid
        ]
        out = []
        for cid, item in by_cid.items():
            if comps[cid] is not None:
                regraded = self._check_cell(rel, item, agent, seed, comps[cid], hardware)
                if regraded is not None:
                    out.append(regraded)
        return out

    def _check_cell(
        self, rel: str, item: dict, agent: str, seed: int, comp: Competition, hardware: Any
    ) -> dict[str, Any] | None:
        cell = f"cells/{comp.id}/{seed}"
        record = self._json(f"{cell}/grade.json")
        private = self._prepared(comp.id) / "private"
        if record is None:
            return None
        if not private.is_dir():
            self.problems.append(
                f"{cell}/grade.json: no prepared answers at {private} to re-grade against "
                f"(run `mlebench prepare -c {comp.id}`)"
            )
            return None
        try:
            self.trees[private] = verify_split(private, missing="warn" if self.data_dir else "refuse")
        except DataError as exc:
            self.problems.append(f"{cell}/grade.json: not re-graded: {exc}")
            return None
        if item.get("submission_path") != f"{cell}/submission.csv":
            self.problems.append(
                f"{rel}: {comp.id}: submission_path {item.get('submission_path')!r} is not "
                f"{cell}/submission.csv"
            )
        submission = self.folder / cell / "submission.csv"
        try:
            fields = grade(comp, submission, private).to_dict()
        except Exception as exc:  # noqa: BLE001 - a grader failure on a bundled file is a finding, not a crash
            self.problems.append(f"{cell}/submission.csv: the grader raised {type(exc).__name__}: {exc}")
            return None
        if not submission.is_file():  # a submission the runner refused to collect stays "exists, invalid"
            fields["submission_exists"] = bool(record.get("submission_exists"))
        for where, claimed in ((f"{rel}: {comp.id}", item), (f"{cell}/grade.json", record)):
            for key in GRADED:
                if not _same(claimed.get(key), fields[key]):
                    self.problems.append(
                        f"{where}: {key} claimed {claimed.get(key)!r}, re-graded {fields[key]!r}"
                    )
        self._check_lineage(cell, record, agent, seed, comp, hardware, submission)
        try:
            self.verdicts[(comp.id, seed)] = load_verdict(self.folder / cell / INTEGRITY)
        except DataError as exc:
            self.problems.append(str(exc))
            self.verdicts[(comp.id, seed)] = {"verdict": "flagged", "flags": []}
        isolation = record.get("isolation")
        return {"agent": agent, "competition_id": comp.id, "seed": seed, "isolation": isolation} | {
            k: fields[k] for k in GRADED
        }

    def _check_lineage(
        self,
        cell: str,
        record: dict,
        agent: str,
        seed: int,
        comp: Competition,
        hardware: Any,
        submission: Path,
    ) -> None:
        lineage = record.get("lineage") or {}
        public = self._prepared(comp.id) / "public"
        expected = {
            "agent": (record.get("agent"), agent),
            "seed": (record.get("seed"), seed),
            "competition_version": (record.get("competition_version"), comp.version),
            "hardware": (record.get("hardware"), hardware),
            "lineage.competition_sha256": (
                lineage.get("competition_sha256"),
                competition_hash(comp, self.root),
            ),
            "lineage.grader_sha256": (lineage.get("grader_sha256"), self._tree(self.root / "graders")),
            "lineage.private_sha256": (
                lineage.get("private_sha256"),
                self._tree(self._prepared(comp.id) / "private"),
            ),
            "lineage.submission_sha256": (
                lineage.get("submission_sha256"),
                sha256_file(submission) if submission.is_file() else None,
            ),
        }
        if public.is_dir():
            expected["lineage.public_sha256"] = (lineage.get("public_sha256"), self._tree(public))
        run = self._json(f"{cell}/run.json", "missing (the cell's run record)") or {}
        for key, run_key in (
            ("agent_sha256", "agent_sha256"),
            ("config_sha256", "config_sha256"),
            ("public_seen_by_agent_sha256", "public_sha256"),
        ):
            expected[f"lineage.{key}"] = (lineage.get(key), run.get(run_key))
        for key, (claimed, ours) in expected.items():
            if claimed == ours:
                continue
            if key == "lineage.submission_sha256":
                self.problems.append(
                    f"{cell}/submission.csv: sha256 {_short(ours)} is not the {_short(claimed)} that "
                    f"{cell}/grade.json records"
                )
            else:
                self.problems.append(
                    f"{cell}/grade.json: {key} is {_short(claimed)}, expected {_short(ours)}"
                )

    def _tree(self, path: Path) -> str:
        if path not in self.trees:
            self.trees[path] = sha256_tree(path)
        return self.trees[path]

    def _prepared(self, cid: str) -> Path:
        return prepared_in(self.data_dir, cid) if self.data_dir else prepared_dir(cid, self.root)


def _same(a: Any, b: Any) -> bool:
    """Equal as graded values: flags exactly, numbers to 1e-9 (NaN equals NaN), None only to None."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return bool(a == b)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"
