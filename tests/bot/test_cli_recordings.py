"""``citebot ask`` in a subprocess against a loopback server replaying real provider traffic:
the ``--json`` citations as docs/commands.md numbers them, and what a pipe receives."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.bot.test_cli import ask_upstream
from tests.sim.recordings import Recording, recordings
from tests.sim.upstream import UpstreamSim

BY_NAME = {recording.name: recording for recording in recordings()}
SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


async def ask(recording: Recording, *options: str) -> str:
    """``citebot ask`` with ``options``, its stdout a pipe, the upstream replaying
    ``recording``."""
    async with UpstreamSim().running() as upstream:
        upstream.queue(recording.reply)
        return (await ask_upstream(upstream, "What does it answer?", *options)).decode()


def card_numbers(platform: str, thread: list[dict[str, Any]]) -> list[int]:
    if platform == "telegram":  # each source's heading: <p><b>¹ ² <a href="…">Title</a></b></p>
        html = "".join(p["rich_message"]["html"] for p in thread)
        headings = re.findall(r"<p><b>((?:[⁰¹²³⁴⁵⁶⁷⁸⁹]+ )+)", html)
        return [int(n.translate(SUPERSCRIPT_DIGITS)) for h in headings for n in h.split()]
    if platform == "discord":
        names = [embed.get("author", {}).get("name", "") for p in thread for embed in p["embeds"]]
        pattern = r"\[([0-9]+)\]"
    else:
        names = [b["text"]["text"] for p in thread for b in p["blocks"] if b["type"] == "section"]
        pattern = r"\*([0-9]+)\.\*"
    return [int(m.group(1)) for m in (re.match(pattern, name) for name in names) if m]


@pytest.mark.parametrize(
    ("name", "platform"),
    [
        ("magisterium/docs-en", "discord"),
        ("perplexity/sonar-citations", "slack"),
        ("openai/gpt-4o-search-preview", "discord"),
        ("compatible/openrouter-grok-stream", "slack"),
        ("openrouter/web-search-deepseek-chat-stream", "slack"),
        ("azure/on-your-data-2023-08-01-preview", "discord"),
        ("azure/on-your-data-docs-2024-10-21", "slack"),
        ("groq/compound-beta-stream", "discord"),
        ("groq/compound-domain-filters", "slack"),
        ("azure/on-your-data-docs-minimum", "discord"),
        ("magisterium/docs-en", "telegram"),
        ("perplexity/sonar-citations", "telegram"),
        ("openrouter/web-search-deepseek-chat-stream", "telegram"),
        ("groq/compound-domain-filters", "telegram"),
    ],
)
async def test_json_numbers_every_source_once_cited_ones_first(name: str, platform: str) -> None:
    """Perplexity's whole answer cites six of seven URLs, first its [2]: the uncited one was
    printed with the provider's number 4, the number of a cited source too."""
    renders = BY_NAME[name].expected["renders"]
    document = json.loads(await ask(BY_NAME[name], "--platform", platform, "--json"))
    citations = document["citations"]
    cited = [(card["n"], card["url"]) for card in renders["cards"]]
    uncited = [source["url"] for source in renders["also_consulted"]]
    assert [(c["number"], c["source_url"]) for c in citations] == [
        *cited,
        *((len(cited) + index, url) for index, url in enumerate(uncited, start=1)),
    ]
    numbers = [c["number"] for c in citations]
    assert numbers == list(range(1, len(numbers) + 1))
    assert card_numbers(platform, document["thread"]) == [n for n, _ in cited]
    assert [c["cited_text"] for c in citations[: len(cited)]] == [
        card["quote"] for card in renders["cards"]
    ]


async def test_piped_output_prints_the_urls_of_the_sources_consulted() -> None:
    """``citebot ask … | less`` after Perplexity's reasoning model: no reasoning, and each
    source consulted but not cited shows its URL, not only a title rich could not link."""
    recording = BY_NAME["perplexity/sonar-reasoning-pro-stream"]
    out = await ask(recording)
    renders = recording.expected["renders"]
    assert out.startswith("紅樓夢的作者是曹雪芹¹·²\n")
    assert "\x1b" not in out
    also = out[out.index("Also consulted") :].splitlines()[1:]
    titles, urls = also[::2], also[1::2]
    assert [title.split(" — ")[0] for title in titles] == [
        f"• {source['title']}" for source in renders["also_consulted"]
    ]
    assert urls == [f"  {source['url']}" for source in renders["also_consulted"]]
    for card in renders["cards"]:
        assert card["url"] in out


@pytest.mark.parametrize(
    ("name", "first_line"),
    [
        ("mistral/magistral-medium-2507-stream", "2 + 2 = 4"),
        ("mistral/magistral-medium-2507", "2 + 2 = 4"),
        ("deepseek/deepseek-reasoner-hello-stream", "Hello there! 😊 How can I help you today?"),
        ("deepseek/deepseek-reasoner-stream", 'The word "strawberry" contains three "r"s.'),
        ("groq/compound-beta-stream", "The weather in San Francisco today is partly cloudy"),
    ],
)
async def test_piped_output_starts_with_the_answer_not_the_reasoning(
    name: str, first_line: str
) -> None:
    """Magistral's answer comes only as a text part after its thinking parts, DeepSeek's after
    ``reasoning_content`` with ``content: null``, Groq's after reasoning full of search output."""
    out = await ask(BY_NAME[name])
    assert out.startswith(first_line)
    assert "\x1b" not in out
    assert not any(word in out for word in ("The user is asking", "We need", "<think>", "<tool>"))
