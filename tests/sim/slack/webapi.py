"""The Web API methods citebot calls, with Slack's argument rules and error codes.

Error codes are Slack's documented ones where known (channel_not_found, msg_too_long,
invalid_blocks, message_not_in_streaming_state, ...); ``invalid_arguments`` stands in where Slack
documents a rule but not its code (markdown_text together with text or blocks). The
``assistant.threads`` methods are in :mod:`tests.sim.slack.assistant`, the views' in
:mod:`tests.sim.slack.views`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from tests.sim.slack.assistant import Assistant
from tests.sim.slack.limits import check_blocks, check_markdown, check_message
from tests.sim.slack.model import Message, Workspace
from tests.sim.slack.views import StoredView, Triggers, Views

__all__ = ["BOT_EVENTS", "BOT_SCOPES", "ApiError", "Identity", "WebApi"]


class ApiError(Exception):
    """``ok: false`` with ``error``; ``fields`` go beside it (``needed``/``provided``)."""

    def __init__(self, error: str, detail: str = "", **fields: str) -> None:
        super().__init__(error)
        self.error = error
        self.detail = detail
        self.fields = fields


BOT_SCOPES = frozenset(
    {
        "app_mentions:read",
        "assistant:write",
        "channels:history",
        "chat:write",
        "commands",
        "groups:history",
        "im:history",
        "users:read",
    }
)
BOT_EVENTS = frozenset(
    {
        "app_context_changed",
        "app_home_opened",
        "app_mention",
        "app_uninstalled",
        "message.channels",
        "message.groups",
        "message.im",
        "tokens_revoked",
    }
)
HISTORY_SCOPES = {"channel": "channels:history", "group": "groups:history", "im": "im:history"}


@dataclass(frozen=True, kw_only=True)
class Identity:
    team_id: str = "T0SIM"
    bot_user_id: str = "U0BOT"
    bot_id: str = "B0BOT"
    app_id: str = "A0SIM"
    scopes: frozenset[str] = BOT_SCOPES
    """The bot token's scopes; a method needing another answers ``missing_scope``."""
    events: frozenset[str] = BOT_EVENTS
    """The bot events the app subscribes to: Slack sends it only these."""
    agent_view: bool = True
    """The app uses Slack's agent messaging experience (``features.agent_view``), as every new
    app must since 2026; False: the legacy assistant experience (``assistant_view``)."""


def _refuse(refusal: tuple[str, str] | None) -> None:
    if refusal:
        raise ApiError(*refusal)


def _fail(error: str, detail: str = "") -> NoReturn:
    raise ApiError(error, detail)


def _required(args: Mapping[str, Any], *names: str) -> None:
    for name in names:
        if not args.get(name):
            raise ApiError("invalid_arguments", f"missing required field: {name}")


