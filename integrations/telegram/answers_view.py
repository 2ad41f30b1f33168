"""``/settings answers``: the questions a group answers itself, kept by its administrators in
the group: ``/settings answers`` lists them with their IDs, ``/settings answers add QUESTION |
ANSWER`` keeps one (the same question again replaces its answer), ``/settings answers remove
ID`` removes one. The admission is ``/settings``' own (:mod:`.admin`); the kit keeps the
answers and words what it refuses."""

from __future__ import annotations

from datetime import UTC, datetime

from aiogram.types import User

from bot.adapter import Kit, OwnAnswer, StateUnavailable, Venue, own_answer_said
from bot.i18n.wording import Wording
from bot.render.text import clip
from integrations.telegram.limits import TEXT
from integrations.telegram.markdown import TelegramHTML

__all__ = ["answers_text", "own_answers_command"]

_HTML = TelegramHTML()
_SHOWN = 120


def answers_text(kept: list[OwnAnswer], words: Wording) -> str:
    """The own answers (as many as fit one message), then how to add and remove one."""
    labels = words.own_answer_labels
    how = _HTML.escape(words.own_answers_how_to(), line_start=True)
    if not kept:
        return _HTML.escape(labels.none_yet, line_start=True) + "\n\n" + how
    lines = [f"<b>{_HTML.escape(labels.title, line_start=False)}</b>"]
    room = TEXT - _HTML.length(how) - _HTML.length(lines[0]) - 4
    for own in kept:
        day = datetime.fromtimestamp(own.at, UTC).strftime("%Y-%m-%d")
        question = _HTML.escape(clip(own.question, _SHOWN), line_start=False)
        answer = _HTML.escape(clip(" ".join(own.answer.split()), _SHOWN), line_start=False)
        name = _HTML.escape(own.name, line_start=False)
        line = f"• <code>{own.id}</code> <b>{question}</b> {answer} · {name} · {day}"
        if _HTML.length(line) + 1 > room:
            break
        lines.append(line)
        room -= _HTML.length(line) + 1
    return "\n".join(lines) + "\n\n" + how


async def own_answers_command(
    kit: Kit, where: Venue, user: User, words: Wording, arguments: str
) -> str:
    """``/settings answers [add QUESTION | ANSWER | remove ID]`` by an admitted ``user``; what
    to say of it, in HTML."""
    verb, _, rest = arguments.strip().partition(" ")
    if verb.lower() == "add" and "|" in rest:
        question, _, answer = rest.partition("|")
        kept = kit.add_own_answer(
            where, question, answer, by=str(user.id), name=user.full_name, language=words.language
        )
        said = await own_answer_said(kept, words)
    elif verb.lower() == "remove" and rest.strip():
        gone = kit.remove_own_answer(where, rest.strip(), by=str(user.id))
        said = await own_answer_said(gone, words, removed=True)
    else:
        try:
            return answers_text(await kit.own_answers(where), words)
        except StateUnavailable:
            said = words.could_not_save()
    return _HTML.escape(said, line_start=True)
