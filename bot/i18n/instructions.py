"""What citebot asks of the upstream model besides the question: the asker's language.

The instruction is English (the model's own language, whatever the asker speaks) and is sent
only for a known, non-English asker: English is what the upstream answers an ambiguous question
in anyway, and a language citebot merely fell back to (``CITEBOT_LANGUAGE``, English) says
nothing about the person asking. Quotes are the sources' words: the model is told never to
translate them, and the cards show ``cited_text`` untouched whatever it answers.
"""

from __future__ import annotations

from bot.i18n.wording import babel_locale
from bot.upstream.events import Turn

__all__ = ["language_instruction"]


def language_instruction(locale: str | None) -> tuple[Turn, ...]:
    """The system turn that goes before the conversation for an asker of ``locale`` (a platform
    tag such as ``ja-JP`` or a catalogue identifier such as ``pt_BR``); none for English or a
    locale Babel does not know."""
    known = babel_locale(locale) if locale else None
    if known is None or known.language == "en":
        return ()  # telling the model "speaks xx-YY" would help nobody
    name = known.english_name
    return (
        Turn(
            "system",
            f"The person asking speaks {name}. When the language of their question is "
            f"ambiguous, answer in {name}. Quote sources exactly as they are written, in "
            "their own language: never translate a quotation.",
        ),
    )
