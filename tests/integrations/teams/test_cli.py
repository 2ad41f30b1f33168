"""``citebot`` for Teams in a subprocess, as an operator runs it: ``ask --platform teams --json``
prints the answer as Teams shows it, its sources on it as Teams' citations (not a separate
payload), each an activity Teams takes; ``run`` answers Teams' activities."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import tempfile

from tests.bot.test_cli import ask_upstream, clean_env
from tests.integrations.teams.payloads import validate_teams_payload
from tests.sim.redis_server import free_port
from tests.sim.teams import TeamsSim
from tests.sim.upstream import CITED, UpstreamSim


async def test_ask_json_prints_the_answer_with_its_citations_on_it() -> None:
    async with UpstreamSim().running() as upstream:
        upstream.queue(CITED)
        out = await ask_upstream(upstream, "Why is life sacred?", "--platform", "teams", "--json")
    document = json.loads(out)
    assert document["platform"] == "teams"
    [message] = document["answer"]
    assert message["text"].startswith("Life is sacred from conception to natural death[1].")
    [root] = [e for e in message["entities"] if e["type"] == "https://schema.org/Message"]
    assert root["additionalType"] == ["AIGeneratedContent"]
    [claim] = root["citation"]
    assert claim["position"] == 1
    assert claim["appearance"]["url"] == "https://example.org/doc/1"
    assert claim["appearance"]["name"].startswith("Cherishing Life")
    assert message["channelData"]["feedbackLoop"] == {"type": "default"}
    related = json.dumps(message["attachments"])
    assert "Why is life sacred?" in related
    assert document["thread"] == [], "nothing is shown apart from the answer"
    assert [(c["number"], c["quote_check"]) for c in document["citations"]] == [(1, None)]
    assert validate_teams_payload(message) == []


async def test_run_answers_teams_and_says_when_tokens_are_not_checked() -> None:
    """``citebot run`` with ``TEAMS_AUTH=off`` (a local double): it says so at start-up, answers
    a personal chat, and stops on SIGTERM with status 0."""
    async with TeamsSim(require_tokens=False) as teams:
        port = free_port()
        env = {
            "TEAMS_APP_ID": teams.app_id,
            "TEAMS_AUTH": "off",
            "TEAMS_PORT": str(port),
            "UPSTREAM_BASE_URL": "demo",
            "STATE_URL": "memory://",
            "QUOTE_CHECK": "off",
        }
        worker = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            cwd=tempfile.gettempdir(),
            env=clean_env(env),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        teams.bot_url = f"http://127.0.0.1:{port}/api/messages"
        alice = teams.add_person("Alice Archer")
        chat = teams.personal_chat(alice)
        try:
            await teams.until(lambda: _listening(port))
            _, delivered = await teams.say(alice, chat, "What is citebot?")
            assert delivered.status == 200
            await teams.until(lambda: any(m.feedback for m in teams.bot_messages(chat)))
        finally:
            worker.terminate()
            _, err = await worker.communicate()
        assert worker.returncode == 0
        (shown,) = teams.bot_messages(chat)
        assert shown.citations
        assert not any(r.token for r in teams.requests), "no token to send with TEAMS_AUTH off"
        log = err.decode()
        assert "TEAMS_AUTH is off" in log
        assert "HTTP Request:" not in log, "httpx's line per request is quieted"


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0
