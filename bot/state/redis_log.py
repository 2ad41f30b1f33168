"""The answer log and forgetting on Redis, in bounded memory.

A record is one JSON string (``log:answer:ID``) that expires ``ANSWER_LOG_DAYS`` after its
question; three sorted sets find records by time (``log:time``), by server
(``log:in:PLATFORM:SERVER``) and by asker (``log:by:PLATFORM:PERSON``), scored by the question's
time, and ``log:vote:KEY`` finds the record a vote is for. Every write trims the indexes it
touches of what is past retention and pushes their expiry to a retention from now, so nothing
outlives ``ANSWER_LOG_DAYS`` and an index holds at most its retention's records; each write
also drops up to ``PURGE`` records past retention (a retention made shorter takes effect so).
The notes of what belongs to whom (``own:person:…``, ``own:place:…``) are scored by when each
note ends and trimmed likewise: a person's hold their conversations, votes and notes, their
daily counters and the places whose settings they changed, so that forget-me touches their
keys and no one else's (a store an older citebot wrote is indexed so once:
:meth:`RedisAnswerLog._index_people`). Each change is one Lua script, and so is each forget:
all of it or, if Redis fails, none. A record no worker can read is counted by the report,
left alone by a vote or a quote check, and dropped from every index it can be found in by a
forget or its retention's end (``redis_log_scripts``).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable, Sequence
from typing import cast

from redis.asyncio import Redis

from bot.state.logged import (
    FORGOTTEN,
    LoggedAnswer,
    LoggedBatch,
    LoggedVote,
    UnreadableRecord,
    dumps,
    fields_of,
    loads,
)
from bot.state.names import belongs_to_place, counted_person, platform_of, rate_window
from bot.state.redis_log_scripts import (
    FORGET_PERSON,
    FORGET_PLACE,
    LOG,
    NOTE,
    PURGE,
    VERDICTS,
    VOTE,
)

__all__ = ["RedisAnswerLog", "note"]


def _ms(seconds: float) -> int:
    return max(int(seconds * 1000), 1)


def note(kind: str, key: str, *, person: str | None, server: str | None = None) -> str:
    """A note that ``key`` (of ``kind``: a conversation's ``thread``, a ``vote``, a cached
    ``note``, a daily ``counter``, a place whose settings were ``change``d) is ``person``'s and
    ``server``'s, as their ``own:`` sorted sets keep it."""
    return json.dumps([kind, key, person or "", server or ""], ensure_ascii=False)


