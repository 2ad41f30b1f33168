"""A kit on the platform the core's tests register (``signal``: tests/bot/conftest.py), with a
platform-free presenter and no pacing."""

from __future__ import annotations

from bot.kit import PlatformKit
from bot.platforms import load_platform
from bot.service import AnswerService
from config import PlatformSettings, Settings, load_settings
from tests.bot.presenter import PlainPresenter
from tests.bot.test_service import NOW

__all__ = ["signal_kit"]


def signal_kit(service: AnswerService, settings: Settings | None = None) -> PlatformKit:
    """``service``'s kit for ``signal`` (registered first), the worker's ``settings`` those of
    an empty environment unless given."""
    return PlatformKit(
        service,
        load_platform("signal"),
        environment=PlatformSettings(),
        settings=settings or load_settings({}, env_file=None),
        presenter=PlainPresenter(),
        pacer=NOW,
    )
