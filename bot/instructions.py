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
def _english_name(language: str) -> str:
    """``pt_BR`` -> ``Portuguese (Brazil)``; a tag Babel does not know stays as it is."""
    try:
        return Locale.parse(language.replace("-", "_")).english_name or language
    except (ValueError, UnknownLocaleError):
        return language


def language_instruction(language: str | None) -> tuple[Turn, ...]:
    """The system turn that goes before the conversation for an asker of ``language`` (a
    shipped catalogue's identifier, as ``Question.language`` holds it); none for English or
    an unknown language."""
    if not language or language.split("_")[0].split("-")[0].lower() == "en":
        return ()
    name = _english_name(language)
    return (Turn("system",
                 f"The person asking speaks {name}. When the language of their question is "
                 f"ambiguous, answer in {name}. Quote sources exactly as they are written, in "
                 "their own language: never translate a quotation."),)
