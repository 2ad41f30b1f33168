"""What citebot asks of the upstream model besides the question: the asker's language.

The instruction is English (the model's own language, whatever the asker speaks) and is sent
only for a known, non-English asker: English is what the upstream answers an ambiguous question
in anyway, and a language citebot merely fell back to (``CITEBOT_LANGUAGE``, English) says
nothing about the person asking. Quotes are the sources' words: the model is told never to
translate them, and the cards show ``cited_text`` untouched whatever it answers.
"""

from __future__ import annotations

import functools

from babel import Locale, UnknownLocaleError

from bot.events import Turn

__all__ = ["language_instruction"]


@functools.cache
def _english_name(locale: str) -> str | None:
    """``pt_BR`` / ``ja-JP`` -> ``Portuguese (Brazil)`` / ``Japanese (Japan)``; a region Babel
    does not know (Slack's ``es-LA``) falls back to the language; None for a language it does
    not know (telling the model "speaks xx-YY" would help nobody)."""
    tag = locale.replace("-", "_")
    for candidate in (tag, tag.split("_")[0]):
        try:
            return Locale.parse(candidate).english_name
        except (ValueError, UnknownLocaleError):
            continue
    return None


def language_instruction(locale: str | None) -> tuple[Turn, ...]:
    """The system turn that goes before the conversation for an asker of ``locale`` (a platform
    tag such as ``ja-JP`` or a catalogue identifier such as ``pt_BR``); none for English or a
    locale Babel does not know."""
    if not locale or locale.split("_")[0].split("-")[0].lower() == "en":
        return ()
    name = _english_name(locale)
    if name is None:
        return ()
    return (Turn("system",
                 f"The person asking speaks {name}. When the language of their question is "
                 f"ambiguous, answer in {name}. Quote sources exactly as they are written, in "
                 "their own language: never translate a quotation."),)