class RedisAnswerLog:
    """The answer log's and forgetting's half of :class:`~bot.state.redis.RedisState` (mixed
    into it)."""

    def __init__(self, client: Redis, *, namespace: str) -> None:
        self._redis = client
        self._ns = namespace
        self._log_script = client.register_script(LOG)
        self._verdicts_script = client.register_script(VERDICTS)
        self._log_vote_script = client.register_script(VOTE)
        self._note_script = client.register_script(NOTE)
        self._forget_person_script = client.register_script(FORGET_PERSON)
        self._forget_place_script = client.register_script(FORGET_PLACE)

    def _log_key(self, *parts: str) -> str:
        return ":".join((self._ns, *parts))

    async def log_answer(self, record: LoggedAnswer, *, retention: float) -> None:
        answer = self._log_key("log", "answer", record.id)
        time_index = self._log_key("log", "time")
        place = (
            self._log_key("log", "in", record.platform, record.server)
            if record.server
            else time_index
        )
        voted = self._log_key("log", "vote", record.vote_key) if record.vote_key else answer
        await self._log_script(
            keys=[
                answer,
                time_index,
                place,
                self._log_key("log", "by", record.platform, record.asker),
                voted,
            ],
            args=[
                self._ns,
                record.id,
                _ms(record.at),
                _ms(retention),
                dumps(record),
                PURGE,
                int(record.server is not None),
                int(record.vote_key is not None),
            ],
        )

    async def log_verdicts(self, answer_id: str, verdicts: Sequence[str | None]) -> None:
        await self._verdicts_script(
            keys=[self._log_key("log", "answer", answer_id)], args=[json.dumps(list(verdicts))]
        )

    async def log_vote(self, vote_key: str, vote: LoggedVote) -> LoggedAnswer | None:
        was = await self._log_vote_script(
            keys=[self._log_key("log", "vote", vote_key)],
            args=[
                self._log_key("log", "answer", ""),
                json.dumps(fields_of(vote), ensure_ascii=False),
            ],
        )
        if not was:
            return None
        try:
            return loads(str(was))
        except UnreadableRecord:  # its votes are kept; what it was cannot be said
            return None

    async def logged_answers(
        self,
        *,
        since: float,
        until: float,
        platform: str | None = None,
        server: str | None = None,
        batch: int = 1000,
    ) -> AsyncIterator[LoggedBatch]:
        index = (
            self._log_key("log", "in", str(platform), server)
            if server is not None
            else self._log_key("log", "time")
        )
        low, until_ms = _ms(since), f"({_ms(until)}"
        seen: set[str] = set()
        """The ids read at ``low`` already: a page starts at the last one's time, inclusive,
        so answers asked in the same millisecond are neither lost nor read twice."""
        while True:
            page = cast(
                "list[tuple[str, float]]",
                await self._redis.zrangebyscore(
                    index, low, until_ms, start=0, num=batch + len(seen), withscores=True
                ),
            )
            fresh = [(str(i), int(score)) for i, score in page if str(i) not in seen]
            if not fresh:
                return
            keys = [self._log_key("log", "answer", answer_id) for answer_id, _ in fresh]
            found = LoggedBatch.read(str(text) for text in await self._redis.mget(keys) if text)
            if found or found.unreadable:
                yield found
            if len(page) < batch + len(seen):
                return
            last = fresh[-1][1]
            seen = {answer_id for answer_id, at in fresh if at == last} | (
                seen if last == low else set()
            )
            low = last

    async def note_belongings(
        self,
        platform: str,
        *,
        person: str | None,
        server: str | None,
        threads: Sequence[str] = (),
        votes: Sequence[str] = (),
        notes: Sequence[str] = (),
        ttl: float,
    ) -> None:
        notes = [
            note(kind, key, person=person, server=server)
            for kind, keys in (("thread", threads), ("vote", votes), ("note", notes))
            for key in keys
        ]
        if not notes:
            return
        await self._note_script(
            keys=[
                self._own(platform, person) if person else "",
                self._log_key("own", "place", platform, server) if server else "",
            ],
            args=[_ms(ttl), *notes],
        )

    def _own(self, platform: str, person: str) -> str:
        """The notes of what is ``person``'s."""
        return self._log_key("own", "person", platform, person)

    async def forget_person(self, platform: str, person: str) -> int:
        await self._index_people()
        forgotten = await self._forget_person_script(
            args=[
                self._ns,
                platform,
                person,
                self._log_key("hits", rate_window(platform, person)),
                FORGOTTEN,
            ]
        )
        return int(forgotten)

    async def forget_place(self, platform: str, server: str) -> int:
        """The place's keys go in one script; first, what names them in people's notes is
        found (its counters of a person, its settings' changers)."""
        here = f"{platform}:{server}"
        counters = await self._daily_counters(lambda c: belongs_to_place(c, platform, server))
        named = []
        for counter in counters:
            if (person := counted_person(counter)) is not None:
                named.append([self._own(*person), note("counter", counter, person=person[1])])
        places = await self._redis.zrange(self._log_key("settings-index", "history"), 0, -1)
        for place in map(str, places):
            if place == here or place.startswith(f"{here}/"):
                history = await self._redis.lrange(self._log_key("settings-history", place), 0, -1)
                for by in {by for entry in history if (by := _changer(str(entry)))}:
                    named.append([self._own(platform, by), note("change", place, person=by)])
        keys = [self._log_key("daily", counter) for counter in counters]
        return int(
            await self._forget_place_script(
                args=[self._ns, platform, server, json.dumps(keys), json.dumps(named)]
            )
        )

    async def _daily_counters(self, wanted: Callable[[str], bool]) -> list[str]:
        """Today's counters ``wanted`` picks (their names): found by SCAN, a removal from a
        place being rare."""
        prefix = self._log_key("daily", "")
        found = []
        async for key in self._redis.scan_iter(match=f"{_glob(prefix)}*", count=1000):
            if wanted(counter := str(key).removeprefix(prefix)):
                found.append(counter)
        return found

    async def _index_people(self) -> None:
        """Note as each person's what a store an older citebot wrote holds of them beyond its
        notes (today's daily counters, the places whose settings they changed), once a store:
        a walk of every counter and every place's history, the cost every forget-me had before
        (~70 ms of Redis), paid by the first one only."""
        marker = self._log_key("own", "indexed")
        if await self._redis.exists(marker):
            return
        seconds, micros = await self._redis.time()
        now = int(seconds) * 1000 + int(micros) // 1000
        notes: dict[str, dict[str, int]] = {}
        for counter in await self._daily_counters(lambda c: counted_person(c) is not None):
            platform, person = counted_person(counter) or ("", "")
            left = await self._redis.pttl(self._log_key("daily", counter))
            if left > 0:
                own = notes.setdefault(self._own(platform, person), {})
                own[note("counter", counter, person=person)] = now + left
        for place in map(
            str, await self._redis.zrange(self._log_key("settings-index", "history"), 0, -1)
        ):
            history = self._log_key("settings-history", place)
            left = await self._redis.pttl(history)
            for entry in await self._redis.lrange(history, 0, -1):
                by = _changer(str(entry))
                if by and left > 0:
                    own = notes.setdefault(self._own(platform_of(place), by), {})
                    own[note("change", place, person=by)] = now + left
        async with self._redis.pipeline(transaction=False) as pipe:
            for key, members in notes.items():
                pipe.zadd(key, members, gt=True)
                pipe.pexpire(key, max(members.values()) - now, gt=True)
            pipe.set(marker, now)
            await pipe.execute()


def _changer(entry: str) -> str | None:
    """Who made a settings change, as its history keeps it (None: unreadable)."""
    try:
        by = json.loads(entry).get("by")
    except (ValueError, AttributeError):
        return None
    return by if isinstance(by, str) else None


def _glob(text: str) -> str:
    """``text`` as a SCAN pattern that matches only itself."""
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)
