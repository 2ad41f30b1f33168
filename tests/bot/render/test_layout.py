"""What a source is called on its card and in the also-consulted list."""

from __future__ import annotations

import pytest

from bot.i18n.wording import ENGLISH_LABELS, Wording
from bot.render.layout import source_title
from bot.upstream.citations import Citation


@pytest.mark.parametrize(
    ("url", "title"),
    [
        ("https://en.wikipedia.org/wiki/San_Francisco", "en.wikipedia.org"),
        (
            "https://www.california-demographics.com/cities_by_population",
            "california-demographics.com",
        ),
        ("https://user@WWW.Vatican.VA:8443/content/index.html", "vatican.va"),
        ("http://[2001:db8::1]/page", "2001:db8::1"),
    ],
)
def test_a_source_known_only_by_its_url_is_called_by_its_host(url: str, title: str) -> None:
    """Perplexity's ``citations`` list is URLs alone: each card is titled by its page's host."""
    assert source_title(Citation(number=1, source_url=url), ENGLISH_LABELS) == title


def test_a_title_or_a_reference_comes_before_the_host() -> None:
    url = "https://www.vatican.va/archive/ENG0015/_INDEX.HTM"
    assert source_title(Citation(number=1, title="Catechism", source_url=url), ENGLISH_LABELS) == (
        "Catechism"
    )
    assert source_title(
        Citation(number=1, reference="CCC 1730", source_url=url), ENGLISH_LABELS
    ) == ("CCC 1730")


def test_a_source_with_nothing_to_call_it_by_is_a_source_in_the_readers_language() -> None:
    assert source_title(Citation(number=1), ENGLISH_LABELS) == "Source"
    assert source_title(Citation(number=1), Wording("nl").labels) == "Bron"
