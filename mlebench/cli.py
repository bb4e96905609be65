"""The ``mlebench`` command: list, prepare, grade, plan, run, report, bundle, check, and more.

Subcommands: list, prepare, grade, grade-sample, plan, run, report, bundle, verify-bundle, check,
leaderboard, thresholds.

Names and flags follow MLE-bench's CLI where it has them (``prepare -c/--all/--lite``, ``grade --submission
--output-dir``, ``grade-sample SUBMISSION COMPETITION_ID``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from mlebench_spec.errors import ConfigError


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


COMMANDS_GROUP = "mlebench.commands"
"""Entry-point group of commands other packages add to ``mlebench`` (pyproject.toml's authoring ``thresholds``
and ``leaderboard``): each names a function that takes the subparsers and adds its own, whose ``func`` runs
it. So the CLI never imports the tools that author the benchmark; they plug into it."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mlebench", description=__doc__)
    from importlib.metadata import entry_points

    sub = parser.add_subparsers(metavar="COMMAND")

    p = sub.add_parser("list", help="print competition ids, one per line")
    p.add_argument(
        "--competition-set", "-s", metavar="NAME", help="a set from conf/competition_set/ (default: all)"
    )
    p.set_defaults(func=_list)

    p = sub.add_parser(
        "prepare", help="fetch and prepare competitions (outside DVC; `dvc repro` does this too)"
    )
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("-c", "--competition-id", metavar="ID")
    group.add_argument("-s", "--competition-set", metavar="NAME")
    group.add_argument("-a", "--all", action="store_true", help="every declared competition")
    group.add_argument("--lite", action="store_true", help="the low-complexity set (MLE-bench Lite)")
    group.add_argument("-l", "--list", type=Path, metavar="FILE", help="competition ids, one per line")
    p.add_argument(
        "--check",
        action="store_true",
        help="download nothing: report per competition whether credentials work, rules are accepted, size",
    )
    p.add_argument(
        "--data-dir",
        type=Path,
        help="write into DIR instead of the checkout's data/ (layout: --data-layout; downloads in "
        "<DIR>/.downloads)",
    )
    p.add_argument(
        "--data-layout",
        choices=["v1", "ours"],
        default="v1",
        help="with --data-dir: v1 (default, as MLE-bench v1) writes <DIR>/<id>/prepared/{public,private} and "
        "raw files in <DIR>/<id>/raw; ours writes <DIR>/<id>/{public,private}, raw files in <DIR>/.raw/<id>",
    )
    p.add_argument("--keep-raw", action="store_true", help="keep the extracted raw files after preparing")
    p.add_argument(
        "--refresh-checksums",
        "--overwrite-checksums",
        dest="refresh_checksums",
        action="store_true",
        help="record the downloaded archives' sha256 in the declarations (v1's --overwrite-checksums)",
    )
    p.add_argument(
        "--overwrite-leaderboard",
        action="store_true",
        help="refused: the leaderboards are v1's own files, checked against v1's Git-LFS pointers "
        "(`mlebench thresholds`), never downloaded again",
    )
    p.add_argument(
        "--skip-verification",
        action="store_true",
        help="refused: every downloaded and prepared file is checked against its declared sha256",
    )
    p.add_argument(
        "--v1-descriptions",
        type=Path,
        metavar="CHECKOUT",
        help="give agents v1's description.md from this MLE-bench v1 checkout, checked by git blob id",
    )
    p.add_argument(
        "--obfuscated",
        action="store_true",
        help="with --v1-descriptions: v1's description_obfuscated.md instead (v1's OBFUSCATE), checked too",
    )
    p.set_defaults(func=_prepare)

    p = sub.add_parser("grade", help="grade a JSONL of {competition_id, submission_path} lines")
    p.add_argument("--submission", required=True, type=Path, help="JSONL file, one submission per line")
    p.add_argument("--output-dir", required=True, type=Path)
    _grading_arguments(p)
    p.set_defaults(func=_grade)

    p = sub.add_parser("grade-sample", help="grade one submission CSV and print its record as JSON")
    p.add_argument("submission", type=Path)
    p.add_argument("competition_id")
    _grading_arguments(p)
    p.set_defaults(func=_grade_sample)

    p = sub.add_parser("plan", help="compose conf/ into params.yaml and the DVC pipeline files")
    p.add_argument("--check", action="store_true", help="only report drift from conf/; exit 1 if any")
    p.add_argument("-m", "--multirun", action="store_true", help="expand Hydra sweeps and plan their union")
    p.add_argument("overrides", nargs="*", help="Hydra overrides, e.g. agent=[baseline] seed=five")
    p.set_defaults(func=_plan)

    p = sub.add_parser("run", help="run the planned grid's stale stages in parallel through an executor")
    p.add_argument("--executor", default="local", help="local, slurm or ray (conf/executor/)")
    p.add_argument("--jobs", "-j", type=int, help="at most this many agent runs at once (default: its slots)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, help="live view (default: on a tty)")
    p.add_argument("-m", "--multirun", action="store_true", help="expand Hydra sweeps and plan their union")
    p.add_argument("overrides", nargs="*", help="Hydra overrides: plan with them first; executor.KEY=VALUE")
    p.set_defaults(func=_run)

    p = sub.add_parser("report", help="aggregate grading records (the DVC `report` stage)")
    p.set_defaults(func=_report)

    p = sub.add_parser("bundle", help="pack one agent's graded grid as a leaderboard submission bundle")
    p.add_argument("--agent", help="agent of params.yaml to bundle (default: the plan's only agent)")
    p.add_argument(
        "--out", type=Path, help="a folder, or a file ending .tar.gz (default: <agent>-bundle.tar.gz)"
    )
    p.add_argument("--experiment-id", help="the experiment id in run_group_experiments.csv (default: agent)")
    p.add_argument("--max-log-bytes", type=int, default=1 << 20, help="per cell; longer logs keep their tail")
    p.add_argument(
        "--max-code-bytes", type=int, default=4 << 20, help="per cell; code files past it are left out"
    )
    p.set_defaults(func=_bundle)

    p = sub.add_parser("verify-bundle", help="re-hash and re-grade a bundle; print its leaderboard row")
    p.add_argument("bundle", type=Path, help="a bundle folder or .tar.gz")
    p.add_argument(
        "--data-dir",
        type=Path,
        help="folder holding <id>/{public,private} or MLE-bench v1's <id>/prepared/{public,private} "
        "(default: data/prepared)",
    )
    pad = p.add_mutually_exclusive_group()
    pad.add_argument(
        "--pad-missing",
        dest="pad",
        action="store_true",
        default=None,
        help="pad incomplete seeds with failing scores (default: as the bundle says)",
    )
    pad.add_argument("--no-pad-missing", dest="pad", action="store_false")
    p.set_defaults(func=_verify_bundle)

    p = sub.add_parser("check", help="validate every competition folder and report all problems at once")
    p.set_defaults(func=_check)

    p = sub.add_parser(
        "remotes", help="check that this machine holds credentials for DVC remotes (all, or those named)"
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="remotes to check (default: every remote)")
    p.set_defaults(func=_remotes)

    for command in entry_points(group=COMMANDS_GROUP):  # the authoring tools', when installed
        command.load()(sub)
    return parser


def _remotes(args: argparse.Namespace) -> int:
    """Print each remote and whether its credentials are here; exit 1 naming the missing ones."""
    from dvc.repo import Repo

    from mlebench.data.remotes import missing_credentials

    with Repo() as repo:
        remotes = {name: dict(conf) for name, conf in repo.config["remote"].items()}
    names = args.names or list(remotes)
    problems = missing_credentials(remotes, names)
    for name in names:
        if name in remotes:
            print(f"{name}\t{remotes[name].get('url', '')}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


def _list(args: argparse.Namespace) -> int:
    from mlebench.planning.plan import selected_ids

    for cid in selected_ids(set_name=args.competition_set):
        print(cid)
    return 0


def _grading_arguments(p: argparse.ArgumentParser) -> None:
    """Add where the answers are (``--data-dir``, ``--data-layout``) and the grading ``--mode``."""
    _data_dir_arguments(p)
    p.add_argument(
        "--mode",
        choices=["v1", "strict"],
        default="v1",
        help="grading mode: v1 pairs rows and columns as MLE-bench v1 does (default), strict refuses those",
    )


def _data_dir_arguments(p: argparse.ArgumentParser) -> None:
    from mlebench_spec.datadir import LAYOUT_NAMES

    p.add_argument(
        "--data-dir",
        type=Path,
        help="folder of prepared competitions: <id>/private (ours) or <id>/prepared/private (MLE-bench v1's, "
        "graded as it is); default: data/prepared",
    )
    p.add_argument(
        "--data-layout",
        choices=LAYOUT_NAMES,
        default="auto",
        help="which layout --data-dir has (default: auto, whichever holds the competition's private/)",
    )


def _prepare(args: argparse.Namespace) -> int:
    from mlebench_spec.declarations import load_competition

    if args.overwrite_leaderboard or args.skip_verification:
        flag = "--overwrite-leaderboard" if args.overwrite_leaderboard else "--skip-verification"
        raise ConfigError(f"prepare {flag} is not supported: {_REFUSED[flag]}; run without it")
    if args.obfuscated and not args.v1_descriptions:
        raise ConfigError(
            "prepare --obfuscated takes v1's obfuscated texts: name the checkout with --v1-descriptions"
        )
    set_name = "lite" if args.lite else args.competition_set
    if args.list is not None:
        ids = [line.strip() for line in args.list.read_text(encoding="utf-8").splitlines() if line.strip()]
        comps = [load_competition(cid) for cid in ids]
    else:
        from mlebench.planning.plan import selected_ids

        comps = [load_competition(cid) for cid in selected_ids(args.competition_id, set_name, args.all)]
    if args.check:
        return _preflight(comps)
    failed = []
    for comp in comps:
        started = time.perf_counter()
        try:
            where = _prepare_one(
                comp,
                args.data_dir,
                keep_raw=args.keep_raw,
                refresh=args.refresh_checksums,
                v1=args.v1_descriptions,
                layout=args.data_layout,
                obfuscated=args.obfuscated,
            )
        except Exception as exc:  # noqa: BLE001 - one competition's failure is reported; the others go on
            print(f"{comp.id}: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
            failed.append(comp.id)
        else:
            print(f"{comp.id}: prepared in {where} ({time.perf_counter() - started:.1f} s)")
    if failed:
        print(f"{len(failed)} of {len(comps)} failed: {' '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


_REFUSED = {
    "--overwrite-leaderboard": "the leaderboards are MLE-bench v1's own files, kept in competitions/<id>/ "
    "and "
    "checked against v1's Git-LFS pointers (`mlebench thresholds`)",
    "--skip-verification": "every downloaded and prepared file is checked against its declared sha256",
}


def _prepare_one(
    comp: Any,
    data_dir: Path | None,
    *,
    keep_raw: bool,
    refresh: bool,
    v1: Path | None = None,
    layout: str = "v1",
    obfuscated: bool = False,
) -> Path:
    """Fetch, prepare and audit one competition; return its prepared folder."""
    from mlebench.data.v1_names import fetch_and_prepare
    from mlebench_spec.params import TextSettings
    from mlebench_spec.paths import downloads_dir, prepared_dir, raw_dir
    from mlebench_spec.texts import description_file

    texts = (
        TextSettings(source="mlebench", checkout=str(v1.resolve()), obfuscate=obfuscated)
        if v1
        else TextSettings()
    )
    description_file(comp, texts, comp.folder)  # a v1 text that does not match: an error before the download

    if data_dir is None:
        raw, prepared, downloads = raw_dir(comp.id), prepared_dir(comp.id), downloads_dir(comp.id)
    elif layout == "v1":
        raw, prepared = data_dir / comp.id / "raw", data_dir / comp.id / "prepared"
        downloads = data_dir / ".downloads" / comp.id
    else:
        raw, prepared = data_dir / ".raw" / comp.id, data_dir / comp.id
        downloads = data_dir / ".downloads" / comp.id
    for line in fetch_and_prepare(
        comp, raw, prepared, downloads, keep_raw=keep_raw, refresh_checksums=refresh, texts=texts
    ):
        print(line, file=sys.stderr)
    return prepared


def _preflight(comps: list[Any]) -> int:
    from mlebench.data.kaggle_source import preflight

    kaggle = [c for c in comps if c.source.kind == "kaggle"]
    states = {p.competition_id: p for p in preflight(kaggle)} if kaggle else {}
    width = max(len(c.id) for c in comps)
    not_ready = 0
    for comp in comps:
        if comp.source.kind != "kaggle":
            origin = comp.source.script if comp.source.kind == "generated" else comp.source.distribution
            print(f"{comp.id:<{width}}  ready               ({comp.complexity}: from {origin})")
            continue
        p = states[comp.id]
        size = f"{p.size_bytes / 1e9:8.2f} GB" if p.size_bytes is not None else " " * 11
        not_ready += p.state != "ready"
        print(f"{comp.id:<{width}}  {p.state:<19} {size}  {p.detail}".rstrip())
    print(f"{len(comps) - not_ready} of {len(comps)} ready")
    return 1 if not_ready else 0


def _grade(args: argparse.Namespace) -> int:
    from mlebench.execution.scoring import report_entry
    from mlebench.reporting.v1 import grading_report
    from mlebench_spec.files import write_json

    reports = []
    for lineno, line in enumerate(args.submission.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith(("#", "//")):
            continue
        try:
            entry = json.loads(text)
            cid, path = entry["competition_id"], entry["submission_path"]
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ConfigError(
                f"{args.submission}:{lineno}: needs JSON with competition_id and submission_path ({exc})"
            ) from None
        private = _private(cid, args.data_dir, args.data_layout)
        reports.append(report_entry(cid, Path(str(path)), private, args.mode))
    summary = grading_report(reports)
    out = args.output_dir / f"{time.strftime('%Y-%m-%dT%H-%M-%S-%Z', time.gmtime())}_grading_report.json"
    write_json(out, summary)
    print(json.dumps({k: v for k, v in summary.items() if k != "competition_reports"}, indent=2))
    print(f"wrote {out}")
    return 0


def _grade_sample(args: argparse.Namespace) -> int:
    from mlebench.execution.scoring import report_entry

    private = _private(args.competition_id, args.data_dir, args.data_layout)
    print(json.dumps(report_entry(args.competition_id, args.submission, private, args.mode), indent=4))
    return 0


def _private(competition_id: str, data_dir: Path | None, layout: str = "auto") -> Path:
    """Return the answers to grade against, checked as the grade stage checks them.

    A ``--data-dir`` folder of the user's own (ours or MLE-bench v1's layout) may lack a manifest: then a
    warning (:func:`mlebench_spec.datadir.checked_answers`).
    """
    from mlebench_spec.datadir import answers_dir, checked_answers
    from mlebench_spec.declarations import load_competition
    from mlebench_spec.params import DataSettings

    load_competition(competition_id)  # an unknown id is named first, with the known ones
    data = DataSettings(dir=str(data_dir.resolve()) if data_dir is not None else "", layout=layout)
    private = answers_dir(competition_id, data)
    return checked_answers(competition_id, private, from_data_dir=data_dir is not None)


def _plan(args: argparse.Namespace) -> int:
    from mlebench.planning.plan import check_plan, compose, resolve, write_plan
    from mlebench_spec.paths import repo_root

    plan = resolve(compose(args.overrides, multirun=args.multirun))
    if args.check:
        problems = check_plan(plan)
        for problem in problems:
            print(f"drift: {problem}", file=sys.stderr)
        if problems:
            print("run `mlebench plan` (with the same overrides) and commit the result", file=sys.stderr)
        return 1 if problems else 0
    changed = write_plan(plan)
    root = repo_root()
    for path in changed:
        print(f"wrote {path.relative_to(root)}")
    n = len(plan.agent) * len(plan.competition_set.ids) * len(plan.seeds)
    print(
        f"plan: {len(plan.agent)} agents × {len(plan.competition_set.ids)} competitions × "
        f"{len(plan.seeds)} seeds = {n} cells; run `dvc repro`"
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    from mlebench.planning.plan import compose, planned, resolve, write_plan
    from mlebench.scheduling.executor_conf import executor_settings, split_overrides
    from mlebench.scheduling.executors.registry import get_executor
    from mlebench.scheduling.scheduler import Scheduler
    from mlebench_spec.paths import repo_root

    plan_overrides, executor_overrides = split_overrides(args.overrides)
    root = repo_root()
    if plan_overrides or args.multirun:
        for path in write_plan(resolve(compose(plan_overrides, multirun=args.multirun))):
            print(f"wrote {path.relative_to(root)}")
    settings = executor_settings(args.executor, executor_overrides)
    if args.jobs:
        settings["slots"] = args.jobs
    executor = get_executor(args.executor, settings, root)
    outcome = Scheduler(root, executor, executor.settings, planned().hardware, progress=args.progress).run()
    for address, why in sorted(outcome.failed.items()):
        print(f"failed: {address}: {why}", file=sys.stderr)
    return 0 if outcome.ok else 1


def _report(args: argparse.Namespace) -> int:
    from mlebench.reporting.inputs import ReportInputs
    from mlebench.reporting.report import summary, write_report

    print(summary(write_report(ReportInputs.planned())))  # as the report stage of `dvc repro` writes it
    return 0


def _bundle(args: argparse.Namespace) -> int:
    from mlebench.reporting.bundle import Caps, build_bundle
    from mlebench_spec.params import load_plan

    plan = load_plan()
    if args.agent is None and len(plan.agent) != 1:
        raise ConfigError(
            f"params.yaml plans several agents ({', '.join(plan.agent)}): choose one with --agent"
        )
    agent = args.agent or next(iter(plan.agent))
    out = args.out or Path(f"{agent}-bundle.tar.gz")
    caps = Caps(log_bytes=args.max_log_bytes, code_bytes=args.max_code_bytes)
    submission = build_bundle(plan, agent, out, caps=caps, experiment_id=args.experiment_id)
    for cell in submission["missing_cells"]:
        print(f"not graded (left out): {cell['competition_id']} seed {cell['seed']}", file=sys.stderr)
    print(f"{agent}: {submission['leaderboard_row']}")
    print(f"wrote {out}")
    return 0


def _verify_bundle(args: argparse.Namespace) -> int:
    from mlebench.integrity.bundled import rederivers
    from mlebench.reporting.verify import verify_bundle

    result = verify_bundle(args.bundle, data_dir=args.data_dir, pad_missing=args.pad, rederive=rederivers())
    for problem in result.problems:
        print(f"MISMATCH {problem}")
    if not result.ok:
        print(f"{args.bundle}: {len(result.problems)} mismatch(es)", file=sys.stderr)
        return 1
    print(f"{args.bundle}: {result.files} files match the manifest; {result.regraded} submissions re-graded")
    print(result.row)
    return 0


def _check(args: argparse.Namespace) -> int:
    from mlebench.data.checker import check_all

    problems = check_all()
    for problem in problems:
        print(f"{problem.where}: {problem.message}")
    print(f"{len(problems)} problem(s)" if problems else "all competition folders are valid")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
