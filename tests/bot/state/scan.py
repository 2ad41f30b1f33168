"""A whole store read back as text, to prove what it no longer holds: every Redis key of a
namespace with its value, every row of every SQLite table, everything a memory state refers
to (not through its own methods, which could hide what they skip)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sqlite3
from collections import deque
from collections.abc import Iterator
from urllib.parse import urlsplit

from redis.asyncio import Redis

from bot.state import State
from bot.state.memory import MemoryState

__all__ = ["everything_stored"]


async def everything_stored(state: State, url: str, namespace: str) -> str:
    if isinstance(state, MemoryState):
        return "\n".join(_walk(state, set()))
    if url.startswith("sqlite"):
        return await asyncio.to_thread(_sqlite_rows, urlsplit(url).path.removeprefix("/"))
    return await _redis_keys(url, namespace)


def _walk(value: object, seen: set[int]) -> Iterator[str]:
    if isinstance(value, str | int | float | bool) or value is None:
        yield repr(value)
        return
    if id(value) in seen or isinstance(value, asyncio.Event):
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(key, seen)
            yield from _walk(item, seen)
    elif isinstance(value, list | tuple | set | frozenset | deque):
        for item in value:
            yield from _walk(item, seen)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from _walk(getattr(value, field.name), seen)
    elif hasattr(value, "__dict__"):
        yield from _walk(vars(value), seen)


def _sqlite_rows(path: str) -> str:
    with contextlib.closing(sqlite3.connect(path)) as db:
        listed = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = [name for (name,) in listed]
        lines = [repr(row) for table in tables for row in db.execute(f"SELECT * FROM {table}")]
    return "\n".join(lines)


async def _redis_keys(url: str, namespace: str) -> str:
    lines = []
    async with Redis.from_url(url, decode_responses=True) as redis:
        async for key in redis.scan_iter(match=f"{namespace}:*"):
            kind = await redis.type(key)
            if kind == "string":
                value: object = await redis.get(key)
            elif kind == "hash":
                value = await redis.hgetall(key)
            elif kind == "list":
                value = await redis.lrange(key, 0, -1)
            elif kind == "set":
                value = await redis.smembers(key)
            elif kind == "zset":
                value = await redis.zrange(key, 0, -1, withscores=True)
            else:
                value = kind
            lines.append(f"{key} = {value!r}")
    return "\n".join(lines)
