""" "Check with sources": a message command that asks the sources about someone's message.

A message command receives its target's text without the privileged intent. The claim is
quoted at once in the response (its author shown, never pinged), then asked upstream as
:meth:`~bot.i18n.wording.Wording.claim_question` in the asker's language; the answer, its
footnotes and its cards (with their quotes' verdicts) follow in a thread on the quote where the
bot may open one, else as the interaction's followups.

A message command takes no option, so the asker chooses privacy by the entry they pick: "Check
with sources" answers as the place's ``private_by_default`` says (as ``/ask`` without its
``private`` option), "Check with sources privately" to the asker alone.
"""

from __future__ import annotations

import logging
import time

import discord

from bot.adapter import Admitted, Kit, WriteBudget
from bot.i18n.wording import Wording
from bot.render.ports import Payload
from bot.render.text import clip
from integrations.discord.answering import ANSWER_MESSAGES_WITHOUT_BOT, InteractionAnswers
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.place import arrival, here, may_thread
from integrations.discord.routes import pace, threads
from integrations.discord.sink import DiscordAnswerSink, thread_name
from integrations.discord.types import CallbackType
from integrations.discord.wire import DiscordWire, message_body

__all__ = ["ClaimChecks"]

log = logging.getLogger(__name__)

QUOTED = 1500
"""Characters of the claim quoted in the response (the answer says the rest)."""
_MARKDOWN = DiscordMarkdown()


class ClaimChecks:
    def __init__(
        self,
        *,
        kit: Kit,
        wire: DiscordWire,
        budget: WriteBudget,
        answers: InteractionAnswers,
    ) -> None:
        self._kit = kit
        self._wire = wire
        self._budget = budget
        self._answers = answers

    async def check(
        self, interaction: discord.Interaction, message: discord.Message, *, private: bool | None
    ) -> None:
        async def refuse(said: str) -> None:
            body = message_body(self._kit.presenter.notice(said), ephemeral=True)
            await self._wire.respond(interaction.id, interaction.token, CallbackType.MESSAGE, body)

        async def act(admitted: Admitted) -> None:
            claim = message.content.strip()
            if not claim:
                await refuse(admitted.words.nothing_to_check())
                return
            chosen = admitted.settings.private_by_default if private is None else private
            await self._check(interaction, message, claim, admitted.words, private=chosen)

        await self._kit.take(arrival(interaction), act, refuse=refuse)

    async def _check(
        self,
        interaction: discord.Interaction,
        message: discord.Message,
        claim: str,
        words: Wording,
        *,
        private: bool,
    ) -> None:
        at = here(interaction)
        question = self._kit.claim_question(words, claim)
        issued = time.monotonic()
        quote = message_body(_quoted(message, words.check_with_sources()), ephemeral=private)
        original = await self._wire.respond(
            interaction.id, interaction.token, CallbackType.MESSAGE, quote
        )
        assert interaction.channel_id is not None
        channel = int(at.place.channel or interaction.channel_id)
        thread = None
        conversation: tuple[int, int | None]
        if not private and original is not None and may_thread(interaction) and at.bot_member:
            thread = await self._thread(interaction.channel_id, original, thread_name(claim))
        if thread is not None:
            sink = DiscordAnswerSink(wire=self._wire, budget=self._budget, channel_id=thread)
            conversation = (channel, thread)
        else:
            token = self._answers.token(interaction, issued=issued, original=original)
            sink = self._answers.sink(
                interaction,
                at,
                token=token,
                private=private,
                can_thread=False,
                name=thread_name(claim),
                original_taken=True,
            )
            conversation = (channel, original)
        await self._answers.ask(
            interaction,
            question,
            sink,
            at,
            conversation=conversation,
            remember=not private,
            messages=ANSWER_MESSAGES_WITHOUT_BOT - 1,  # the response holds the quote
        )

    async def _thread(self, channel_id: int, message_id: int, name: str) -> int | None:
        try:
            await pace(self._budget, threads(channel_id), final=True)
            return await self._wire.start_thread(channel_id, message_id, name)
        except discord.HTTPException as error:
            log.info("no thread for a check (%s %s): followups instead", error.status, error.code)
            return None


def _quoted(message: discord.Message, heading: str) -> Payload:
    """The claim as the response shows it: what is checked, whose words (a mention that pings
    no one: ``allowed_mentions`` is empty), a link back, then the words quoted."""
    lines = clip(message.content.strip(), QUOTED).split("\n")
    quote = "\n".join("> " + _MARKDOWN.kill_mentions(line) for line in lines)
    link = _MARKDOWN.link("↗", message.jump_url)
    lead = f"-# 🔎 {_MARKDOWN.escape(heading, line_start=False)} · <@{message.author.id}> · {link}"
    return {"content": f"{lead}\n{quote}"}
