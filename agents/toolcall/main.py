"""A small tool-using agent on the OpenAI chat-completions API (the ``openai`` SDK).

The model reads the task (``/home/instructions.txt`` and ``$DATA_DIR/description.md``) and works through
four tools: ``write_file`` (a file under ``$CODE_DIR``), ``run`` (a shell command in ``$CODE_DIR``, with a
timeout), ``validate`` (the container's format check of ``$SUBMISSION_DIR/submission.csv``) and
``finish``. The loop ends when the model calls ``finish`` or answers without a tool call, or when a
budget runs out: ``max_steps`` model calls, ``max_total_tokens`` prompt + completion tokens, or
``max_seconds`` of wall-clock time (by default a margin below ``$TIME_LIMIT_SECS``).

Options (``AGENT_KWARGS``): ``model``, ``base_url`` (an OpenAI-compatible ``.../v1``), ``api_key_env``
(the variable holding the key, default ``OPENAI_API_KEY``), ``max_steps``, ``max_total_tokens``,
``max_seconds``, ``command_timeout_secs``, ``temperature``, ``stream`` (ask for streamed replies, with
``stream_options.include_usage``), ``max_output_chars`` (how much of a command's output the model sees).

Logs (``$LOGS_DIR``): ``transcript.jsonl`` (every message, one per line), ``agent.log`` and
``usage.json``, the usage record the runner reads (its format in README.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_STARTED = time.monotonic()
USAGE_FORMAT = "mlebench-usage/1"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": "Write a text file under $CODE_DIR (the path is relative to it).",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                "required": ["path", "content"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "run",
            "description": "Run a shell command in $CODE_DIR; returns its exit code and output.",
            "parameters": {
                "type": "object",
                "properties": {
                    "command": {"type": "string"},
                    "timeout_secs": {"type": "integer", "description": "at most the remaining time"},
                },
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "validate",
            "description": "Check the format of $SUBMISSION_DIR/submission.csv (never gives a score).",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "finish",
            "description": "Stop: the submission is final.",
            "parameters": {"type": "object", "properties": {"summary": {"type": "string"}}},
        },
    },
]
SYSTEM = """You are an autonomous machine-learning engineer working alone in a Linux container.
Competition: {competition}. Work only through the tools: write your code under $CODE_DIR with
`write_file`, run it with `run`, check the submission with `validate`, then call `finish`.
Keep the code that writes your final submission, and write $CODE_DIR/reproduce.sh: the shell commands that,
run in $CODE_DIR, write $SUBMISSION_DIR/submission.csv again from the data (it may be re-run to check).
Paths: DATA_DIR={data}, CODE_DIR={code}, SUBMISSION_DIR={submission}. Python is `python`.

{instructions}"""


class Budget:
    """Steps, tokens and seconds left; :meth:`exhausted` says which ran out first."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        limit = int(os.environ.get("TIME_LIMIT_SECS", "3600"))
        self.max_steps = int(kwargs.get("max_steps", 30))
        self.max_tokens = int(kwargs.get("max_total_tokens", 1_000_000))
        self.max_seconds = float(kwargs.get("max_seconds", max(10.0, limit * 0.95 - 30)))
        self.steps = 0
        self.usage: dict[str, Any] = {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0}
        self.unreported = 0

    def remaining_seconds(self) -> float:
        """Seconds of the time budget left."""
        return self.max_seconds - (time.monotonic() - _STARTED)

    def exhausted(self) -> str:
        """Why no further model call may be made ("" while every budget has room)."""
        if self.steps >= self.max_steps:
            return f"step budget of {self.max_steps} model calls used"
        if self.usage["prompt_tokens"] + self.usage["completion_tokens"] >= self.max_tokens:
            return f"token budget of {self.max_tokens} tokens used"
        if self.remaining_seconds() <= 0:
            return f"time budget of {self.max_seconds:.0f} s used"
        return ""

    def count(self, usage: Any) -> None:
        """Add one request and the usage the API reported for it (None: not reported)."""
        self.steps += 1
        self.usage["requests"] += 1
        if usage is None:
            self.unreported += 1
            return
        self.usage["prompt_tokens"] += int(usage.prompt_tokens or 0)
        self.usage["completion_tokens"] += int(usage.completion_tokens or 0)


