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

from tests.patience import PATIENCE
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bot" / "demo" / "corpus"


def clean_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The machine's environment without keys, tokens or a language (the CLI speaks the
    environment's locale), plus ``env``."""
    base = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(
            (
                *("UPSTREAM_", "MAGISTERIUM_", "DISCORD_", "SLACK_", "DEMO_", "CITEBOT_"),
                *("QUOTE_", "LC_", "LANG"),
            )
        )
    }
    base.update(
        {"DEMO_TOKENS_PER_SECOND": "2000", "PYTHONWARNINGS": "error", "LC_CTYPE": "C.UTF-8"}
    )
    base.update(env or {})
    return base


def citebot(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run the CLI with a clean environment (no keys or tokens leak in from the machine)."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env=clean_env(env),
        timeout=timeout,
        cwd=tempfile.gettempdir(),
        check=False,
    )


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
    labels = [e["author"]["name"].split("]")[0].strip("[") for e in embeds if "author" in e]
    shown = {int(n) for label in labels for n in label.split(",")}
    assert shown == {c["number"] for c in document["citations"]}  # every citation has its card
    for payload in document["thread"]:  # Discord shows one embed per URL in a message
        urls = [e["url"] for e in payload.get("embeds", []) if "url" in e]
        assert len(urls) == len(set(urls))


def test_ask_json_for_slack_previews_the_payloads() -> None:
    result = citebot(
        "ask", "What does STATE_URL do?", "--platform", "slack", "--json", "--builder-url"
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["platform"] == "slack"
    assert all("markdown_text" in payload for payload in document["answer"])
    assert all("blocks" in payload and payload["text"] for payload in document["thread"])
    assert "app.slack.com/block-kit-builder" in result.stderr


def test_ask_with_an_unreachable_upstream_says_so_in_one_paragraph() -> None:
    result = citebot(
        "ask",
        "Anything?",
        env={
            "UPSTREAM_BASE_URL": "http://127.0.0.1:9/v1",
            "UPSTREAM_API_KEY": "sk-hidden-value",
            "UPSTREAM_MAX_RETRIES": "1",
            "UPSTREAM_CONNECT_TIMEOUT": "1",
        },
    )
    assert result.returncode == 1
    assert "could not reach the answer service" in result.stderr
    assert "Traceback" not in result.stderr
    assert "sk-hidden-value" not in result.stderr + result.stdout


def test_ask_speaks_the_configured_language_when_the_upstream_is_unreachable() -> None:
    result = citebot(
        "ask",
        "Que dit le Catéchisme ?",
        env={
            "CITEBOT_LANGUAGE": "fr",
            "UPSTREAM_BASE_URL": "http://127.0.0.1:9/v1",
            "UPSTREAM_API_KEY": "sk-test",
            "UPSTREAM_MAX_RETRIES": "0",
            "UPSTREAM_CONNECT_TIMEOUT": "1",
        },
    )
    assert result.returncode == 1
    assert (
        "Je n’ai pas pu joindre le service de réponses pour le moment. "
        "Veuillez réessayer dans une minute."
    ) in result.stderr
    assert "could not reach" not in result.stderr


@pytest.mark.parametrize(
    ("args", "env", "heading"),
    [
        (("--locale", "pt-BR"), {"LANG": "de_DE.UTF-8"}, "Fontes"),
        ((), {"LANG": "de_DE.UTF-8", "LC_MESSAGES": "", "LC_ALL": "nl_NL.UTF-8"}, "Bronnen"),
        ((), {"LANG": "de_DE.UTF-8", "CITEBOT_LANGUAGE": "pl"}, "Źródła"),
        (("--locale", "zh-CN"), {"CITEBOT_LANGUAGE": "pl"}, "参考来源"),
    ],
    ids=[
        "flag-over-environment",
        "lc-all-over-lang",
        "setting-over-environment",
        "flag-over-setting",
    ],
)
def test_ask_speaks_the_askers_language(
    args: tuple[str, ...], env: dict[str, str], heading: str
) -> None:
    result = citebot("ask", "How do I deploy citebot?", *args, env=env)
    assert result.returncode == 0, result.stderr
    assert re.search(rf"─ {heading} ─", result.stdout), result.stdout
    assert "Sources" not in result.stdout


async def ask_upstream(
    upstream: UpstreamSim, *args: str, env: dict[str, str] | None = None
) -> bytes:
    """``citebot ask ARGS`` against ``upstream``, its stdout a pipe; it must succeed. Quote
    checking is off unless ``env`` turns it on: the cited pages are on the internet."""
    settings = {"UPSTREAM_BASE_URL": upstream.base_url, "UPSTREAM_API_KEY": "sk-test"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "ask",
        *args,
        cwd=tempfile.gettempdir(),
        env=clean_env({**settings, "QUOTE_CHECK": "off", **(env or {})}),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    return out


async def slack_json(upstream: UpstreamSim, question: str, locale: str) -> bytes:
    """``citebot ask QUESTION --locale LOCALE --platform slack --json`` against ``upstream``."""
    return await ask_upstream(
        upstream, question, "--locale", locale, "--platform", "slack", "--json"
    )


async def test_ask_tells_the_upstream_the_askers_language_and_keeps_the_quotes() -> None:
    quotes = (
        "Die Liebe Gottes – „caritas“ – ist größer als jede Sünde.",
        "Deus caritas est: «qui manet in caritate, in Deo manet».",
    )
    async with UpstreamSim().running() as upstream:
        upstream.queue(
            answer(
                ["Deus é amor[^1]", " e quem permanece no amor permanece em Deus[^2]."],
                [
                    magisterium_citation(0, quotes[0], title="Katechismus"),
                    magisterium_citation(1, quotes[1], title="Deus caritas est"),
                ],
            )
        )
        out = await slack_json(upstream, "Deus é amor?", "pt-BR")
    [system, question] = upstream.questions[0]
    assert system["role"] == "system"
    assert "answer in Portuguese (Brazil)" in system["content"]
    assert question == {"role": "user", "content": "Deus é amor?"}
    document = json.loads(out)
    assert [c["cited_text"].encode() for c in document["citations"]] == [q.encode() for q in quotes]
    [cards] = document["thread"]
    assert cards["text"].startswith("Fontes: ")
    shown = [
        element["text"]
        for block in cards["blocks"]
        if block["type"] == "rich_text"
        for quote in block["elements"]
        for element in quote["elements"]
    ]
    assert [text.encode() for text in shown] == [q.encode() for q in quotes]


def test_a_bad_setting_is_one_line_naming_the_variable() -> None:
    result = citebot("ask", "Why?", env={"STATE_URL": "mongodb://nope"})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "citebot: STATE_URL: must start with memory://, sqlite:/// or redis://, got "
        "'mongodb://nope'"
    ]


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({}, "no platform is configured: set DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "x"}, "UPSTREAM_API_KEY (or MAGISTERIUM_API_KEY) is not set"),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1"},
            "neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET",
        ),
    ],
)
def test_run_refuses_to_start_naming_what_is_missing(env: dict[str, str], words: str) -> None:
    result = citebot("run", env=env)
    assert result.returncode == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


