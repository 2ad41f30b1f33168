"""``/citebot answers``: the questions a server (or one of its channels) answers itself, kept
in Discord by its admins.

``list`` shows them with their IDs, ``add`` opens a modal of a question and its answer (the
same question again replaces its answer), ``remove id:`` removes one. Each step admits only
the server's admins (:mod:`.admission`: anyone else is told so, privately, and nothing
changes) and answers privately in the admin's language; the kit keeps the answers
(:class:`~bot.kit_community.CommunityKit`), and a question or answer it refuses is said in one
line.
"""

from __future__ import annotations

from typing import Any, Literal

import discord

from bot.adapter import ANSWER_LIMIT, QUESTION_LIMIT, OwnAnswer, StateUnavailable, own_answer_said
from bot.i18n.wording import Wording
from bot.render.text import clip
from integrations.discord import limits
from integrations.discord.admin import target_of
from integrations.discord.admin_view import Where
from integrations.discord.admins import Admin, AdminCommand, plain
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.modals import modal_values
from integrations.discord.types import CallbackType, Label, Modal

__all__ = ["ANSWER", "OwnAnswersAdmin", "answer_modal", "answers_listing"]

ANSWER = "citebot:answer:"
"""``custom_id`` of the modal that adds an own answer: ``citebot:answer:{where}``."""
_QUESTION, _ANSWER = "question", "answer"
_SHOWN = 120
_MARKDOWN = DiscordMarkdown()


def answers_listing(kept: list[OwnAnswer], wording: Wording) -> str:
    """The own answers, each its ID, its question, the start of its answer, who set it and
    when (in the reader's time zone), as many as fit one message."""
    labels = wording.own_answer_labels
    if not kept:
        return _MARKDOWN.escape(labels.none_yet, line_start=True)
    head = f"**{_MARKDOWN.escape(labels.title, line_start=False)}**"
    lines: list[str] = []
    room = limits.CONTENT - len(head) - 1
    for own in kept:
        question = _MARKDOWN.escape(clip(own.question, _SHOWN), line_start=False)
        answer = _MARKDOWN.escape(clip(" ".join(own.answer.split()), _SHOWN), line_start=False)
        name = _MARKDOWN.escape(own.name, line_start=False)
        line = f"- `{own.id}` **{question}** {answer} · {name} · <t:{int(own.at)}:d>"
        if len(line) + 1 > room:
            break
        lines.append(line)
        room -= len(line) + 1
    return "\n".join([head, *lines])


def answer_modal(where: Where, wording: Wording) -> Modal:
    """A question and its answer to write."""
    labels = wording.own_answer_labels

    def field(name: str, label: str, style: Literal[1, 2], most: int) -> Label:
        return {
            "type": 18,
            "label": clip(label, 45),
            "component": {
                "type": 4,
                "custom_id": name,
                "style": style,
                "required": True,
                "max_length": most,
            },
        }

    return {
        "custom_id": f"{ANSWER}{where}",
        "title": clip(labels.add, 45),
        "components": [
            field(_QUESTION, labels.question, 1, QUESTION_LIMIT),
            field(_ANSWER, labels.answer, 2, ANSWER_LIMIT),
        ],
    }


class OwnAnswersAdmin(AdminCommand):
    """The subcommands of ``/citebot answers``, and the modal ``add`` opens."""

    async def list(self, interaction: discord.Interaction, where: Where) -> None:
        async def act(admin: Admin) -> None:
            await self._defer(interaction)
            try:
                kept = await self._kit.own_answers(target_of(admin.here, where))
            except StateUnavailable:
                await self._show(interaction, plain(admin.words.could_not_save()))
                return
            await self._show(interaction, {"content": answers_listing(kept, admin.words)})

        await self._admit(interaction, act)

    async def add(self, interaction: discord.Interaction, where: Where) -> None:
        async def act(admin: Admin) -> None:
            modal = answer_modal(where, admin.words)
            await self._respond(interaction, CallbackType.MODAL, modal)

        await self._admit(interaction, act)

    async def remove(self, interaction: discord.Interaction, answer: str, where: Where) -> None:
        async def act(admin: Admin) -> None:
            await self._defer(interaction)
            target = target_of(admin.here, where)
            gone = self._kit.remove_own_answer(target, answer, by=str(interaction.user.id))
            said = await own_answer_said(gone, admin.words, removed=True)
            await self._show(interaction, plain(said))

        await self._admit(interaction, act)

    async def submitted(self, interaction: discord.Interaction) -> None:
        """The modal ``add`` opened, sent back: the answer kept, or why not."""
        data: dict[str, Any] = dict(interaction.data or {})
        where = str(data.get("custom_id", "")).removeprefix(ANSWER)
        if where not in ("server", "channel"):
            return

        async def act(admin: Admin) -> None:
            await self._defer(interaction)
            values = modal_values(data)
            target = target_of(admin.here, "server" if where == "server" else "channel")
            kept = self._kit.add_own_answer(
                target,
                values.get(_QUESTION) or "",
                values.get(_ANSWER) or "",
                by=str(interaction.user.id),
                name=interaction.user.display_name,
                language=admin.here.language,
            )
            await self._show(interaction, plain(await own_answer_said(kept, admin.words)))

        await self._admit(interaction, act)
