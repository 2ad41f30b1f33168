"""What a place's admins and a person's forget-me do through the kit: change a setting and read
its history, read the report, forget a person or a place.

Who may is decided before (:meth:`bot.kit.PlatformKit.take`'s admins' gate); these are the
kit's members that act, over the service's store.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from datetime import timedelta

from bot.adapter import FORGET_RETRIES, Venue
from bot.ops.report import Report, build_report
from bot.places import Place, PlaceForms, PlaceIds, SettingRefused
from bot.service import AnswerService
from bot.state import SettingChange, StateUnavailable

__all__ = ["KitAdmin"]

log = logging.getLogger("bot.kit")


class KitAdmin:
    """The part of :class:`~bot.kit.PlatformKit` a place's admins and forget-me use."""

    name: str
    place_ids: PlaceIds | None
    """How this platform writes its places' ids, and whom its "Ask a person" may reach."""
    _service: AnswerService

    async def change_setting(
        self, place: Venue, key: str, value: str | None, *, by: str
    ) -> SettingChange | None:
        """An admin sets ``key`` to ``value`` where ``place`` is (its channel, or with
        ``place.channel`` None its server), or with ``value`` None lets it follow the server
        or the environment again; the change, None when nothing changed. Whether ``by`` may
        is the platform's to check first (its own admins). Raises
        :class:`~bot.places.SettingRefused` (``.said(wording)`` in the admin's language) for a
        key or value that is not one, and :class:`~bot.state.StateUnavailable` when the store
        cannot save it (:meth:`Wording.could_not_save`); nothing changes then."""
        where = self._settings_place(place)
        if value is None:
            return await self._service.places.unset(where, key, by=by)
        forms = PlaceForms({self.name: self.place_ids} if self.place_ids is not None else {})
        return await self._service.places.set(where, key, value, by=by, forms=forms)

    async def setting_history(self, place: Venue) -> list[SettingChange]:
        """The changes made to ``place``'s settings (its channel's, or its server's), oldest
        first."""
        return await self._service.places.history(self._settings_place(place))

    def _settings_place(self, place: Venue) -> Place:
        if place.server is None:
            raise SettingRefused(lambda wording: wording.no_place_settings_here())
        return Place(self.name, place.server, place.channel)

    async def report(self, place: Venue, since: timedelta) -> Report:
        """What was asked in the server, workspace or group where ``place`` is (all its
        channels) over the last ``since``: a neutral value the platform renders with
        :attr:`Wording.report_labels`. Who may read it (the place's admins) is the platform's
        to check first. Raises :class:`~bot.places.SettingRefused` in a conversation outside
        any server and :class:`~bot.state.StateUnavailable` when the store cannot be read."""
        server = self._settings_place(place).server
        until = time.time()
        return await build_report(
            self._service.state,
            since=until - since.total_seconds(),
            until=until,
            platform=self.name,
            server=server,
        )

    async def forget_person(self, user_id: str) -> int:
        """Delete everything kept about ``user_id`` on this platform (their forget-me: say
        :meth:`Wording.forgot_you`); how many things went. Anyone may ask it for themselves,
        a few times an hour: raises :class:`~bot.state.ForgetTooSoon` past that
        (:meth:`Wording.forget_me_too_soon`), and :class:`~bot.state.StateUnavailable` when
        the store cannot; either way nothing was deleted (:meth:`Wording.could_not_forget`)."""
        return await self._service.forget_person(self.name, user_id)

    async def forget_place(self, server: str) -> int:
        """Delete everything kept about ``server`` (a server, workspace or group) and its
        channels, once the bot has been removed from it; how many things went. Raises
        :class:`~bot.state.StateUnavailable` when the store cannot."""
        return await self._service.forget_place(self.name, server)

    async def forget_removed(self, server: str, retries: Sequence[float] = FORGET_RETRIES) -> None:
        """The bot was removed from ``server``: :meth:`forget_place`, tried again after each of
        ``retries`` seconds while the store does not answer (and the worker is not stopping),
        then logged as an error naming the place."""
        for wait in (*retries, None):
            try:
                forgotten = await self.forget_place(server)
            except StateUnavailable:
                if wait is None or not self._service.accepting:
                    break
                log.warning(
                    "%s place %s removed citebot; deleting its data again in %ss",
                    self.name,
                    server,
                    wait,
                )
                await asyncio.sleep(wait)
            else:
                log.info(
                    "%s place %s removed citebot: %d things kept deleted",
                    self.name,
                    server,
                    forgotten,
                )
                return
        log.error(
            "%s place %s removed citebot, but the state store did not answer: its data stays "
            "until it expires (the answer log after ANSWER_LOG_DAYS; its settings do not)",
            self.name,
            server,
        )
