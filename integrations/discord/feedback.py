"""👍 and 👎 under an answer; a 👎 asks why.

👍 is thanked and kept. 👎 opens a modal (its first response: a modal cannot follow another
one) with the four reasons as a radio group and a text field for more, in the person's
language; the bare 👎 is kept at once, so a modal closed unanswered still counts, and the reason
and the words sent with it are kept with the vote (:meth:`~bot.kit.Kit.vote`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.adapter import REASONS, VOTES, Kit, Reason
from bot.i18n.wording import Wording
from bot.render.text import clip
from integrations.discord.cards import FEEDBACK
from integrations.discord.modals import modal_values
from integrations.discord.place import language_of
from integrations.discord.sink import answer_key
from integrations.discord.types import CallbackType, Label, Modal
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["REASON", "Feedback", "reason_modal"]

log = logging.getLogger(__name__)

REASON = "citebot:reason:"
"""``custom_id`` of the 👎 modal: the answer's message id follows."""
COMMENT_LIMIT = 1000
LABEL = 45
"""Characters of a modal's title and of a field's label."""


def reason_modal(message_id: int, wording: Wording) -> Modal:
    """The question under the title "Bad answer": a field's label holds 45 characters, so a
    longer question (French) is the field's description (100) under a 👎."""
    labels = wording.reason_labels
    why: Label = {
        "type": 18,
        "label": labels.title if len(labels.title) <= LABEL else "👎",
        "component": {
            "type": 21,
            "custom_id": "reason",
            "required": True,
            "options": [
                {"value": reason, "label": clip(labels.reasons[reason], 100)} for reason in REASONS
            ],
        },
    }
    if len(labels.title) > LABEL:
        why["description"] = clip(labels.title, 100)
    more: Label = {
        "type": 18,
        "label": clip(labels.comment, LABEL),
        "component": {
            "type": 4,
            "custom_id": "comment",
            "style": 2,
            "required": False,
            "max_length": COMMENT_LIMIT,
        },
    }
    return {
        "custom_id": f"{REASON}{message_id}",
        "title": clip(wording.labels.bad_answer, LABEL),
        "components": [why, more],
    }


class Feedback:
    def __init__(self, *, kit: Kit, wire: DiscordWire) -> None:
        self._kit = kit
        self._wire = wire

    async def clicked(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A 👍 or 👎 under an answer (claimed and let through already). Answered first: the
        3 s to acknowledge must not wait on the state store."""
        assert interaction.message is not None
        answer = interaction.message.id
        value = custom_id.removeprefix(FEEDBACK)
        if value not in VOTES:  # no button citebot makes: acknowledged, nothing else
            await self._wire.respond(
                interaction.id, interaction.token, CallbackType.DEFERRED_UPDATE
            )
            return
        wording = self._kit.wording(language_of(interaction))
        if value == "down":
            modal = reason_modal(answer, wording)
            await self._wire.respond(interaction.id, interaction.token, CallbackType.MODAL, modal)
        else:
            await self._thank(interaction, wording.feedback_thanks())
        await self._vote(interaction, answer, value)

    async def reason(self, interaction: discord.Interaction) -> None:
        """The 👎 modal sent back (claimed and let through already): its reason and words
        kept with the vote."""
        data: Mapping[str, Any] = interaction.data or {}
        answer = str(data.get("custom_id", "")).removeprefix(REASON)
        if not answer.isdigit():
            return
        wording = self._kit.wording(language_of(interaction))
        await self._thank(interaction, wording.reason_thanks())
        fields = modal_values(data)
        chosen = fields.get("reason")
        reason: Reason | None = next((r for r in REASONS if r == chosen), None)
        comment = (fields.get("comment") or "").strip() or None
        await self._vote(interaction, int(answer), "down", reason=reason, comment=comment)

    async def _thank(self, interaction: discord.Interaction, words: str) -> None:
        body = message_body(self._kit.presenter.notice(words), ephemeral=True)
        await self._wire.respond(interaction.id, interaction.token, CallbackType.MESSAGE, body)

    async def _vote(
        self,
        interaction: discord.Interaction,
        answer: int,
        value: str,
        *,
        reason: Reason | None = None,
        comment: str | None = None,
    ) -> None:
        await self._kit.vote(
            answer_key=answer_key(answer),
            user_id=str(interaction.user.id),
            value=value,
            reason=reason,
            comment=comment,
        )
