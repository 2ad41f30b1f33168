"""Telegram's message pace, as the core's write budget keeps it (:class:`~bot.budgets.WriteBudget`).

The Bot FAQ: no more than about one message a second in a chat, 20 a minute in a group, 30 a
second overall; sending and editing both count (drafts and chat actions do not). Telegram
answers a write over the pace with 429 and ``retry_after``. Each is a limit of the budget
(:func:`pace_limits`), and a write in a chat counts in the windows :func:`windows` names, all of
them at the time it goes. An answer's writes that can be skipped (the edits while it streams) go
only when a slot is free beyond those promised (:func:`promised`: the group's minute) to the
writes that cannot (each open answer's last edit and its cards), so the finals never wait behind
the extras there (a chat's second comes round by itself); and not at all while Telegram said to
wait (:func:`waited_for`: the chat's window, paused). Workers on one Redis keep the pace as one,
whichever worker a chat's answers run in (a webhook behind a load balancer, a reader handed over
mid-answer)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapter import Limit, Window
from integrations.telegram.place import Chat

__all__ = ["PACE", "Pace", "pace_limits", "promised", "waited_for", "windows"]


@dataclass(frozen=True, slots=True)
class Pace:
    """Each limit is (messages, seconds)."""

    chat: tuple[int, float] = (1, 1.0)
    group: tuple[int, float] = (20, 60.0)
    bot: tuple[int, float] = (30, 1.0)


PACE = Pace()


def pace_limits(pace: Pace = PACE) -> dict[str, Limit]:
    """The budget's limits for ``pace``."""
    return {
        "group": Limit(*pace.group),
        "chat": Limit(*pace.chat),
        "bot": Limit(*pace.bot),
    }


def windows(chat: Chat) -> tuple[Window, ...]:
    """Every window a message write in ``chat`` counts in."""
    key = str(chat.id)
    group = (Window("group", key),) if chat.group else ()
    return (*group, Window("chat", key), Window("bot"))


def promised(chat: Chat) -> Window:
    """Where an answer's finals are promised their slots: the group's minute."""
    return Window("group", str(chat.id))


def waited_for(chat: Chat) -> Window:
    """Where a 429's ``retry_after`` holds a chat's writes."""
    return Window("chat", str(chat.id))
