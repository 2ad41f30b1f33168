"""The buttons under an answer that a place's admins set up: "Ask the sources" under an own
answer, "Ask a person" where ``handoff`` names a role.

The kit decides (:mod:`bot.kit_community`): only the asker's press acts, once. Here a press
becomes the answer's key (the message the button is on), and the kit's decision is shown:
the question asked again of the sources in a new response, or the one message that mentions
the place's role, ``allowed_mentions`` naming that role alone (the asker is shown, never
pinged), in the answer's thread where it has one, else as a reply to it.
"""

from __future__ import annotations

import logging

import discord

from bot.adapter import Handoff, Kit
from bot.render.ports import Payload
from integrations.discord.admins import plain
from integrations.discord.answering import InteractionAnswers
from integrations.discord.cards import ACTION
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.place import here
from integrations.discord.sink import answer_key
from integrations.discord.types import SUPPRESS_EMBEDS
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["AnswerButtons", "handoff_message"]

log = logging.getLogger(__name__)

_MARKDOWN = DiscordMarkdown()


def handoff_message(handoff: Handoff, *, asker: str, link: str) -> Payload:
    """The one message "Ask a person" posts: the role mentioned and allowed to be, the asker
    named (shown, not pinged), a link to their answer."""
    role = handoff.target
    words = handoff.words
    said = words.handoff_request("\x00", "\x01")
    text = _MARKDOWN.escape(said, line_start=True)
    text = text.replace("\x00", f"<@&{role}>").replace("\x01", f"<@{asker}>")
    label = _MARKDOWN.escape(words.handoff_question(), line_start=False)
    return {
        "content": f"{text}\n{_MARKDOWN.link(label, link)}",
        "allowed_mentions": {"parse": [], "roles": [role]},
        "flags": SUPPRESS_EMBEDS,
    }


class AnswerButtons:
    def __init__(self, *, kit: Kit, wire: DiscordWire, answers: InteractionAnswers) -> None:
        self._kit = kit
        self._wire = wire
        self._answers = answers

    async def pressed(self, interaction: discord.Interaction, custom_id: str) -> None:
        """A button of :data:`~integrations.discord.cards.ACTION` (claimed and let through
        already)."""
        assert interaction.message is not None
        key = answer_key(interaction.message.id)
        at = here(interaction)
        person = str(interaction.user.id)
        if custom_id == f"{ACTION}ask_sources":
            asked = await self._kit.sources_asked(
                answer_key=key, user_id=person, language=at.language
            )
            if isinstance(asked, str):
                await self._tell(interaction, asked)
                return
            private = interaction.message.flags.ephemeral
            await self._answers.answer(
                interaction, asked.text, private=private, here=at, own_answers=False
            )
        elif custom_id == f"{ACTION}ask_person":
            await interaction.response.defer(ephemeral=True, thinking=True)
            handed = await self._kit.person_asked(
                answer_key=key, user_id=person, language=at.language
            )
            if isinstance(handed, Handoff):
                await self._post(interaction, handed)
                handed = self._kit.wording(at.language).handoff_done()
            body = message_body(plain(handed), ephemeral=True)
            await self._wire.edit_interaction_message(
                interaction.application_id, interaction.token, None, body
            )

    async def _tell(self, interaction: discord.Interaction, words: str) -> None:
        await interaction.response.send_message(plain(words)["content"], ephemeral=True)

    async def _post(self, interaction: discord.Interaction, handoff: Handoff) -> None:
        """In the answer's thread (its id is the answer's), else as a reply to the answer."""
        message = interaction.message
        assert message is not None
        assert interaction.channel_id is not None
        guild = interaction.guild_id or "@me"
        link = f"https://discord.com/channels/{guild}/{interaction.channel_id}/{message.id}"
        body = handoff_message(handoff, asker=handoff.question.user_id, link=link)
        try:
            await self._wire.create_message(message.id, body)
        except discord.HTTPException as error:
            log.info("no thread on answer %s (%s): replying to it", message.id, error.status)
            reply = {**body, "message_reference": {"message_id": str(message.id)}}
            await self._wire.create_message(interaction.channel_id, reply)
