"""The LLM stand-in through the real ``openai`` SDK: plain and streamed replies, tool calls, usage."""

from __future__ import annotations

import json
from collections.abc import Iterator

import openai
import pytest

from authoring.llm_standin import StandinLLM, count_tokens

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": "Write a file.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                "required": ["path", "content"],
            },
        },
    }
]
CODE = "import pandas as pd\nprint(pd.read_csv('train.csv').shape)  # «rows», cols\n"
SCRIPT = {
    "titanic-lite": [
        {
            "content": "Writing the solution.",
            "tool_calls": [{"name": "write_file", "arguments": {"path": "a.py", "content": CODE}}],
        },
        "All done: the submission is written.",
    ],
    "titanic": ["the shorter key loses to the longer one"],
}


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clear the proxy the session's Kaggle stand-in sets: the LLM stand-in is on loopback."""
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def llm() -> Iterator[StandinLLM]:
    with StandinLLM(conversations=SCRIPT, key="k-1") as server:
        yield server


def _client(llm: StandinLLM) -> openai.OpenAI:
    return openai.OpenAI(base_url=llm.base_url, api_key="k-1", max_retries=0)


def _messages(history: list | None = None) -> list[dict]:
    return [
        {"role": "system", "content": "You solve the competition titanic-lite."},
        {"role": "user", "content": "Read description.md and solve it."},
        *(history or []),
    ]


def test_a_tool_call_turn_then_a_text_turn_without_streaming(llm: StandinLLM) -> None:
    client = _client(llm)
    first = client.chat.completions.create(model="m", messages=_messages(), tools=TOOLS)
    (call,) = first.choices[0].message.tool_calls
    assert first.choices[0].finish_reason == "tool_calls"
    assert call.type == "function" and call.function.name == "write_file"
    assert json.loads(call.function.arguments) == {"path": "a.py", "content": CODE}
    history = [first.choices[0].message.model_dump(exclude_none=True)]
    history.append({"role": "tool", "tool_call_id": call.id, "content": "wrote a.py"})
    second = client.chat.completions.create(model="m", messages=_messages(history), tools=TOOLS)
    assert second.choices[0].message.content == "All done: the submission is written."
    assert second.choices[0].finish_reason == "stop" and not second.choices[0].message.tool_calls
    third = client.chat.completions.create(model="m", messages=_messages(history))
    assert third.choices[0].message.content == llm.default  # the script is used up
    assert [s["turn"] for s in llm.served] == [0, 1, 2] and {s["conversation"] for s in llm.served} == {
        "titanic-lite"
    }


def test_usage_is_counted_from_the_text(llm: StandinLLM) -> None:
    client = _client(llm)
    reply = client.chat.completions.create(model="m", messages=_messages(), tools=TOOLS)
    arguments = reply.choices[0].message.tool_calls[0].function.arguments
    prompt = (
        count_tokens("You solve the competition titanic-lite.")
        + count_tokens("Read description.md and solve it.")
        + count_tokens(json.dumps(TOOLS, sort_keys=True))
    )
    completion = count_tokens("Writing the solution.") + count_tokens("write_file") + count_tokens(arguments)
    assert reply.usage.prompt_tokens == prompt and reply.usage.completion_tokens == completion
    assert reply.usage.total_tokens == prompt + completion
    assert llm.usage() == {"requests": 1, "prompt_tokens": prompt, "completion_tokens": completion}
    assert llm.usage("titanic") == {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0}


