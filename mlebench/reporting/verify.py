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
- the submission's hash against the one the runner recorded in the bundled ``run.json`` and the one the
  reproduction record keeps of the original;
- each verdict re-derived, never taken on trust (a disagreement is a named problem, and the re-derived
  value is what counts): the isolation from the bundled ``run.json``, read by its runner's record type;
  the integrity verdict from its own checks and from the deterministic checks re-run over the bundled
  evidence with the bundled settings (a check that flags on re-run but not in the record is named); the
  reproduction verdict from the re-run's bundled submission, re-graded, against the re-graded original
  (scores, hashes and verdict each compared with the record);
- the claimed per-split figures against those recomputed from the re-graded results, counted as the
  headline counts them (unisolated cells left out, flagged ones as no medal unless the bundle says
  ``count_flagged``; under a ``process.headline`` of ``reproduced``, a medal only where the re-derived
  reproduction verdict is ``reproduced``).

Isolation and the integrity checks are re-derived by code above this layer, handed in as
:class:`Rederivers` (the CLI passes :func:`mlebench.integrity.bundled.rederivers`).

The leaderboard row printed on success is computed from the re-graded results, not from the claims.
"""

from __future__ import annotations

import json
import math
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graders.grade import grade
from mlebench.reporting.bundle import INTEGRITY, MANIFEST, RERUN, file_hashes, run_group
from mlebench.reporting.records import competition_hash
from mlebench.reporting.reproduction import RECORD, counted_reproduced, judge
from mlebench.reporting.stats import agent_figures, leaderboard_row
from mlebench.reporting.v1 import ENTRY_FIELDS, totals
from mlebench.reporting.verdicts import counted, load_verdict
from mlebench_spec.datadir import prepared_in
from mlebench_spec.declarations import Competition, load_competition
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.hashing import sha256_file, sha256_tree
from mlebench_spec.manifest import verify_split
from mlebench_spec.paths import prepared_dir, repo_root


@dataclass(frozen=True)
class Rederivers:
    """The re-derivations that need code above the reporting layer (runners, integrity checks).

    ``isolation(run_json)``: why the run was not isolated ("" when it was); ``integrity(cell_folder,
    competition, agent_config, integrity_settings)``: the deterministic checks re-run, as integrity.json
    lists them (``{check, flagged, evidence, details}``).
    """

    isolation: Callable[[dict[str, Any]], str]
    integrity: Callable[[Path, Competition, dict[str, Any], dict[str, Any]], list[dict[str, Any]]]


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
    bundle: Path,
    root: Path | None = None,
    data_dir: Path | None = None,
    pad_missing: bool | None = None,
    rederive: Rederivers | None = None,
) -> Verification:
    """Verify a bundle folder or ``.tar.gz``; ``data_dir`` is in our layout or v1's (default: data/).

    Without ``rederive`` the isolation and the integrity checks are not re-derived: a problem says so.
    """
    with _opened(bundle) as folder:
        return _Verifier(folder, root or repo_root(), data_dir, rederive).run(pad_missing)


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
    def __init__(self, folder: Path, root: Path, data_dir: Path | None, rederive: Rederivers | None) -> None:
        self.folder, self.root, self.data_dir, self.rederive = folder, root, data_dir, rederive
        self.problems: list[str] = []
        self.trees: dict[Path, str] = {}
        self.verdicts: dict[tuple[str, int], dict[str, Any]] = {}
        self.reproductions: dict[tuple[str, int], dict[str, Any] | None] = {}
        self.submission: dict[str, Any] = {}

    def run(self, pad_missing: bool | None) -> Verification:
        manifest = self._json(MANIFEST)
        files = self._check_manifest(manifest["files"]) if manifest else 0
        submission = self._json("submission.json")
        if submission is None:
            return Verification(self.problems, {}, "", 0, files)
        self.submission = submission
        if self.rederive is None:
            self.problems.append(
                "isolation and integrity checks not re-derived (no re-derivations handed in: use the CLI)"
            )
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
            headline = [  # the verdicts re-derived from the bundled re-runs (_check_reproduction)
                counted_reproduced(r, self.reproductions.get((r["competition_id"], r["seed"])))
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
        run = self._check_lineage(cell, record, agent, seed, comp, hardware, submission)
        self.verdicts[(comp.id, seed)] = self._check_integrity(cell, comp)
        self.reproductions[(comp.id, seed)] = self._check_reproduction(cell, comp, fields, submission)
        isolation = record.get("isolation")
        if self.rederive is not None:
            why = self.rederive.isolation(run) if run else "no run record in the bundle"
            derived = "unisolated" if why else "isolated"
            if isolation != derived:
                self.problems.append(
                    f"{cell}/grade.json: isolation {isolation!r}, but the bundled run.json (runner "
                    f"{run.get('runner')!r}) says {derived}" + (f": {why}" if why else "")
                )
            isolation = derived
        return {"agent": agent, "competition_id": comp.id, "seed": seed, "isolation": isolation} | {
            k: fields[k] for k in GRADED
        }

    def _check_integrity(self, cell: str, comp: Competition) -> dict[str, Any]:
        """Return the cell's verdict, re-derived from its own checks and the checks re-run (the module)."""
        path = self.folder / cell / INTEGRITY
        try:
            verdict = load_verdict(path)
        except DataError as exc:
            self.problems.append(str(exc))
            return {"verdict": "flagged", "flags": []}
        if verdict["verdict"] == "clean" and verdict["flags"]:  # its own checks say otherwise
            named = ", ".join(f["check"] for f in verdict["flags"])
            self.problems.append(f"{cell}/{INTEGRITY}: verdict 'clean', but its own checks flag: {named}")
            verdict = {**verdict, "verdict": "flagged"}
        if self.rederive is None or not (self.folder / cell / "run.json").is_file():
            return verdict
        recorded = {}
        if path.is_file():
            recorded = {
                c.get("check"): c for c in json.loads(path.read_text(encoding="utf-8")).get("checks", [])
            }
        agent = self.submission.get("agent_config") or {}
        settings = self.submission.get("integrity_settings") or {}
        try:
            rerun = self.rederive.integrity(self.folder / cell, comp, agent, settings)
        except Exception as exc:  # noqa: BLE001 - evidence the checks cannot read is a finding, not a crash
            self.problems.append(
                f"{cell}: the integrity checks could not be re-run ({type(exc).__name__}: {exc})"
            )
            return {**verdict, "verdict": "flagged"}
        for check in rerun:
            if check["flagged"] and not (recorded.get(check["check"]) or {}).get("flagged"):
                evidence = "; ".join(str(e) for e in check.get("evidence", [])[:2])
                self.problems.append(
                    f"{cell}/{INTEGRITY}: check {check['check']!r} is not flagged there, but re-run on the "
                    f"bundled evidence it flags: {evidence[:300]}"
                )
                verdict = {
                    **verdict,
                    "verdict": "flagged",
                    "flags": [
                        *verdict["flags"],
                        {"check": check["check"], "evidence": check.get("evidence", [])},
                    ],
                }
        return verdict

    def _check_reproduction(
        self, cell: str, comp: Competition, fields: dict[str, Any], submission: Path
    ) -> dict[str, Any] | None:
        """Return the reproduction verdict re-derived from the bundled re-run (None: not reproduced)."""
        rel = f"{cell}/{RECORD}"
        if not (self.folder / rel).is_file():
            return None
        record = self._json(rel)
        if not isinstance(record, dict):
            return {"verdict": "failed"}
        lineage = record.get("lineage") or {}
        original = (lineage.get("original") or {}).get("submission_sha256")
        ours = sha256_file(submission) if submission.is_file() else None
        if original is not None and original != ours:
            self.problems.append(
                f"{cell}/submission.csv: sha256 {_short(ours)} is not the original's {_short(original)} that "
                f"{rel} records"
            )
        if not _same(record.get("original_score"), fields.get("score")):
            self.problems.append(
                f"{rel}: original_score {record.get('original_score')!r}, re-graded {fields.get('score')!r}"
            )
        again = self.folder / cell / RERUN / "submission.csv"
        score, status = None, str(record.get("status") or "")
        graded_again = (
            self._json(f"{cell}/{RERUN}/grade.json") if (again.parent / "grade.json").is_file() else {}
        )
        if graded_again:
            status = str(graded_again.get("status") or status)
        if again.is_file():
            written = (lineage.get("reproduction") or {}).get("submission_sha256")
            if written != sha256_file(again):
                self.problems.append(
                    f"{cell}/{RERUN}/submission.csv: sha256 {_short(sha256_file(again))} is not the "
                    f"{_short(written)} that {rel} records of the re-run"
                )
            try:
                score = grade(comp, again, self._prepared(comp.id) / "private").to_dict()["score"]
            except Exception as exc:  # noqa: BLE001 - a grader failure is a finding
                self.problems.append(
                    f"{cell}/{RERUN}/submission.csv: the grader raised {type(exc).__name__}: {exc}"
                )
            if not _same(record.get("score"), score):
                self.problems.append(f"{rel}: score {record.get('score')!r}, the re-run re-graded {score!r}")
        tolerance = record.get("tolerance") or {}
        verdict, _ = judge(
            bool(record.get("command")),
            status,
            fields.get("score"),
            score,
            bool(fields.get("is_lower_better")),
            float(tolerance.get("worse", 0.0)),
            float(tolerance.get("better", 0.0)),
        )
        if verdict != record.get("verdict"):
            why = "" if again.is_file() else " (no re-run submission in the bundle)"
            self.problems.append(
                f"{rel}: verdict {record.get('verdict')!r}, re-derived {verdict!r} from the bundled re-run"
                + why
            )
        return {"verdict": verdict}

    def _check_lineage(
        self,
        cell: str,
        record: dict,
        agent: str,
        seed: int,
        comp: Competition,
        hardware: Any,
        submission: Path,
    ) -> dict[str, Any]:
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
        collected = run.get("submission_sha256")
        ours = sha256_file(submission) if submission.is_file() else None
        if collected and collected != ours:
            self.problems.append(
                f"{cell}/submission.csv: sha256 {_short(ours)} is not the {_short(collected)} the runner "
                f"collected ({cell}/run.json)"
            )
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
        return run

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
