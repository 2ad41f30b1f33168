"""``citebot`` end to end, in a subprocess, as a user runs it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bot" / "demo" / "corpus"


def citebot(*args: str, env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the CLI with a clean environment (no keys or tokens leak in from the machine)."""
    base = {key: value for key, value in os.environ.items()
            if not key.startswith(("UPSTREAM_", "MAGISTERIUM_", "DISCORD_", "SLACK_", "DEMO_",
                                   "CITEBOT_"))}
    base.update({"DEMO_TOKENS_PER_SECOND": "2000", "PYTHONWARNINGS": "error"})
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                          env=base, timeout=timeout, cwd=tempfile.gettempdir(), check=False)


def corpus_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(CORPUS.glob("*.md")))


def test_ask_streams_a_cited_answer_from_the_demo_without_a_key() -> None:
    result = citebot("ask", "How do I deploy citebot?")
    assert result.returncode == 0, result.stderr
    assert "demo upstream" in result.stderr
    assert "Traceback" not in result.stderr
    out = result.stdout
    assert "Procfile" in out or "worker" in out
    assert "¹" in out  # footnotes shown as superscript numbers
    assert "Sources" in out  # then the citation cards


def test_ask_json_for_discord_previews_the_payloads() -> None:
    result = citebot("ask", "How do I deploy citebot?", "--platform", "discord", "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert set(document) == {"platform", "answer", "thread", "citations"}
    assert document["platform"] == "discord"
    assert document["answer"]
    assert all(p["allowed_mentions"] == {"parse": []} for p in document["answer"])
    assert document["citations"]
    corpus = corpus_text()
    for citation in document["citations"]:
        assert citation["cited_text"].rstrip("…") in corpus  # every quote is the source's words
    embeds = [embed for payload in document["thread"] for embed in payload.get("embeds", [])]
    assert len(embeds) >= len(document["citations"])


def test_ask_json_for_slack_previews_the_payloads() -> None:
    result = citebot("ask", "What does STATE_URL do?", "--platform", "slack", "--json",
                     "--builder-url")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["platform"] == "slack"
    assert all("markdown_text" in payload for payload in document["answer"])
    assert all("blocks" in payload and payload["text"] for payload in document["thread"])
    assert "app.slack.com/block-kit-builder" in result.stderr


def test_ask_with_an_unreachable_upstream_says_so_in_one_paragraph() -> None:
    result = citebot("ask", "Anything?", env={"UPSTREAM_BASE_URL": "http://127.0.0.1:9/v1",
                                              "UPSTREAM_API_KEY": "sk-hidden-value",
                                              "UPSTREAM_MAX_RETRIES": "1",
                                              "UPSTREAM_CONNECT_TIMEOUT": "1"})
    assert result.returncode == 1
    assert "could not reach the answer service" in result.stderr
    assert "Traceback" not in result.stderr
    assert "sk-hidden-value" not in result.stderr + result.stdout


def test_ask_speaks_the_configured_language_when_the_upstream_is_unreachable() -> None:
    result = citebot("ask", "Que dit le Catéchisme ?", env={
        "CITEBOT_LANGUAGE": "fr", "UPSTREAM_BASE_URL": "http://127.0.0.1:9/v1",
        "UPSTREAM_API_KEY": "sk-test", "UPSTREAM_MAX_RETRIES": "0",
        "UPSTREAM_CONNECT_TIMEOUT": "1"})
    assert result.returncode == 1
    assert ("Je n’ai pas pu joindre le service de réponses pour le moment. "
            "Veuillez réessayer dans une minute.") in result.stderr
    assert "could not reach" not in result.stderr


def test_a_bad_setting_is_one_line_naming_the_variable() -> None:
    result = citebot("ask", "Why?", env={"STATE_URL": "mongodb://nope"})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "citebot: STATE_URL: must start with memory://, sqlite:/// or redis://, got "
        "'mongodb://nope'"]


@pytest.mark.parametrize(("env", "words"), [
    ({}, "no platform is configured: set DISCORD_TOKEN"),
    ({"DISCORD_TOKEN": "x"}, "UPSTREAM_API_KEY (or MAGISTERIUM_API_KEY) is not set"),
    ({"SLACK_BOT_TOKEN": "xoxb-1"}, "neither SLACK_APP_TOKEN (Socket Mode) nor "
                                    "SLACK_SIGNING_SECRET"),
])
def test_run_refuses_to_start_naming_what_is_missing(env: dict[str, str], words: str) -> None:
    result = citebot("run", env=env)
    assert result.returncode == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


async def test_demo_server_serves_the_magisterium_wire_until_stopped() -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DEMO_")}
    env["DEMO_TOKENS_PER_SECOND"] = "inf"
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "demo-server", "--port", "0", env=env,
        cwd=tempfile.gettempdir(), stderr=asyncio.subprocess.PIPE)
    try:
        assert server.stderr is not None
        announced = (await asyncio.wait_for(server.stderr.readline(), 20)).decode()
        base = re.search(r"(http://127\.0\.0\.1:\d+/v1)", announced)
        assert base is not None, announced
        async with httpx.AsyncClient() as http:
            reply = await http.post(f"{base.group(1)}/chat/completions", json={
                "model": "magisterium-1", "stream": False,
                "messages": [{"role": "user", "content": "How do I deploy citebot?"}]})
        body = reply.json()
        assert body["object"] == "chat.completion"
        assert "[^1]" in body["choices"][0]["message"]["content"]
        assert body["citations"][0]["document_index"] == 0
    finally:
        server.send_signal(signal.SIGINT)
        await asyncio.wait_for(server.wait(), 10)
    assert server.returncode in (0, 130)