def test_streamed_tool_call_deltas_reassemble_and_usage_comes_last(llm: StandinLLM) -> None:
    client = _client(llm)
    stream = client.chat.completions.create(
        model="m", messages=_messages(), tools=TOOLS, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    content = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert content == "Writing the solution."
    deltas = [tc for c in chunks if c.choices for tc in c.choices[0].delta.tool_calls or []]
    assert deltas[0].id == "call_standin_0_0" and deltas[0].function.name == "write_file"
    assert len(deltas) > 3  # the arguments arrive in pieces
    arguments = "".join(d.function.arguments or "" for d in deltas)
    assert json.loads(arguments) == {"path": "a.py", "content": CODE}
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finishes == ["tool_calls"]
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert all(c.usage is None for c in chunks[:-1])
    assert chunks[-1].usage.model_dump(include={"prompt_tokens", "completion_tokens"}) == {
        k: llm.usage()[k] for k in ("prompt_tokens", "completion_tokens")
    }


def test_the_sdk_stream_helper_accumulates_a_streamed_text_reply(llm: StandinLLM) -> None:
    client = _client(llm)
    client.chat.completions.create(model="m", messages=_messages())  # turn 0 taken
    with client.chat.completions.stream(model="m", messages=_messages()) as stream:
        pieces = [e.delta for e in stream if e.type == "content.delta"]
        final = stream.get_final_completion()
    assert len(pieces) > 1 and "".join(pieces) == "All done: the submission is written."
    assert final.choices[0].message.content == "All done: the submission is written."


def test_a_stream_without_include_usage_has_no_usage_chunk(llm: StandinLLM) -> None:
    chunks = list(_client(llm).chat.completions.create(model="m", messages=_messages(), stream=True))
    assert all(c.choices for c in chunks) and all(c.usage is None for c in chunks)
    assert llm.served[0]["usage"]["completion_tokens"] > 0  # the stand-in still counted it


def test_the_conversation_is_chosen_by_the_longest_key_in_the_system_or_first_user_message() -> None:
    with StandinLLM(conversations=SCRIPT) as llm:
        client = openai.OpenAI(base_url=llm.base_url, api_key="x", max_retries=0)
        other = [{"role": "user", "content": "Solve titanic."}]
        assert client.chat.completions.create(model="m", messages=other).choices[0].message.content == (
            "the shorter key loses to the longer one"
        )
        late = [{"role": "user", "content": "hello"}, {"role": "user", "content": "titanic-lite"}]
        assert client.chat.completions.create(model="m", messages=late).choices[0].message.content == (
            llm.default  # named only in a later message: no conversation, the rules' default
        )
    assert [s["conversation"] for s in llm.served] == ["titanic", None]


def test_a_wrong_key_is_refused_and_scripted_failures_are_retried(llm: StandinLLM) -> None:
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(base_url=llm.base_url, api_key="wrong", max_retries=0).chat.completions.create(
            model="m", messages=_messages()
        )
    llm.fail = 1
    retrying = openai.OpenAI(base_url=llm.base_url, api_key="k-1", max_retries=2)
    reply = retrying.chat.completions.create(model="m", messages=_messages(), tools=TOOLS)
    assert reply.choices[0].message.tool_calls[0].function.name == "write_file"
    assert len(llm.requests) == 2 and len(llm.served) == 1  # refused: not kept; failed: no turn taken


def test_it_binds_the_host_it_is_given() -> None:
    with StandinLLM(host="0.0.0.0") as llm:
        assert llm.base_url == f"http://0.0.0.0:{llm.port}/v1"
        reply = openai.OpenAI(
            base_url=f"http://127.0.0.1:{llm.port}/v1", api_key="x"
        ).chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
        assert reply.choices[0].message.content == llm.default


def test_a_turn_may_be_a_function_of_the_request() -> None:
    def review(messages: list[dict]) -> dict:
        metric = float(messages[0]["content"].rsplit(":", 1)[1])
        return {"content": None, "tool_calls": [{"name": "submit_review", "arguments": {"metric": metric}}]}

    with StandinLLM(conversations={"comp-x": [review]}) as llm:
        client = openai.OpenAI(base_url=llm.base_url, api_key="x", max_retries=0)
        messages = [{"role": "system", "content": "comp-x printed validation accuracy: 0.8125"}]
        reply = client.chat.completions.create(model="m", messages=messages)
    assert json.loads(reply.choices[0].message.tool_calls[0].function.arguments) == {"metric": 0.8125}
