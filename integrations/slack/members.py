"""Who a workspace's members are, as far as citebot needs: whether one may change its settings
(the workspace's admins and owners, ``users.info``'s ``is_admin``/``is_owner``, and the users
of ``SLACK_ADMIN_USERS``), and the name a message's author goes by (quoted, never pinged).

Whether someone is an admin is asked of Slack again for every change (a demoted admin changes
nothing); only drawing the settings page after a context change, which may come every few
seconds while someone moves between channels, reuses an answer for a minute. A failing
``users.info`` (no ``users:read``, Slack down) makes nobody an admin but the listed users: no
change is ever made on a guess.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

__all__ = ["Members", "team_of"]

log = logging.getLogger(__name__)

REMEMBERED = 60.0
"""Seconds an answer about a member is reused where it may be (drawing a page, a name)."""
KEPT = 2000


class Members:
    def __init__(
        self,
        web: AsyncWebClient,
        *,
        admin_users: Collection[str] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._web = web
        self._listed = frozenset(admin_users)
        self._clock = clock
        self._known: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()

    async def is_admin(self, user: str, *, fresh: bool = True) -> bool:
        """Whether ``user`` may change citebot's settings in this workspace; ``fresh=False``
        may reuse Slack's answer of the last minute."""
        if user in self._listed:
            return True
        member = await self._member(user, fresh=fresh)
        return bool(member.get("is_admin") or member.get("is_owner"))

    async def name(self, user: str) -> str | None:
        """How ``user`` is shown in the workspace (display name, else real name); None when
        Slack will not say."""
        member = await self._member(user, fresh=False)
        profile = member.get("profile") or {}
        for name in (profile.get("display_name"), profile.get("real_name"), member.get("name")):
            if isinstance(name, str) and name.strip():
                return name.strip()
        return None

    async def _member(self, user: str, *, fresh: bool) -> dict[str, Any]:
        known = self._known.get(user)
        if known is not None and not fresh and self._clock() - known[0] < REMEMBERED:
            return known[1]
        try:
            reply = await self._web.users_info(user=user)
        except SlackApiError as error:
            log.warning("users.info failed for a member: %s", error.response.get("error"))
            return {}
        except Exception as error:  # slow or unreachable: nobody is an admin meanwhile
            log.warning("users.info failed for a member: %s", type(error).__name__)
            return {}
        member = dict(reply.get("user") or {})
        self._known[user] = (self._clock(), member)
        self._known.move_to_end(user)
        while len(self._known) > KEPT:
            self._known.popitem(last=False)
        return member


def team_of(body: dict[str, Any]) -> str:
    """The workspace an interaction or event came from, wherever its payload keeps it."""
    team = body.get("team_id") or (body.get("team") or {}).get("id")
    return str(team or (body.get("user") or {}).get("team_id"))
