"""A Telegram Bot API on loopback, for the real aiogram client and the tests.

Start it with ``async with TelegramSim() as tg`` and point aiogram at it::

    session = AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url))
    bot = Bot(tg.token, session=session)

People act through :class:`tests.sim.telegram.people.People` (``tg.user_says``, ``tg.click``,
``tg.add_bot_to``); what they see is read with ``tg.chat_messages``, ``tg.drafts_in``,
``tg.typing_in``. Every request is checked (:mod:`tests.sim.telegram.server`); ``tg.violations``
lists what Telegram would have refused or what broke ``api.json``, and ``tg.assert_valid()``
fails a test that sent any.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.sim.telegram.chats import CHAT_HANDLERS
from tests.sim.telegram.methods import MESSAGE_HANDLERS
from tests.sim.telegram.model import SimCallback, SimChat, SimDraft, SimMessage, SimUser
from tests.sim.telegram.people import People
from tests.sim.telegram.ratelimit import Pace, RateLimits
from tests.sim.telegram.server import Handler, serve
from tests.sim.telegram.updates import Updates
from tests.sim.telegram.wire import (
    ApiError,
    Injected,
    RecordedRequest,
    Violation,
    too_many_requests,
)

__all__ = ["TelegramSim"]


class TelegramSim(People):
    """One bot (``@citebot``) and the people, chats and messages around it.

    ``rate_limits`` turns Telegram's message pace on (off by default, for speed);
    ``privacy_mode`` is the bot's BotFather setting, fixed per group when the bot joins it;
    ``callback_ttl``, ``draft_ttl`` and ``webhook_retry`` are in seconds of the simulator's clock,
    which :meth:`advance` moves on without waiting.
    """

    def __init__(
        self,
        *,
        token: str = "123456789:AAHsimulatedTelegramBotTokenForTests0",
        username: str = "citebot",
        rate_limits: RateLimits | None = None,
        privacy_mode: bool = True,
        callback_ttl: float = 15.0,
        draft_ttl: float = 30.0,
        webhook_retry: float = 1.0,
    ) -> None:
        super().__init__()
        self.token = token
        self.bot = SimUser(
            id=int(token.split(":")[0]), first_name="citebot", username=username, is_bot=True
        )
        self.users: dict[int, SimUser] = {self.bot.id: self.bot}
        self.chats: dict[int, SimChat] = {}
        self.privacy_mode = privacy_mode
        self.pace = Pace(rate_limits) if rate_limits is not None else None
        self.callback_ttl = callback_ttl
        self.draft_ttl = draft_ttl
        self.webhook_retry = webhook_retry
        self.handlers: dict[str, Handler] = {**MESSAGE_HANDLERS, **CHAT_HANDLERS}
        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.injected: list[Injected] = []
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.callbacks: dict[str, SimCallback] = {}
        self.drafts: dict[tuple[int, int], SimDraft] = {}
        self.actions: list[tuple[SimChat, int | None, str, float]] = []
        self.blocked_by: set[int] = set()
        self.updates = Updates(self)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> TelegramSim:
        self._runner, self.port = await serve(self)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.updates.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        """The server's root, as ``TelegramAPIServer.from_base`` takes it (no ``/bot``)."""
        return f"http://127.0.0.1:{self.port}"

    # -- what the methods share --------------------------------------------------------------

    def find_chat(self, chat_id: object) -> SimChat | None:
        if isinstance(chat_id, int) and not isinstance(chat_id, bool):
            return self.chats.get(chat_id)
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            name = chat_id[1:].lower()
            return next(
                (
                    c
                    for c in self.chats.values()
                    if c.user and (c.user.username or "").lower() == name
                ),
                None,
            )
        return None

    def post(self, message: SimMessage) -> None:
        """A message the bot sent: it shows, and replaces the drafts it was streamed in."""
        chat = message.chat
        chat.messages.append(message)
        chat.last_bot_sender = self.bot.id
        now = chat.last_bot_post_at = self.now()
        for draft in self.drafts.values():
            same_place = draft.chat is chat and draft.thread_id == message.thread_id
            if same_place and draft.showing(now, self.draft_ttl):
                draft.finished_by = message
        self.touch()

    def edited(self, message: SimMessage, before: str) -> None:
        message.edits.append(before)
        message.edit_date = self.unix_time()
        self.touch()

    # -- injected failures and checks -------------------------------------------------------

    def rate_limit_next(self, method: str, retry_after: int, *, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` get 429 "Too Many Requests: retry after N"."""
        self.injected.append(Injected(method, too_many_requests(retry_after), count))

    def refuse_next(self, method: str, status: int, description: str, *, count: int = 1) -> None:
        """The next ``count`` calls of ``method`` get this Telegram error."""
        self.injected.append(Injected(method, ApiError(status, description), count))

    def take_violations(self) -> list[Violation]:
        """The violations so far, forgotten (for tests that send bad requests on purpose)."""
        taken, self.violations = self.violations, []
        return taken

    def assert_valid(self) -> None:
        assert not self.violations, "requests Telegram would refuse:\n" + "\n".join(
            f"  {v}" for v in self.violations
        )

    def requests_to(self, method: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == method]