class Agent:
    """One run: the conversation, the tools and the budgets."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        import openai

        self.kwargs = kwargs
        self.env = {k: Path(os.environ[k]) for k in ("DATA_DIR", "CODE_DIR", "SUBMISSION_DIR", "LOGS_DIR")}
        for key in ("CODE_DIR", "SUBMISSION_DIR", "LOGS_DIR"):
            self.env[key].mkdir(parents=True, exist_ok=True)
        self.model = str(kwargs.get("model", "gpt-4o-mini"))
        self.stream = bool(kwargs.get("stream", True))
        self.budget = Budget(kwargs)
        key_env = str(kwargs.get("api_key_env", "OPENAI_API_KEY"))
        key = os.environ.get(key_env, "")
        if not key:
            self.log(f"no API key in ${key_env}: calling {kwargs.get('base_url')} without one")
        self.client = openai.OpenAI(
            api_key=key or "none", base_url=kwargs.get("base_url"), max_retries=int(kwargs.get("retries", 2))
        )
        self.messages: list[dict[str, Any]] = []
        self.finished = ""

    def log(self, line: str) -> None:
        """Append a line to ``agent.log`` and print it."""
        text = f"[{time.monotonic() - _STARTED:7.1f}s] {line}"
        print(text, flush=True)
        with (self.env["LOGS_DIR"] / "agent.log").open("a", encoding="utf-8") as fh:
            fh.write(text + "\n")

    def add(self, message: dict[str, Any]) -> None:
        """Append a message to the conversation and the transcript."""
        self.messages.append(message)
        with (self.env["LOGS_DIR"] / "transcript.jsonl").open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(message) + "\n")

    def start(self) -> None:
        """Open the conversation with the instructions and the task's description."""
        instructions = Path(os.environ.get("INSTRUCTIONS_FILE", "/home/instructions.txt"))
        system = SYSTEM.format(
            competition=os.environ.get("COMPETITION_ID", "unknown"),
            data=self.env["DATA_DIR"],
            code=self.env["CODE_DIR"],
            submission=self.env["SUBMISSION_DIR"],
            instructions=instructions.read_text(encoding="utf-8") if instructions.is_file() else "",
        )
        listing = "\n".join(sorted(p.name for p in self.env["DATA_DIR"].iterdir()))
        description = (self.env["DATA_DIR"] / "description.md").read_text(encoding="utf-8")
        self.add({"role": "system", "content": system})
        self.add({"role": "user", "content": f"{description}\n\nFiles in DATA_DIR:\n{listing}"})

    def call(self) -> dict[str, Any]:
        """Ask the model for the next assistant message (streamed or not); count its usage."""
        args: dict[str, Any] = {"model": self.model, "messages": self.messages, "tools": TOOLS}
        if "temperature" in self.kwargs:
            args["temperature"] = float(self.kwargs["temperature"])
        if not self.stream:
            reply = self.client.chat.completions.create(**args)
            self.budget.count(reply.usage)
            return reply.choices[0].message.model_dump(exclude_none=True)
        stream = self.client.chat.completions.create(
            **args, stream=True, stream_options={"include_usage": True}
        )
        content, calls, usage = [], {}, None
        for chunk in stream:
            usage = chunk.usage or usage
            for choice in chunk.choices:
                content.append(choice.delta.content or "")
                for delta in choice.delta.tool_calls or []:
                    call = calls.setdefault(
                        delta.index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
                    )
                    call["id"] = delta.id or call["id"]
                    if delta.function is not None:
                        call["function"]["name"] += delta.function.name or ""
                        call["function"]["arguments"] += delta.function.arguments or ""
        self.budget.count(usage)
        message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None}
        if calls:
            message["tool_calls"] = [calls[i] for i in sorted(calls)]
        return message

    def loop(self) -> None:
        """Call the model and its tools until it finishes or a budget runs out."""
        while not self.finished:
            why = self.budget.exhausted()
            if why:
                self.log(f"stopping: {why}")
                return
            message = self.call()
            self.write_usage()  # after every call, so a run stopped at the time limit keeps its count
            self.add(message)
            calls = message.get("tool_calls") or []
            if not calls:
                self.log("the model answered without a tool call: done")
                return
            for call in calls:
                result = self.tool(call["function"]["name"], call["function"]["arguments"])
                self.add({"role": "tool", "tool_call_id": call["id"], "content": result})

    def tool(self, name: str, arguments: str) -> str:
        """Run one tool call; every failure becomes the text the model reads."""
        try:
            args = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            return f"error: the arguments are not JSON ({exc})"
        self.log(f"tool {name} {json.dumps(args)[:200]}")
        if name == "write_file":
            target = (self.env["CODE_DIR"] / str(args.get("path", ""))).resolve()
            if not target.is_relative_to(self.env["CODE_DIR"].resolve()) or target == self.env["CODE_DIR"]:
                return f"error: {args.get('path')!r} is not a file path under $CODE_DIR"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(str(args.get("content", "")), encoding="utf-8")
            return f"wrote {target} ({target.stat().st_size} bytes)"
        if name == "run":
            limit = float(self.kwargs.get("command_timeout_secs", 600))
            timeout = max(
                1.0, min(float(args.get("timeout_secs") or limit), limit, self.budget.remaining_seconds())
            )
            return self.shell(["bash", "-c", str(args.get("command", ""))], timeout)
        if name == "validate":
            return self.shell(["validate", str(self.env["SUBMISSION_DIR"] / "submission.csv")], 120)
        if name == "finish":
            self.finished = str(args.get("summary", "")) or "finished"
            return "finished"
        return f"error: no tool {name!r} (tools: write_file, run, validate, finish)"

    def shell(self, command: list[str], timeout: float) -> str:
        """Run a command in $CODE_DIR; return its exit code and the tail of its output."""
        keep = int(self.kwargs.get("max_output_chars", 8000))
        try:
            done = subprocess.run(
                command,
                cwd=self.env["CODE_DIR"],
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as exc:
            out = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
            return f"timed out after {timeout:.0f} s\n{out[-keep:]}"
        except OSError as exc:
            return f"error: {exc}"
        out = (done.stdout + done.stderr)[-keep:]
        self.log(f"exit code {done.returncode}")
        return f"exit code {done.returncode}\n{out}"

    def write_usage(self) -> None:
        """Write ``usage.json``: what the API reported, summed over this run's requests."""
        record = {
            "format": USAGE_FORMAT,
            "counted_at": "agent",
            **self.budget.usage,
            "unreported_requests": self.budget.unreported,
            "models": {self.model: dict(self.budget.usage)},
        }
        path = self.env["LOGS_DIR"] / "usage.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)


def main() -> int:
    """Run the agent; exit 0 when a submission exists at the end."""
    kwargs = json.loads(os.environ.get("AGENT_KWARGS") or "{}")
    agent = Agent(kwargs)
    try:
        agent.start()
        agent.loop()
    finally:
        agent.write_usage()
    submission = agent.env["SUBMISSION_DIR"] / "submission.csv"
    agent.log(f"finished ({agent.finished or 'no finish call'}); submission exists: {submission.is_file()}")
    return 0 if submission.is_file() else 1


if __name__ == "__main__":
    sys.exit(main())
