"""The shipped catalogues: the template in step with the code, every language complete and
faithful to its placeholders and plural rules, and each one compiled where citebot reads it. A
sentence's platform entries (msgctxt ``discord``/``slack``/``telegram``) may be left empty: the
general one is shown there (the glossary test holds the platforms' words). English's catalogue
holds only such platform entries."""

from __future__ import annotations

import gettext
import io
import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from bot.i18n.wording import DOMAIN, LANGUAGES, LOCALE_DIR
from bot.platforms import own_words_platforms
from tests.bot.i18n.po import forms

ROOT = Path(__file__).parents[3]
SOURCES = ROOT / "bot" / "i18n" / "locale"
TRANSLATED = [language for language in LANGUAGES if language != "en"]
PLACEHOLDER = re.compile(r"\{\w*\}")


def _catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def _po(language: str) -> Catalog:
    return _catalog(SOURCES / language / "LC_MESSAGES" / f"{DOMAIN}.po", language)


def _entries(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def _ids(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(message.id, message.context) for message in _entries(catalog)}


def _pairs(catalog: Catalog) -> dict[object, object]:
    """(id, context) -> translation, plural ones as tuples (a .mo reads them back as lists)."""

    def plain(value: object) -> object:
        return tuple(value) if isinstance(value, list | tuple) else value

    return {
        (plain(message.id), message.context): plain(message.string) for message in _entries(catalog)
    }


def _template() -> Catalog:
    return _catalog(SOURCES / f"{DOMAIN}.pot")


def test_the_template_holds_exactly_the_sentences_of_the_code() -> None:
    with (ROOT / "babel.cfg").open() as mapping:
        method_map, options_map = parse_mapping_cfg(mapping)
    with (ROOT / "pyproject.toml").open("rb") as pyproject:
        paths = tomllib.load(pyproject)["tool"]["babel"]["extract_messages"]["input_paths"]
    extracted = {
        (message, context)
        for path in paths
        for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT / path), method_map, options_map
        )
    }
    assert extracted == _ids(_template()), "run `pybabel extract` then `pybabel update`"


def test_a_sentence_naming_a_thread_or_channel_has_an_entry_per_platform() -> None:
    """Per platform that says it: every platform, or the one whose own page it is."""
    template = _template()
    placed = {message.id for message in _entries(template) if message.context is not None}
    assert "citebot is not enabled here. Please ask in a channel where it is allowed." in placed
    every = {None, *own_words_platforms()}
    for message_id in placed:
        contexts = {context for id_, context in _ids(template) if id_ == message_id}
        assert contexts == every or (len(contexts) == 2 and contexts < every), message_id
    assert {None, "slack"} == {c for i, c in _ids(template) if i == "This channel: {name}"}


def test_a_catalogue_ships_for_every_language() -> None:
    assert sorted(path.name for path in SOURCES.iterdir() if path.is_dir()) == sorted(LANGUAGES)


def test_english_holds_only_what_a_platform_says_in_words_of_its_own() -> None:
    """The msgids are English: its catalogue translates no general sentence, and says a
    sentence naming a thread or channel as Telegram's own client would (a group, a
    conversation of replies)."""
    catalog = _po("en")
    assert _ids(catalog) == _ids(_template()), "run `pybabel update`"
    assert not [m.id for m in catalog if m.fuzzy and m.id]
    assert [m.id for m in _entries(catalog) if m.context is None and any(forms(m.string))] == []
    telegram = [m for m in _entries(catalog) if m.context == "telegram"]
    assert telegram
    assert all(m.string and "thread" not in str(m.string) for m in telegram)
    assert all("channel" not in str(m.string) for m in telegram)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_sentence_is_translated_without_fuzzy_or_empty_entries(language: str) -> None:
    catalog = _po(language)
    assert _ids(catalog) == _ids(_template()), "run `pybabel update`, then translate"
    assert not [m.id for m in catalog if m.fuzzy and m.id]
    assert not [m.id for m in catalog.obsolete.values()]
    for message in _entries(catalog):
        if message.context is None:
            assert all(string.strip() for string in forms(message.string)), message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_are_the_msgid_s_own(language: str) -> None:
    for message in _entries(_po(language)):
        ids = forms(message.id)
        wanted = sorted(PLACEHOLDER.findall(ids[-1]))
        assert sorted(PLACEHOLDER.findall(ids[0])) == wanted
        for string in filter(None, forms(message.string)):  # an empty platform entry says nothing
            assert sorted(PLACEHOLDER.findall(string)) == wanted, (language, string)


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_are_the_language_s(language: str) -> None:
    catalog = _po(language)
    rule = get_plural(language)
    assert catalog.num_plurals == rule.num_plurals
    assert catalog.plural_expr == rule.plural_expr
    plurals = [message for message in _entries(catalog) if message.pluralizable]
    assert plurals
    for message in plurals:
        assert len(forms(message.string)) == rule.num_plurals, message.id


def test_polish_has_three_forms_and_chinese_one() -> None:
    assert _po("pl").num_plurals == 3
    assert _po("zh_Hans").num_plurals == _po("zh_Hant").num_plurals == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_loadable_and_is_the_po_compiled(language: str) -> None:
    compiled = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    assert compiled.is_file(), "install citebot (pip install -e .) or run `pybabel compile`"
    translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])
    translated = translations.gettext("Related questions") != "Related questions"
    assert translated == (language != "en")
    fresh = io.BytesIO()
    write_mo(fresh, _po(language))
    fresh.seek(0)
    with compiled.open("rb") as file:
        shipped = read_mo(file)
    assert _pairs(shipped) == _pairs(read_mo(fresh)), (
        "the .po changed since the build: run `pybabel compile` or reinstall"
    )
