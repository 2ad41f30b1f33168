"""What every Slack feature is built from: the kit, the Web API client, who the workspace's
members are and what they read, and who citebot is there.

Each feature (:mod:`.answering`, :mod:`.admin`, :mod:`.report`, :mod:`.forgetting`,
:mod:`.feedback`, :mod:`.check`, :mod:`.agent`) is handed a :class:`Context` and the few
other features it uses, named in its constructor, as Discord's and Telegram's are; none
imports the app (:mod:`.app`), which builds them and registers their listeners, as aiogram's
dispatcher registers its routers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.adapter import Admins, Arrival, Heard, Kit, Venue
from bot.i18n.wording import Wording, catalogue_language
from integrations.slack.locales import UserLocales
from integrations.slack.members import Members

__all__ = ["Context", "Me", "action_key"]


@dataclass(slots=True)
class Me:
    """Who citebot is in the workspace, as ``auth.test`` says once the app starts."""

    user_id: str = ""
    bot_id: str = ""
    name: str = "citebot"
    """How the bot is named in the workspace (``auth.test``'s ``user``): the placeholder says
    "citebot is thinking…" under that name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Context:
    kit: Kit
    web: AsyncWebClient
    locales: UserLocales
    members: Members
    me: Me

    async def language(self, user: str, team: str | None) -> str | None:
        """The catalogue of ``user``'s Slack locale (None: unknown); ``team`` their workspace."""
        return catalogue_language(await self.locales.locale(user, team=team))

    def admins(self, user: str, *, fresh: bool = True) -> Admins:
        """The kit's gate for ``user``: an admin or owner of the workspace (or listed in
        ``SLACK_ADMIN_USERS``), asked of Slack again unless ``fresh`` is False (a page drawn
        again may reuse Slack's answer of the last minute)."""
        return Admins(is_admin=lambda: self.members.is_admin(user, fresh=fresh))

    async def whisper(self, channel: str, user: str, thread: str | None, words: str) -> None:
        """Say ``words`` in the thread, to ``user`` alone."""
        said = self.kit.presenter.notice(words)
        with contextlib.suppress(SlackApiError):
            await self.web.chat_postEphemeral(
                channel=channel,
                user=user,
                thread_ts=thread,
                **{k: v for k, v in said.items() if k in ("markdown_text", "text", "blocks")},
            )

    async def words(self, user: str, team: str | None) -> Wording:
        """``user``'s words: their Slack locale's, else the workspace's language."""
        return await self.kit.words(Venue(server=team), await self.language(user, team))

    def arrival(
        self,
        *keys: str,
        user: str,
        team: str | None,
        channel: str | None = None,
        heard: Heard = Heard.MENTION,
        confirm: Callable[[], Awaitable[bool]] | None = None,
    ) -> Arrival:
        """An event or an action as the kit takes it: claimed by ``keys``, where it happens
        (a ``D…`` channel is a conversation with citebot alone), in ``user``'s language,
        looked up only once it is claimed."""
        direct = channel is not None and channel.startswith("D")
        return Arrival(
            keys=keys,
            venue=Venue(server=team, channel=channel, direct=direct),
            heard=heard,
            language=lambda: self.language(user, team),
            confirm=confirm,
        )


def action_key(body: dict[str, Any], action: dict[str, Any] | None = None) -> str:
    """A click's own id: its trigger (unique per click), else its time and who clicked."""
    trigger = body.get("trigger_id")
    if trigger:
        return f"action:{trigger}"
    when = (action or {}).get("action_ts")
    return f"action:{body.get('user', {}).get('id')}:{when}"
