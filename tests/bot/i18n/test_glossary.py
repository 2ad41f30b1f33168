"""Each catalogue says a thing the way its glossary (docs/translations.md, Glossary) says it, on
every platform: the glossary's word wherever the English names the thing, never a word the
glossary rules out (讨论串 in Simplified Chinese, "discussione" in Italian), and the language's
own quotation marks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n.wording import DOMAIN, LANGUAGES
from bot.platforms import own_words_platforms
from tests.bot.i18n.po import forms

ROOT = Path(__file__).parents[3]
GUIDE = ROOT / "docs" / "translations.md"
TRANSLATED = [language for language in LANGUAGES if language != "en"]
WHERE = {
    "all": (None, *own_words_platforms()),
    "elsewhere": (None,),
    "Discord": ("discord",),
    "Slack": ("slack",),
    "Telegram": ("telegram",),
}
"""The glossary's "on" column: the readers a row is for (None: no platform, the terminal)."""
ENGLISH = {"quote": "“"}
"""How a term shows in the English sentences when not as itself (a whole word, any ending)."""


@dataclass(frozen=True)
class Entry:
    term: str
    on: tuple[str | None, ...]
    words: tuple[str, ...]
    never: tuple[str, ...]


def _glossaries() -> dict[str, list[Entry]]:
    """The Glossary section's tables, per language (``### fr``)."""
    section = GUIDE.read_text(encoding="utf-8").split("\n## Glossary\n", 1)[1].split("\n## ")[0]
    glossaries: dict[str, list[Entry]] = {}
    language = ""
    for line in section.splitlines():
        if line.startswith("### "):
            language = line[4:].strip()
            glossaries[language] = []
        elif line.startswith("| ") and not line.startswith(("| term ", "| ---")):
            term, on, words, never = (cell.strip() for cell in line.strip().strip("|").split("|"))
            glossaries[language].append(Entry(term, WHERE[on], _listed(words), _listed(never)))
    return glossaries


def _listed(cell: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in cell.split(",") if word.strip())


GLOSSARIES = _glossaries()


def _catalog(language: str) -> Catalog:
    with (ROOT / "bot" / "i18n" / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po").open(
        "rb"
    ) as file:
        return read_po(file, locale=language)


def _shown(catalog: Catalog, platform: str | None) -> dict[str, tuple[str, ...]]:
    """English sentence -> what a reader on ``platform`` is shown: the platform's own entry where
    the catalogue has one, else the general one (as gettext falls back). A sentence that only
    other platforms say (``Wording._here_on``: their own pages) is not shown on ``platform``."""
    platforms_saying: dict[object, set[str]] = {}
    for message in catalog:
        if message.context is not None:
            platforms_saying.setdefault(message.id, set()).add(message.context)
    shown: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.context is not None:
            continue
        if (
            platform
            and message.id in platforms_saying
            and platform not in platforms_saying[message.id]
        ):
            continue
        english = forms(message.id)
        own = catalog.get(message.id, context=platform) if platform else None
        mine = forms(own.string) if own is not None else ()
        strings = mine if any(mine) else forms(message.string)
        shown[" / ".join(english)] = strings
    return shown


def _names(english: str, term: str) -> bool:
    if term in ENGLISH:
        return ENGLISH[term] in english
    return re.search(rf"\b{re.escape(term)}", english, re.IGNORECASE) is not None


def test_every_language_has_a_glossary() -> None:
    assert sorted(GLOSSARIES) == TRANSLATED
    for language, entries in GLOSSARIES.items():
        terms = {entry.term for entry in entries}
        assert {"answer", "question", "source", "thread", "channel", "quote"} <= terms, language
        assert {"follow-up", "answer service"} <= terms, language


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("platform", [None, *own_words_platforms()])
def test_each_catalogue_uses_its_glossary_s_words(language: str, platform: str | None) -> None:
    shown = _shown(_catalog(language), platform)
    wrong = []
    for entry in GLOSSARIES[language]:
        if platform not in entry.on:
            continue
        for english, strings in shown.items():
            for string in strings:
                if _names(english, entry.term) and not _uses(string, entry):
                    wrong.append(f"{entry.term}: {entry.words} missing from {string!r}")
                wrong += [f"{entry.term}: {word!r} in {string!r}" for word in _met(string, entry)]
    assert wrong == []


def _uses(string: str, entry: Entry) -> bool:
    if entry.term == "quote":
        opening, closing = entry.words[0].split("…")
        return opening in string and closing in string
    return any(word.casefold() in string.casefold() for word in entry.words)


def _met(string: str, entry: Entry) -> list[str]:
    return [word for word in entry.never if word.casefold() in string.casefold()]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_answer_s_words_are_quoted_with_the_glossary_s_marks(language: str) -> None:
    (marks,) = (entry.words[0] for entry in GLOSSARIES[language] if entry.term == "quote")
    quoted = _catalog(language).get("“{quote}”")
    assert quoted is not None
    assert quoted.string == marks.replace("…", "{quote}")