class WebApi:
    """Answers one method call against the workspace; raises ApiError like ``ok: false``."""

    def __init__(
        self,
        *,
        workspace: Workspace,
        me: Identity,
        socket_url: Callable[[], str],
        triggers: Triggers,
    ) -> None:
        self.ws = workspace
        self.me = me
        self._socket_url = socket_url
        self.assistant = Assistant(
            workspace=workspace, agent_view=me.agent_view, fail=_fail, scoped=self._scope
        )
        self.views = Views(triggers=triggers, fail=_fail, wire=self.wire_view)
        self.expire_after_appends: int | None = None
        self._handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "auth.test": self.auth_test,
            "apps.connections.open": self.connections_open,
            "chat.postMessage": self.post_message,
            "chat.update": self.update,
            "chat.postEphemeral": self.post_ephemeral,
            "chat.startStream": self.start_stream,
            "chat.appendStream": self.append_stream,
            "chat.stopStream": self.stop_stream,
            "conversations.history": self.history,
            "conversations.replies": self.replies,
            "reactions.add": self.reactions_add,
            "users.info": self.users_info,
            "chat.getPermalink": self.get_permalink,
            **self.assistant.handlers(),
            **self.views.handlers(),
        }

    @property
    def statuses(self) -> dict[tuple[str, str], list[str]]:
        return self.assistant.statuses

    def handler(self, method: str) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
        return self._handlers.get(method)

    def wire_view(self, view: StoredView) -> dict[str, Any]:
        return view.wire(team=self.me.team_id, app=self.me.app_id, bot=self.me.bot_id)

    # -- helpers ---------------------------------------------------------------------------
    def _channel(self, args: Mapping[str, Any], key: str = "channel") -> str:
        channel = args.get(key)
        if not channel or channel not in self.ws.channels:
            raise ApiError("channel_not_found")
        return str(channel)

    def _scope(self, *any_of: str) -> None:
        """``missing_scope`` unless the token holds one of ``any_of``."""
        if not self.me.scopes & set(any_of):
            raise ApiError(
                "missing_scope", needed=",".join(any_of), provided=",".join(sorted(self.me.scopes))
            )

    def _own(self, channel: str, ts: object) -> Message:
        message = self.ws.find(channel, str(ts or ""))
        if message is None:
            raise ApiError("message_not_found")
        if message.bot_id != self.me.bot_id:
            raise ApiError("cant_update_message")
        return message

    def _thread_parent(self, channel: str, thread_ts: object) -> str | None:
        if not thread_ts:
            return None
        parent = self.ws.find(channel, str(thread_ts))
        if parent is None:
            raise ApiError("thread_not_found")
        return parent.thread_ts or parent.ts

    def _new(self, channel: str, thread_ts: str | None, args: Mapping[str, Any]) -> Message:
        message = Message(
            channel=channel,
            ts=self.ws.next_ts(),
            user=self.me.bot_user_id,
            thread_ts=thread_ts,
            bot_id=self.me.bot_id,
        )
        _apply(message, args)
        if thread_ts:  # a reply clears the app's status in its thread
            self.statuses.setdefault((channel, thread_ts), []).append("")
        return message

    # -- methods ---------------------------------------------------------------------------
    def auth_test(self, args: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": "https://sim.slack.com/",
            "team": "Sim",
            "user": "citebot",
            "team_id": self.me.team_id,
            "user_id": self.me.bot_user_id,
            "bot_id": self.me.bot_id,
            "is_enterprise_install": False,
        }

    def connections_open(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"url": self._socket_url()}

    def post_message(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        _refuse(check_message(args))
        thread_ts = self._thread_parent(channel, args.get("thread_ts"))
        message = self.ws.post(self._new(channel, thread_ts, args))
        return {"channel": channel, "ts": message.ts, "message": message.wire()}

    def update(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        message = self._own(channel, args.get("ts"))
        _refuse(check_message(args))
        _apply(message, args)
        message.edits += 1
        return {
            "channel": channel,
            "ts": message.ts,
            "text": message.shown,
            "message": message.wire(),
        }

    def post_ephemeral(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        _required(args, "user")
        _refuse(check_message(args))
        message = Message(
            channel=channel,
            ts=self.ws.next_ts(),
            user=self.me.bot_user_id,
            thread_ts=args.get("thread_ts"),
            bot_id=self.me.bot_id,
            ephemeral_to=str(args["user"]),
        )
        _apply(message, args)
        self.ws.ephemerals.append(message)
        return {"message_ts": message.ts}

    def start_stream(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        _required(args, "thread_ts")
        if self.ws.channels[channel] != "im":
            for name in ("recipient_team_id", "recipient_user_id"):
                if not args.get(name):
                    raise ApiError(f"missing_{name}")
        if "text" in args or "blocks" in args:
            raise ApiError("invalid_arguments", "stream methods take markdown_text only")
        markdown = _stream_text(args)
        _refuse(check_markdown(markdown, partial=True))
        thread_ts = self._thread_parent(channel, args["thread_ts"])
        message = self._new(channel, thread_ts, {"markdown_text": markdown})
        message.streaming = message.streamed = True
        self.ws.post(message)
        return {"channel": channel, "ts": message.ts}

    def _streaming(self, args: Mapping[str, Any]) -> Message:
        channel = self._channel(args)
        message = self._own(channel, args.get("ts"))
        if not message.streaming:
            raise ApiError("message_not_in_streaming_state")
        if "text" in args:
            raise ApiError("invalid_arguments", "stream methods take markdown_text only")
        return message

    def _append(self, message: Message, markdown: str, *, final: bool) -> None:
        """The stream so far is judged on its finished lines; its end, on all of it."""
        _refuse(check_markdown(markdown, partial=True))
        whole = (message.markdown_text or "") + markdown
        _refuse(check_markdown(whole, partial=not final))
        message.markdown_text = whole

    def append_stream(self, args: dict[str, Any]) -> dict[str, Any]:
        message = self._streaming(args)
        if self.expire_after_appends is not None and message.appends >= self.expire_after_appends:
            message.streaming = False
            raise ApiError("message_not_in_streaming_state")
        if not (markdown := _stream_text(args)):
            raise ApiError("no_text")
        self._append(message, str(markdown), final=False)
        message.appends += 1
        return {"channel": message.channel, "ts": message.ts}

    def stop_stream(self, args: dict[str, Any]) -> dict[str, Any]:
        message = self._streaming(args)
        if args.get("blocks") is not None:
            _refuse(check_blocks(args["blocks"]))
        self._append(message, str(_stream_text(args) or ""), final=True)
        if args.get("blocks") is not None:
            message.blocks = list(args["blocks"])
        message.streaming = False
        return {"channel": message.channel, "ts": message.ts, "message": message.wire()}

    def replies(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        _required(args, "ts")
        thread = self.ws.thread(channel, str(args["ts"]))
        if not thread:
            raise ApiError("thread_not_found")
        limit = int(args.get("limit") or 1000)
        return {"messages": [m.wire() for m in thread[:limit]], "has_more": len(thread) > limit}

    def history(self, args: dict[str, Any]) -> dict[str, Any]:
        """A conversation's top-level messages, newest first (``limit``, default 100)."""
        channel = self._channel(args)
        self._scope(HISTORY_SCOPES[self.ws.channels[channel]])
        top = [m for m in self.ws.messages[channel] if m.thread_ts in (None, m.ts)]
        limit = int(args.get("limit") or 100)
        newest = list(reversed(top))
        return {"messages": [m.wire() for m in newest[:limit]], "has_more": len(top) > limit}

    def users_info(self, args: dict[str, Any]) -> dict[str, Any]:
        self._scope("users:read")
        user = self.ws.users.get(str(args.get("user", "")))
        if user is None:
            raise ApiError("user_not_found")
        include_locale = str(args.get("include_locale", "")).lower() in ("1", "true")
        return {"user": user.wire(include_locale=include_locale)}

    def get_permalink(self, args: dict[str, Any]) -> dict[str, Any]:
        """A message's permalink (chat.getPermalink), a reply's naming its thread, as the
        method's reference shows them."""
        channel = self._channel(args)
        message = self.ws.find(channel, str(args.get("message_ts", "")))
        if message is None:
            raise ApiError("message_not_found")
        link = f"https://sim.slack.com/archives/{channel}/p{message.ts.replace('.', '')}"
        if message.thread_ts not in (None, message.ts):
            link += f"?thread_ts={message.thread_ts}&cid={channel}"
        return {"channel": channel, "permalink": link}

    def reactions_add(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(args)
        message = self.ws.find(channel, str(args.get("timestamp", "")))
        if message is None:
            raise ApiError("message_not_found")
        name = str(args.get("name", ""))
        if name in message.reactions:
            raise ApiError("already_reacted")
        message.reactions.append(name)
        return {}


def _stream_text(args: Mapping[str, Any]) -> Any:
    """A stream call's text: ``markdown_text`` and any ``markdown_text`` chunks (slack_sdk's
    ``chat_stream`` sends its buffer as chunks)."""
    text = args.get("markdown_text", "")
    chunks = [
        str(c.get("text", ""))
        for c in args.get("chunks") or []
        if isinstance(c, dict) and c.get("type") == "markdown_text"
    ]
    return (text or "") + "".join(chunks) if chunks and isinstance(text, str | None) else text


def _apply(message: Message, args: Mapping[str, Any]) -> None:
    """Content fields replace what was shown; markdown_text and text/blocks exclude each other."""
    for key in ("unfurl_links", "unfurl_media", "link_names", "parse"):
        if key in args:
            message.flags[key] = args[key]
    if args.get("markdown_text") is not None:
        message.markdown_text = str(args["markdown_text"])
        message.text = None
        message.blocks = None
        return
    if "text" in args or "blocks" in args:
        message.markdown_text = None
    if "text" in args:
        message.text = str(args["text"])
    if "blocks" in args:
        message.blocks = list(args["blocks"] or [])
