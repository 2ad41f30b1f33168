"""``citebot ask --platform teams --json`` in a subprocess, as an operator runs it: the answer
as Teams shows it, its sources on it as Teams' citations (not a separate payload), each an
activity Teams takes."""

from __future__ import annotations

import json

from tests.bot.test_cli import ask_upstream
from tests.integrations.teams.payloads import validate_teams_payload
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
