"""What a platform's clients share with the other workers, as the platform kit offers it: the
worker's one HTTP way in, the platform's write budget, what was looked up about a person, and
the resources one worker at a time may run. Each is the core's (Redis and its failures are
named there, never in a platform); a platform only says its limits, routes and names.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from bot.budgets import Limit, WriteBudget
from bot.ingress import Ingress, Route
from bot.lookups import Kept, KeptInStore
from bot.service import AnswerService
from bot.shares import FairShare, Times
from bot.state.coordination import scope_of

__all__ = ["KitShared"]


class _Host(Protocol):
    """What the kit this mixes into has."""

    @property
    def name(self) -> str: ...

    @property
    def _service(self) -> AnswerService: ...

    @property
    def _ingress(self) -> Ingress: ...

    @property
    def accepting(self) -> bool: ...


class KitShared:
    """The platform kit's members for what the workers share (see the module)."""

    def serve_http(
        self: _Host, port: int, routes: Sequence[Route]
    ) -> contextlib.AbstractAsyncContextManager[int]:
        """Serve ``routes`` on ``port`` on the worker's one HTTP way in while inside (a
        webhook); yields the port bound. Where another route of the worker shares the port
        and path, ValueError names it."""
        return self._ingress.serving(port, routes)

    def write_budget(
        self: _Host,
        limits: Mapping[str, Limit],
        *,
        token: str,
        margin: float = 0.25,
        time_scale: float = 1.0,
    ) -> WriteBudget:
        """The platform's limits for the bot ``token`` reaches, kept together by every worker
        on the ``STATE_URL``'s Redis (alone without one); enter it while the client is open."""
        return WriteBudget(
            limits,
            scope=f"{self.name}:{scope_of(token)}",
            margin=margin,
            time_scale=time_scale,
            coordination=self._service.coordination,
        )

    def kept(self: _Host, what: str) -> Kept:
        """Where the workers keep ``what`` they looked up about a person (a Slack user's
        locale, :class:`~bot.lookups.Lookup`): the state store, as that person's."""
        return KeptInStore(self._service.state, platform=self.name, what=what)

    def fair_share(
        self: _Host,
        *,
        token: str,
        what: str,
        count: int = 1,
        pinned: Iterable[int] = (),
        times: Times | None = None,
    ) -> FairShare:
        """``count`` resources of the bot ``token`` reaches that one worker at a time may run
        (Discord's shards, Telegram's update reader), shared out among the workers on the
        ``STATE_URL``'s Redis (all of them here without one); handed over on shutdown."""
        return FairShare(
            coordination=self._service.coordination,
            group=f"{self.name}:{scope_of(token)}",
            count=count,
            pinned=pinned,
            accepting=lambda: self.accepting,
            times=times,
            what=what,
        )
