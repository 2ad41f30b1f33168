"""DEMO_CORPUS: the demo answers from a folder of the user's own Markdown and text files."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bot.demo import CorpusError, running_demo
from tests.bot.demo.conftest import assert_backed, corpus_texts, stream

GARDEN = """\
<!--
author: Ada Gardener
year: 1999
source_url: javascript:alert(1)
-->
# Growing tomatoes

Tomatoes need six to eight hours of sun a day. Water them deeply twice a week rather than a
little every day.

## Pruning

Pinch out the side shoots that grow between the stem and a branch. They take energy from the
fruit.

```
pinch --side-shoots
```

| month | task |
| ----- | ---- |
| May   | plant out |
"""

COMPOST = """\
Compost heaps want a mix of green and brown material. Turn the heap every few weeks so air
reaches the middle.

A heap that smells of ammonia has too much green material; add dry leaves or cardboard.
"""


@pytest.fixture
def garden(tmp_path: Path) -> Path:
    (tmp_path / "tomatoes.md").write_text(GARDEN, encoding="utf-8")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "compost-heaps.txt").write_text(COMPOST, encoding="utf-8")
    (tmp_path / "ignored.pdf").write_bytes(b"%PDF-1.4")
    return tmp_path


def texts(folder: Path) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.suffix in (".md", ".txt")]


async def test_answers_quote_the_users_markdown_with_its_header_and_headings(
    http: httpx.AsyncClient, garden: Path
) -> None:
    async with running_demo(corpus=str(garden), tokens_per_second=0) as url:
        answer = await stream(http, url, "How should I prune tomato side shoots?")

    citations = answer.final["citations"]
    assert_backed(answer.text, citations, texts(garden))
    first = citations[0]
    assert first["document_title"] == "Growing tomatoes"
    assert first["cited_text_heading"] == "Pruning"
    assert first["document_reference"] == "1.1"
    assert (first["document_author"], first["document_year"]) == ("Ada Gardener", "1999")
    # only http(s) links are ever passed on: the header's javascript: URL gives way to the
    # page the demo serves itself
    assert first["source_url"] == f"{url.removesuffix('/v1')}/corpus/tomatoes"
    assert "pinch --side-shoots" not in answer.text
    assert "plant out" not in answer.text


async def test_a_text_file_is_titled_by_its_name_and_links_to_the_demos_own_page(
    http: httpx.AsyncClient, garden: Path
) -> None:
    async with running_demo(corpus=str(garden), tokens_per_second=0) as url:
        answer = await stream(http, url, "Why does my compost heap smell of ammonia?")
        deploy = await stream(http, url, "How do I deploy citebot?")

    citations = answer.final["citations"]
    assert_backed(answer.text, citations, texts(garden))
    assert "ammonia" in answer.text
    assert {c["document_title"] for c in citations} == {"compost-heaps"}
    assert all(
        c["document_author"] is None
        and c["document_year"] is None
        and c["source_url"] == f"{url.removesuffix('/v1')}/corpus/notes/compost-heaps"
        for c in citations
    )
    assert citations[0]["document_reference"] in {"1", "2"}
    assert deploy.final["citations"] == [], "the bundled docs are not mixed in"


async def test_hard_wrapped_lines_are_quoted_verbatim(
    http: httpx.AsyncClient, garden: Path
) -> None:
    async with running_demo(corpus=str(garden), tokens_per_second=0) as url:
        answer = await stream(http, url, "How often should I water tomatoes in the sun?")

    quoted = answer.final["citations"][0]["cited_text"]
    assert "\n" in quoted
    assert quoted in GARDEN
    assert_backed(answer.text, answer.final["citations"], texts(garden))


@pytest.mark.parametrize("layout", ["missing", "empty", "only-code"])
async def test_an_unusable_corpus_folder_fails_before_serving(tmp_path: Path, layout: str) -> None:
    folder = tmp_path / "docs"
    if layout != "missing":
        folder.mkdir()
    if layout == "only-code":
        (folder / "a.md").write_text("# Title\n\n```\ncode\n```\n", encoding="utf-8")

    with pytest.raises(CorpusError, match="DEMO_CORPUS"):
        async with running_demo(corpus=str(folder)):
            pass


async def test_the_bundled_corpus_answers_when_no_folder_is_given(http: httpx.AsyncClient) -> None:
    async with running_demo(corpus=None, tokens_per_second=0) as url:
        answer = await stream(http, url, "What is the embedded demo upstream?")

    assert answer.final["citations"][0]["document_title"] == "The embedded demo upstream"
    assert_backed(answer.text, answer.final["citations"], corpus_texts())
