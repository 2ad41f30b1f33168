"""Every sentence and label citebot says to a person, in one place so it can be translated.

Sentences go through gettext (domain ``citebot``). The sources are ``bot/locale/citebot.pot``
(the template, extracted from this module) and ``bot/locale/<language>/LC_MESSAGES/citebot.po``;
the build compiles them to ``citebot.mo`` with Babel (``setup.py``), so no ``.mo`` is committed.
A :class:`Wording` speaks one language, numbers included (Babel's locale data): the asker's own
where the platform tells it, else the worker's ``CITEBOT_LANGUAGE``. English is the msgids; its
catalogue, where one ships, holds only what a platform's own client says differently.

A sentence that names a place on the platform (a thread, a channel) goes through
:meth:`Wording._here`: platforms do not always name it alike in one language (Discord's French
"salon" is Slack's "canal"), so the template holds it once in general and once per platform
whose registry entry says it has words of its own (msgctxt ``discord``, ``slack``...;
:func:`bot.extraction.extract` writes them), and a catalogue translates a platform's entry
where that platform's own client says it differently.
"""

from __future__ import annotations

import functools
import gettext
import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.core import get_global, parse_locale
from babel.numbers import format_currency, format_decimal

from bot.i18n.app_words import AppWording
from bot.i18n.community_words import CommunityWording, OwnAnswerLabels
from bot.i18n.conversation_words import ConversationWording
from bot.i18n.labels import Labels
from bot.i18n.menu_words import MenuWording
from bot.i18n.report_words import ReportLabels, ReportWording
from bot.i18n.settings_words import SettingsLabels, SettingsWording
from bot.upstream.errors import (
    BadKey,
    BadRequest,
    ContentFiltered,
    RateLimited,
    StreamCut,
    TokenLimit,
    TooLarge,
    TooSlow,
    UpstreamDown,
    UpstreamError,
)

__all__ = [
    "ENGLISH_LABELS",
    "LANGUAGES",
    "WORDING",
    "Labels",
    "OwnAnswerLabels",
    "ReportLabels",
    "SettingsLabels",
    "Wording",
    "babel_locale",
    "catalogue_language",
    "language_name",
    "language_setting",
]

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "citebot"
LANGUAGES: tuple[str, ...] = tuple(
    sorted({"en"} | {po.parents[1].name for po in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")})
)
"""The languages citebot speaks, as catalogue identifiers: ``en`` and every shipped catalogue
(``pt_BR``, ``zh_Hans``, ``zh_Hant``, ``de``, ...)."""


def babel_locale(tag: str) -> Locale | None:
    """Babel's locale for a platform or POSIX tag (``pt-BR``, ``zh_CN.UTF-8``, ``es-419``); a
    region Babel does not know (Slack's ``es-LA``) falls back to the language alone."""
    tag = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    for identifier in dict.fromkeys((tag, tag.split("_")[0])):
        try:
            return Locale.parse(identifier)
        except (ValueError, UnknownLocaleError):
            continue
    return None


_CATALOGUES = {language: Locale.parse(language) for language in LANGUAGES}
_LIKELY_SUBTAGS: Mapping[str, str] = get_global("likely_subtags")


def _script(locale: Locale) -> str | None:
    """The script ``locale`` is written in: its own, else the likely one for its language and
    region (CLDR's likely subtags: ``zh`` and ``zh-SG`` Hans, ``zh-TW`` Hant, ``pt`` Latn)."""
    if locale.script:
        return locale.script
    for key in (f"{locale.language}_{locale.territory}", locale.language):
        if key in _LIKELY_SUBTAGS:
            return parse_locale(_LIKELY_SUBTAGS[key])[2]
    return None


@functools.cache
def catalogue_language(tag: str | None) -> str | None:
    """The shipped catalogue for a locale tag, or None when none fits. A tag matches a catalogue
    of its language written in the same script (a tag without one is read in its likely script):
    ``pt-PT`` reads the Brazilian catalogue, ``zh-CN``/``zh-SG``/``zh`` the Simplified one,
    ``zh-TW``/``zh-HK``/``zh-MO``/``zh-Hant`` the Traditional one. gettext-style lists
    (``de_DE:en``): the first that ships wins."""
    for candidate in (tag or "").split(":"):
        asked = babel_locale(candidate)
        if asked is None:
            continue
        for language, catalogue in _CATALOGUES.items():
            if asked.language == catalogue.language and _script(asked) == _script(catalogue):
                return language
    return None


def language_setting(tag: str) -> str:
    """``CITEBOT_LANGUAGE`` as the catalogue it names; a ``ValueError`` (its text the one line to
    show) when citebot speaks no such language."""
    language = catalogue_language(tag)
    if language is None:
        raise ValueError(f"must be one of {', '.join(LANGUAGES)}, got {tag!r}")
    return language


def language_name(language: str) -> str:
    """A catalogue's language as its speakers name it (``Français``, ``Deutsch``, ``中文
    (简体)``), for an admin choosing one."""
    locale = _CATALOGUES.get(language) or Locale.parse("en")
    name = locale.get_display_name(locale) or language
    return name[:1].upper() + name[1:]


@functools.cache
def _translations(language: str) -> gettext.NullTranslations:
    if language == "en" and not (LOCALE_DIR / language).is_dir():
        return gettext.NullTranslations()  # the msgids are English
    try:
        return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])
    except FileNotFoundError as missing:
        raise FileNotFoundError(
            f"no compiled {language} catalogue under {LOCALE_DIR}: install citebot "
            "(pip install -e .) or run `pybabel compile`"
        ) from missing


