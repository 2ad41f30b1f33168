"""The shipped catalogues: complete, faithful to their placeholders, compiled as committed, and
the template in step with the sentences in the code."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from bot.errors import RateLimited
from bot.wording import LANGUAGES, LOCALE_DIR, Wording, catalogue_language

TRANSLATED = [language for language in LANGUAGES if language != "en"]
PLACEHOLDER = re.compile(r"\{\w+\}")


def _po(language: str) -> Catalog:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "citebot.po").open("rb") as file:
        return read_po(file, locale=language)


def _messages(catalog: Catalog) -> dict[object, object]:
    """id -> translation; plurals as tuples (a .mo reads them back as lists)."""
    def plain(value: object) -> object:
        return tuple(value) if isinstance(value, list | tuple) else value

    return {plain(message.id): plain(message.string) for message in catalog if message.id}


def _ids(path: Path) -> set[object]:
    with path.open("rb") as file:
        return set(_messages(read_po(file)))


def test_the_template_holds_every_sentence_of_the_code() -> None:
    extracted = {message for _line, message, _comments, _context in extract_from_file(
        "python", str(LOCALE_DIR.parent / "wording.py"),
        keywords={"_": None, "ngettext": (1, 2)})}
    assert extracted == _ids(LOCALE_DIR / "citebot.pot")


def test_at_least_the_promised_languages_ship() -> None:
    assert {"nl", "pt", "es", "fr", "de", "it", "pl"} <= set(TRANSLATED)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    catalog = _po(language)
    assert set(_messages(catalog)) == _ids(LOCALE_DIR / "citebot.pot")
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert not message.fuzzy, message.id
        assert len(strings) == (catalog.num_plurals if isinstance(message.id, tuple) else 1)
        wanted = sorted(PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            assert string.strip(), (language, message.id)
            assert sorted(PLACEHOLDER.findall(string)) == wanted, (language, string)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_committed_mo_is_the_po_compiled(language: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, _po(language))
    compiled.seek(0)
    with (LOCALE_DIR / language / "LC_MESSAGES" / "citebot.mo").open("rb") as committed:
        assert _messages(read_mo(committed)) == _messages(read_mo(compiled))


def test_a_wait_reads_naturally_in_each_language() -> None:
    assert Wording().rate_limited(1) == (
        "The answer service is busy right now. Please try again in 1 second.")
    assert Wording().rate_limited(300).endswith("in 5 minutes.")
    assert Wording("nl").rate_limited(300).endswith("over 5 minuten opnieuw.")
    assert Wording("pt").user_rate_limited(30).startswith(
        "Você fez muitas perguntas em pouco tempo. Aguarde 30 segundos")
    assert Wording("pl").rate_limited(3).endswith("za 3 sekundy.")
    assert Wording("pl").rate_limited(25).endswith("za 25 sekund.")
    assert Wording("de").explain(RateLimited("busy", retry_after=1)).endswith(
        "in 1 Sekunde erneut.")


def test_labels_follow_the_language() -> None:
    assert Wording().labels.related == "Related questions"
    assert Wording("es").labels.related == "Preguntas relacionadas"
    assert Wording("fr").labels.supports == "Étaye"


@pytest.mark.parametrize(("tag", "language"), [
    ("nl", "nl"), ("pt-BR", "pt"), ("es-ES", "es"), ("en-US", "en"), ("zh-CN", None),
    (None, None), ("", None),
])
def test_a_locale_tag_finds_its_catalogue(tag: str | None, language: str | None) -> None:
    assert catalogue_language(tag) == language
