"""The ``assistant.threads`` methods: an app's loading status, its suggested prompts and a
thread's title, as Slack documents them in 2026.

- ``assistant.threads.setStatus`` (https://docs.slack.dev/reference/methods/assistant.threads.setStatus
  and the changelog of 2026-03-05, "Set status method scope update": it "now accepts either the
  assistant:write or chat:write scope. This allows channel-based apps to use AI loading states
  in channels"): ``channel_id``, ``thread_ts`` and ``status`` required (``""`` clears it),
  ``loading_messages`` "Maximum of 10 messages"; the thread is any message of a conversation,
  a channel's or the app's DM. An unknown thread is ``invalid_thread_ts`` ("Thread not found").
- ``assistant.threads.setSuggestedPrompts`` (its method page): ``assistant:write``;
  ``channel_id`` and ``prompts`` required, "up to four", each with a ``title`` and a
  ``message``; ``title`` optional; ``thread_ts`` optional ("If not provided, the prompts will be
  set for the latest message in the channel"), and "should only be used in the legacy assistant
  messaging experience. Including it in a call for an agent app will cause the call to silently
  fail": the simulator answers ``ok`` and shows nothing, as Slack does.
- ``assistant.threads.setTitle``: ``assistant:write``; ``channel_id``, ``thread_ts`` and
  ``title`` required, the thread one of the app's DM.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from tests.sim.slack.model import Workspace

__all__ = ["Assistant", "Prompts"]

LOADING_MESSAGES_MAX = 10
PROMPTS_MAX = 4


@dataclass(frozen=True)
class Prompts:
    """Suggested prompts as a person sees them under a message of the app's DM."""

    under: str | None
    """The message they are set for (the latest in the DM when they were set)."""
    title: str | None
    prompts: tuple[tuple[str, str], ...]
    """Each prompt's (title, message)."""


class Assistant:
    """The three methods, against the workspace; ``fail(error, detail)`` raises ``ok: false``
    and ``scoped(*any_of)`` raises ``missing_scope`` unless the token holds one of them."""

    def __init__(
        self,
        *,
        workspace: Workspace,
        agent_view: bool,
        fail: Callable[..., NoReturn],
        scoped: Callable[..., None],
    ) -> None:
        self.ws = workspace
        self.agent_view = agent_view
        self._fail = fail
        self._scoped = scoped
        self.statuses: dict[tuple[str, str], list[str]] = {}
        self.loading: dict[tuple[str, str], list[str]] = {}
        self.prompts: dict[str, Prompts] = {}
        self.titles: dict[tuple[str, str], str] = {}

    def handlers(self) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {
            "assistant.threads.setStatus": self.set_status,
            "assistant.threads.setSuggestedPrompts": self.set_suggested_prompts,
            "assistant.threads.setTitle": self.set_title,
        }

    def _channel(self, args: Mapping[str, Any]) -> str:
        channel = args.get("channel_id")
        if not channel or channel not in self.ws.channels:
            self._fail("channel_not_found")
        return str(channel)

    def _thread(self, channel: str, thread_ts: object) -> str:
        if not thread_ts:
            self._fail("invalid_arguments", "missing required field: thread_ts")
        if self.ws.find(channel, str(thread_ts)) is None:
            self._fail("invalid_thread_ts", "Thread not found")
        return str(thread_ts)

    def set_status(self, args: dict[str, Any]) -> dict[str, Any]:
        self._scoped("chat:write", "assistant:write")
        channel = self._channel(args)
        thread_ts = self._thread(channel, args.get("thread_ts"))
        if not isinstance(args.get("status"), str):
            self._fail("invalid_arguments", "missing required field: status")
        loading = args.get("loading_messages")
        if loading is not None and (
            not isinstance(loading, list)
            or len(loading) > LOADING_MESSAGES_MAX
            or not all(isinstance(m, str) and m for m in loading)
        ):
            self._fail("invalid_arguments", "loading_messages: at most 10 strings")
        self.statuses.setdefault((channel, thread_ts), []).append(args["status"])
        if loading:
            self.loading[(channel, thread_ts)] = list(loading)
        return {}

    def set_suggested_prompts(self, args: dict[str, Any]) -> dict[str, Any]:
        self._scoped("assistant:write")
        channel = self._channel(args)
        prompts = args.get("prompts")
        if not isinstance(prompts, list) or not 1 <= len(prompts) <= PROMPTS_MAX:
            self._fail("invalid_arguments", "prompts: 1 to 4 prompts")
        pairs = []
        for prompt in prompts:
            title = prompt.get("title") if isinstance(prompt, Mapping) else None
            message = prompt.get("message") if isinstance(prompt, Mapping) else None
            if not (isinstance(title, str) and title and isinstance(message, str) and message):
                self._fail("invalid_arguments", "each prompt needs a title and a message")
            pairs.append((str(title), str(message)))
        title = args.get("title")
        if title is not None and not isinstance(title, str):
            self._fail("invalid_arguments", "title must be a string")
        if args.get("thread_ts"):
            if self.agent_view:
                return {}  # "will cause the call to silently fail"
            under: str | None = self._thread(channel, args["thread_ts"])
        else:
            latest = [m for m in self.ws.messages[channel] if m.thread_ts in (None, m.ts)]
            under = latest[-1].ts if latest else None
        self.prompts[channel] = Prompts(under=under, title=title, prompts=tuple(pairs))
        return {}

    def set_title(self, args: dict[str, Any]) -> dict[str, Any]:
        self._scoped("assistant:write")
        channel = self._channel(args)
        if self.ws.channels[channel] != "im":
            self._fail("invalid_thread_ts", "Thread not found")
        thread_ts = self._thread(channel, args.get("thread_ts"))
        title = args.get("title")
        if not isinstance(title, str) or not title:
            self._fail("invalid_arguments", "missing required field: title")
        self.titles[(channel, thread_ts)] = str(title)
        return {}