@dataclass(frozen=True, slots=True)
class Wording(
    SettingsWording,
    ConversationWording,
    ReportWording,
    AppWording,
    MenuWording,
    CommunityWording,
):
    """The user-facing sentences in ``language``: any tag :func:`catalogue_language` reads
    (``pt-BR``, ``zh_Hans``, ``de_DE.UTF-8``), kept as the catalogue's identifier; English
    when none fits. A place's settings are worded in :mod:`bot.i18n.settings_words`."""

    language: str | None = None
    platform: str | None = None
    """Where the words are shown (a registered platform's name): threads and channels are named
    as that platform's own client names them in the language, where the catalogue says it
    differently. None: the language's general words."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "language", catalogue_language(self.language) or "en")

    @property
    def locale(self) -> Locale:
        """Babel's locale for this language (number formats, plural rules, names)."""
        return _CATALOGUES[self.language or "en"]

    def number(self, n: float) -> str:
        """``n`` written as this language writes it: ``1,000``, ``1.000``, ``1 000``."""
        return format_decimal(n, locale=self.locale)

    def dollars(self, amount: Decimal) -> str:
        """US dollars as this language writes them (``$2.50``, ``2,50 $US``, ``US$2.50``):
        to the cent from a dollar up, every digit kept below it (an answer's ``$0.01276``)."""
        whole = abs(amount) >= 1
        shown = amount.quantize(Decimal("0.01")) if whole else amount
        return format_currency(shown, "USD", locale=self.locale, decimal_quantization=whole)

    def _(self, text: str) -> str:
        return _translations(self.language or "en").gettext(text)

    def _here(self, text: str) -> str:
        """A sentence naming a thread or channel: the platform's own entry where the catalogue
        has one (its client's word differs from the general one), else the general sentence."""
        translations = _translations(self.language or "en")
        if self.platform is not None:
            said = translations.pgettext(self.platform, text)
            if said != text:
                return said
        return translations.gettext(text)

    def here_on(self, platform: str, text: str) -> str:
        """A sentence naming a thread or channel that only ``platform`` says (its own pages),
        written in that platform's folder: extracted for that platform alone, so no other
        platform's catalogue entry asks for a translation nobody would read."""
        if self.platform != platform:
            return self._(text)
        return self._here(text)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a sentence for the number ``n`` (the caller formats ``{n}`` itself, with
        :meth:`number`)."""
        return _translations(self.language or "en").ngettext(singular, plural, n)

    @property
    def labels(self) -> Labels:
        sources, supports = self._("Sources"), self._("Supports")
        lead = self._("{label}:")
        return Labels(
            sources=sources,
            sources_lead=lead.format(label=sources),
            source=self._("Source"),
            supports=supports,
            supports_lead=lead.format(label=supports),
            quoted=self._("“{quote}”"),
            also_consulted=self._("Also consulted"),
            related=self._("Related questions"),
            good_answer=self._("Good answer"),
            bad_answer=self._("Bad answer"),
            quote_found=self._("Quote found on the page"),
            quote_not_found=self._(
                "Quote not found on the page: it may have changed or be behind a paywall"
            ),
            untrusted=self._("Not among the sources trusted here"),
            ask_sources=self._("Ask the sources"),
            ask_person=self._("Ask a person"),
        )

    def duration(self, seconds: float) -> str:
        """A wait as a person says it: ``5 seconds``, ``2 minutes``."""
        whole = max(1, math.ceil(seconds))
        if whole < 90:
            return self.ngettext("{n} second", "{n} seconds", whole).format(n=self.number(whole))
        minutes = math.ceil(whole / 60)
        if minutes < 90:
            return self.ngettext("{n} minute", "{n} minutes", minutes).format(
                n=self.number(minutes)
            )
        hours = round(minutes / 60)
        return self.ngettext("{n} hour", "{n} hours", hours).format(n=self.number(hours))

    def explain(self, error: UpstreamError) -> str:
        """One friendly paragraph for a failed answer: what happened and what to do."""
        if isinstance(error, RateLimited):
            return self.rate_limited(error.retry_after)
        if isinstance(error, BadKey):
            return self._(
                "citebot is not set up correctly: the answer service refused its key. "
                "Please tell whoever runs citebot to check UPSTREAM_API_KEY."
            )
        if isinstance(error, TokenLimit):
            return self._here(
                "That question, with the conversation before it, is too long for the "
                "answer service. Please ask a shorter question or start a new thread."
            )
        if isinstance(error, ContentFiltered):
            return self.filtered()
        if isinstance(error, TooSlow):
            return self._(
                "The answer took too long, so it stops here; what you see above is what "
                "arrived. Please ask again for the rest."
            )
        if isinstance(error, TooLarge):
            return self._(
                "The answer service sent more than citebot can read at once, so the answer "
                "stops here; what you see above is what arrived."
            )
        if isinstance(error, StreamCut):
            return self.interrupted()
        if isinstance(error, BadRequest):
            return self._(
                "The answer service could not handle that question. Please rephrase "
                "it and ask again."
            )
        if isinstance(error, UpstreamDown):
            return self._(
                "I could not reach the answer service just now. Please try again in a minute."
            )
        return self.try_again()

    def try_again(self) -> str:
        """Anything else that stopped an answer before it was shown."""
        return self._("Something went wrong while getting your answer. Please try again.")

    def too_long(self) -> str:
        """The answer outgrew the messages one answer may take (``MAX_ANSWER_MESSAGES``)."""
        return self._(
            "This answer is too long to show in full, so it stops here. Ask a follow-up "
            "question for the rest."
        )

    def more_sources(self, n: int) -> str:
        """Leads the list of the sources beyond ``MAX_CARDS``, which get no card of their own."""
        return self.ngettext("…and {n} more source", "…and {n} more sources", n).format(
            n=self.number(n)
        )

    def rate_limited(self, retry_after: float | None) -> str:
        if retry_after is None:
            return self._("The answer service is busy right now. Please try again in a minute.")
        return self._("The answer service is busy right now. Please try again in {wait}.").format(
            wait=self.duration(retry_after)
        )

    def interrupted(self) -> str:
        return self._(
            "The answer was interrupted before it finished; what you see above is "
            "what arrived. Please ask again for the rest."
        )

    def cut_short(self) -> str:
        return self._(
            "The answer reached the length limit of the answer service and stops "
            "here. Ask a follow-up question for the rest."
        )

    def filtered(self) -> str:
        return self._("I can't help with that question. Please ask about something else.")

    def empty(self) -> str:
        return self._(
            "The answer service sent back an empty answer. Please try rephrasing your question."
        )

    def thinking(self) -> str:
        return self._("is thinking…")

    def checking_quotes(self) -> str:
        """After "citebot", while ``citebot ask`` waits for the quote checks."""
        return self._("is checking the quotes on their pages…")

    def restarting(self) -> str:
        return self._("citebot is restarting. Please ask again in a moment.")

    def queued(self, position: int) -> str:
        return self._(
            "Many questions are being answered right now; yours is number {n} in "
            "line, and I will answer it as soon as its turn comes."
        ).format(n=self.number(position))

    def after_thread_turn(self, position: int) -> str:
        """The thread's earlier questions are answered first, one at a time; ``position``: how
        many are ahead."""
        if position == 1:
            return self._here(
                "I will answer this as soon as I have answered the question before it in "
                "this thread."
            )
        return self._here(
            "I will answer this after the {n} questions before it in this thread."
        ).format(n=self.number(position))

    def user_rate_limited(self, retry_after: float) -> str:
        return self._(
            "You have asked a lot of questions in a short time. Please wait {wait} and ask again."
        ).format(wait=self.duration(retry_after))

    def question_too_long(self, limit: int) -> str:
        """A question of exactly ``limit`` characters is still taken."""
        return self.ngettext(
            "That question is too long: please use at most {limit} character.",
            "That question is too long: please use at most {limit} characters.",
            limit,
        ).format(limit=self.number(limit))

    def empty_question(self) -> str:
        return self._(
            "Please include a question, for example: “What does paragraph 34 of "
            "Cherishing Life say?”"
        )

    def not_allowed_here(self) -> str:
        return self._here(
            "citebot is not enabled here. Please ask in a channel where it is allowed."
        )

    def feedback_thanks(self) -> str:
        return self._("Thank you for the feedback!")


WORDING = Wording()
ENGLISH_LABELS = WORDING.labels
