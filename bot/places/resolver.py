"""What the service and the adapters ask of places: a place's effective settings, an admin's
change, the history, ``export`` and ``import``, and a question's daily quota.

Reads go through a short cache (``CACHE_TTL``, 1 s): a worker reads a place's settings from the
store at most once a second, and every worker on one store applies a change within about a
second of it (docs/decisions.md, "Settings: how a change reaches every worker"). A change made
through this object is seen by it at once.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from bot.billing import Bill, micro_dollars
from bot.places.document import checked_document
from bot.places.keys import KEYS, Where, check_key, check_value
from bot.places.own import MOST_OWN_ANSWERS, OWN, OwnAnswer, own_answers_of
from bot.places.place import NO_FORMS, Place, PlaceForms
from bot.places.refused import SettingRefused
from bot.places.settings import PlaceSettings, layered
from bot.state import SettingChange, State
from bot.state.base import utc_day
from bot.state.names import person_questions, place_cost, place_questions, place_tokens
from config import Settings

__all__ = ["CACHED_PLACES", "CACHE_TTL", "DailyQuota", "Places"]

CACHE_TTL = 1.0
"""Seconds a place's settings are read from the cache before the store is asked again."""
CACHED_PLACES = 10_000
"""Places kept in the cache; the least recently read go first."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DailyQuota:
    """Whether a question was counted; when refused, by which setting (``daily_questions``,
    ``daily_questions_per_person``, ``daily_tokens`` or ``daily_cost``), its limit, and the
    seconds until the UTC day ends."""

    allowed: bool
    refused_by: str | None = None
    limit: int | Decimal = 0
    """A count, or US dollars (``daily_cost``)."""
    retry_after: float = 0.0


class Places:
    """Every place's settings in ``state`` (the worker's fail-open store, or the command line's
    own), over the environment's ``defaults``."""

    def __init__(
        self,
        state: State,
        *,
        defaults: Settings,
        ttl: float = CACHE_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._state = state
        self._defaults = defaults
        self._ttl = ttl
        self._clock = clock
        self._cache: OrderedDict[str, tuple[float, Mapping[str, str]]] = OrderedDict()

    async def effective(
        self, platform: str, server: str | None, channel: str | None = None
    ) -> PlaceSettings:
        """The settings where a question was asked: ``server`` None for a direct message (the
        environment's settings), ``channel`` the parent channel of a thread or forum post."""
        place = None if server is None else Place(platform, server, channel)
        return await self.of(place)

    async def of(self, place: Place | None) -> PlaceSettings:
        layers = [] if place is None else [str(place), str(place.server_place)]
        return layered(place, await self._read(layers), self._defaults)

    async def _read(self, places: Sequence[str]) -> dict[str, Mapping[str, str]]:
        now = self._clock()
        found: dict[str, Mapping[str, str]] = {}
        for place in places:
            cached = self._cache.get(place)
            if cached is not None and cached[0] > now:
                found[place] = cached[1]
        missing = [place for place in dict.fromkeys(places) if place not in found]
        if missing:
            read = await self._state.place_settings(missing)
            expires = self._clock() + self._ttl
            for place in missing:
                found[place] = read.get(place, {})
                self._cache[place] = (expires, found[place])
                self._cache.move_to_end(place)
            while len(self._cache) > CACHED_PLACES:
                self._cache.popitem(last=False)
        return found

    async def set(
        self, place: Place, key: str, value: str, *, by: str, forms: PlaceForms = NO_FORMS
    ) -> SettingChange | None:
        """Set ``key`` to ``value`` in ``place`` (texts as an admin writes them; ``forms``:
        whom each platform's ``handoff`` may reach); the change, or None when it already had
        that value. :class:`~bot.places.refused.SettingRefused` when the key or value is not
        one, and then nothing changes."""
        setting = check_key(key)
        text = check_value(setting, value, self.where(place, forms))
        made = await self._change({place: {setting.name: text}}, by=by)
        return made[0] if made else None

    def where(self, place: Place, forms: PlaceForms) -> Where:
        """What a value set in ``place`` may be: its platform's ``handoff`` targets (as
        ``forms`` say), the operator's provider profiles."""
        return Where(
            handoff=forms.handoff(place.platform),
            profiles=frozenset(self._defaults.upstream_profiles),
        )

    async def unset(self, place: Place, key: str, *, by: str) -> SettingChange | None:
        """Let ``place`` take ``key`` from its server or the environment again."""
        made = await self._change({place: {check_key(key).name: None}}, by=by)
        return made[0] if made else None

    async def history(self, place: Place | None = None) -> list[SettingChange]:
        """The recorded changes of ``place`` (None: of every place), oldest first."""
        return await self._state.settings_history(None if place is None else str(place))

    async def export(self) -> dict[str, dict[str, Any]]:
        """Every place that has settings, with them, its own answers under ``answers``: what
        :meth:`import_` reads back."""
        every = await self._state.every_place_settings()
        exported: dict[str, dict[str, Any]] = {}
        for place in sorted(every):
            keys = every[place]
            exported[place] = {name: keys[name] for name in KEYS if name in keys}
            owned = own_answers_of(keys)
            if owned:
                exported[place]["answers"] = [own.to_json() for own in owned]
        return exported

    async def import_(self, document: object, *, forms: PlaceForms, by: str) -> list[SettingChange]:
        """Make each place of ``document`` (as :meth:`export` writes it, its places in
        ``forms``) have exactly the settings it lists there, in one step; places it does not
        list keep theirs. Every entry is checked first: one that is not right raises
        :class:`~bot.places.refused.SettingRefused` naming it, and nothing changes."""
        checked = checked_document(document, forms, lambda place: self.where(place, forms))
        kept = await self._state.place_settings([str(place) for place in checked])
        changes: dict[Place, dict[str, str | None]] = {}
        for place, keys in checked.items():
            gone = [key for key in kept.get(str(place), {}) if key.startswith(OWN)]
            changes[place] = {
                **dict.fromkeys(gone),
                **{name: keys.get(name) for name in KEYS},
                **{key: value for key, value in keys.items() if key.startswith(OWN)},
            }
        return await self._change(changes, by=by)

    async def own_answers(self, place: Place) -> list[OwnAnswer]:
        """The own answers kept in ``place`` itself (a channel's, not its server's), oldest
        first, as the store has them now."""
        kept = await self._state.place_settings([str(place)])
        return own_answers_of(kept.get(str(place), {}), place)

    async def own_answers_at(
        self, platform: str, server: str | None, channel: str | None = None
    ) -> list[OwnAnswer]:
        """The own answers a question asked there is matched against (through the cache): the
        channel's, then its server's but those the channel answers itself (the same ID)."""
        if server is None:
            return []
        place = Place(platform, server, channel)
        layers = list(dict.fromkeys([place, place.server_place]))
        found = await self._read([str(layer) for layer in layers])
        answers: dict[str, OwnAnswer] = {}
        for layer in layers:
            for own in own_answers_of(found.get(str(layer), {}), layer):
                answers.setdefault(own.id, own)
        return list(answers.values())

    async def add_own_answer(self, place: Place, own: OwnAnswer, *, by: str) -> OwnAnswer:
        """Keep ``own`` in ``place`` (replacing the answer to the same question); it, as kept.
        :class:`~bot.places.refused.SettingRefused` when the place keeps
        :data:`~bot.places.own.MOST_OWN_ANSWERS` already, and then nothing changes."""
        ids = {kept.id for kept in await self.own_answers(place)}
        if own.id not in ids and len(ids) >= MOST_OWN_ANSWERS:
            raise SettingRefused(lambda wording: wording.too_many_own_answers(MOST_OWN_ANSWERS))
        await self._change({place: {own.key: own.value()}}, by=by)
        return replace(own, place=place)

    async def remove_own_answer(self, place: Place, answer: str, *, by: str) -> OwnAnswer:
        """Remove the own answer ``answer`` (its ID) from ``place``; the answer that went.
        :class:`~bot.places.refused.SettingRefused` when ``place`` keeps none by that ID."""
        kept = {own.id: own for own in await self.own_answers(place)}
        own = kept.get(answer.strip().lower())
        if own is None:
            written = answer.strip()
            raise SettingRefused(lambda wording: wording.no_such_own_answer(written))
        await self._change({place: {own.key: None}}, by=by)
        return own

    async def _change(
        self, changes: Mapping[Place, Mapping[str, str | None]], *, by: str
    ) -> list[SettingChange]:
        made = await self._state.change_place_settings(
            {str(place): keys for place, keys in changes.items()}, by=by
        )
        for place in changes:
            self._cache.pop(str(place), None)
        return made

    def forget(self, platform: str, server: str) -> None:
        """Drop what the cache holds of ``server`` and its channels (their settings are gone)."""
        here = f"{platform}:{server}"
        for place in [p for p in self._cache if p == here or p.startswith(f"{here}/")]:
            del self._cache[place]

    async def take_question(self, settings: PlaceSettings, person: str) -> DailyQuota:
        """Count one question by ``person`` against the daily limits ``settings`` set, each in
        the place that set it (a channel's own limit, else its server's, which its channels
        share), if neither is reached; a refused question counts on neither."""
        limits: dict[str, int] = {}
        named: dict[str, tuple[str, int]] = {}
        for setting, limit, counter in (
            ("daily_questions", settings.daily_questions, place_questions),
            (
                "daily_questions_per_person",
                settings.daily_questions_per_person,
                lambda place: person_questions(place, person),
            ),
        ):
            place = settings.set_in[setting]
            if limit is not None and place is not None:
                key = counter(str(place))
                limits[key], named[key] = limit, (setting, limit)
        if not limits:
            return DailyQuota(allowed=True)
        decision = await self._state.take_daily(limits)
        if decision.allowed or decision.refused_by is None:
            return DailyQuota(allowed=True)
        setting, limit = named[decision.refused_by]
        return DailyQuota(
            allowed=False, refused_by=setting, limit=limit, retry_after=decision.retry_after
        )

    async def budget(self, settings: PlaceSettings) -> DailyQuota:
        """Whether the place's ``daily_tokens`` and ``daily_cost`` leave room for a question
        today: refused once what its answers used today (in the place that set each) reaches
        either, tokens first. An answer's bill is known once it is done, so answers already
        under way may go past it."""
        limits = {
            "daily_tokens": (settings.daily_tokens, place_tokens, 1),
            "daily_cost": (settings.daily_cost, place_cost, 1_000_000),
        }
        counters = {
            setting: (counter(str(place)), limit)
            for setting, (limit, counter, _) in limits.items()
            if limit is not None and (place := settings.set_in[setting]) is not None
        }
        if not counters:
            return DailyQuota(allowed=True)
        used = await self._state.daily_counts([counter for counter, _ in counters.values()])
        for setting, (counter, limit) in counters.items():
            if used.get(counter, 0) >= limit * limits[setting][2]:
                _, left = utc_day(time.time())
                return DailyQuota(allowed=False, refused_by=setting, limit=limit, retry_after=left)
        return DailyQuota(allowed=True)

    async def spend(
        self, settings: PlaceSettings, platform: str, server: str | None, bill: Bill
    ) -> None:
        """Count an answer's tokens and cost today where ``daily_tokens`` and ``daily_cost``
        are set (a channel's own limit, else its server's), and on the server where neither
        is, so a limit set later in the day meets the day's use already made. The cost is
        counted in millionths of a dollar, exactly."""
        here = Place(platform, server) if server is not None else None
        spent: dict[str, int] = {}
        tokens_in = settings.set_in["daily_tokens"] or here
        if tokens_in is not None and bill.total > 0:
            spent[place_tokens(str(tokens_in))] = bill.total
        cost_in = settings.set_in["daily_cost"] or here
        if cost_in is not None and bill.cost:
            spent[place_cost(str(cost_in))] = micro_dollars(bill.cost)
        if spent:
            await self._state.add_daily(spent)