async def test_demo_server_serves_the_magisterium_wire_until_stopped() -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DEMO_")}
    env["DEMO_TOKENS_PER_SECOND"] = "inf"
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "demo-server",
        "--port",
        "0",
        env=env,
        cwd=tempfile.gettempdir(),
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert server.stderr is not None
        announced = (await asyncio.wait_for(server.stderr.readline(), PATIENCE)).decode()
        base = re.search(r"(http://127\.0\.0\.1:\d+/v1)", announced)
        assert base is not None, announced
        async with httpx.AsyncClient() as http:
            reply = await http.post(
                f"{base.group(1)}/chat/completions",
                json={
                    "model": "magisterium-1",
                    "stream": False,
                    "messages": [{"role": "user", "content": "How do I deploy citebot?"}],
                },
            )
        body = reply.json()
        assert body["object"] == "chat.completion"
        assert "[^1]" in body["choices"][0]["message"]["content"]
        assert body["citations"][0]["document_index"] == 0
    finally:
        server.send_signal(signal.SIGINT)
        await asyncio.wait_for(server.wait(), PATIENCE)
    assert server.returncode in (0, 130)


async def test_ask_with_a_locale_citebot_has_no_words_for_still_asks_the_upstream_for_it() -> None:
    async with UpstreamSim().running() as upstream:
        upstream.queue(
            answer(
                ["恵みは神の賜物です[^1]。"],
                [magisterium_citation(0, "Gratia est donum Dei.", title="Summa")],
            )
        )
        out = await slack_json(upstream, "恵みとは？", "ja-JP")
    [system, _question] = upstream.questions[0]
    assert "answer in Japanese (Japan)" in system["content"]
    [cards] = json.loads(out)["thread"]
    assert cards["text"].startswith("Sources: ")  # citebot's own words: English


def test_an_unknown_language_is_one_line_listing_those_citebot_speaks() -> None:
    result = citebot("ask", "Why?", env={"CITEBOT_LANGUAGE": "klingon"})
    assert result.returncode == 2
    assert result.stderr == (
        "citebot: CITEBOT_LANGUAGE: must be one of de, en, es, fr, it, nl, pl, pt_BR, zh_Hans, "
        "zh_Hant, got 'klingon'\n"
    )
    assert result.stdout == ""


def test_manifest_of_a_platform_with_nothing_to_set_up_says_so() -> None:
    result = citebot("manifest", "terminal")
    assert result.returncode == 2
    assert result.stderr.strip() == "citebot: terminal needs nothing set up on its side"
