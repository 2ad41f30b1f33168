"""The registry of platforms: the ``citebot.platforms`` entry points of the installed
distributions, as pytest and Babel find their plugins.

The core reads this one list and never names a platform itself: a new platform is a package in
``integrations/`` whose ``platform.py`` holds one :class:`Platform`, and one line in
``pyproject.toml``'s ``[project.entry-points."citebot.platforms"]``. A descriptor imports
nothing heavy: its runner and presenter are imported when asked for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar

from bot.adapter import Runner
from bot.pacing import Pacer
from bot.places.place import PlaceForms, PlaceIds
from bot.preview import LiveSink, LiveWords
from bot.registry import GROUP, platform_names
from bot.render.ports import Payload, Presenter
from config.environment import PlatformSettings

__all__ = [
    "GROUP",
    "PlaceIds",
    "Platform",
    "load_platform",
    "load_platforms",
    "own_words_platforms",
    "place_forms",
    "platform_names",
]


S = TypeVar("S", bound=PlatformSettings)


@dataclass(frozen=True, slots=True, kw_only=True)
class Platform(Generic[S]):
    """What the core needs to know of one platform."""

    name: str
    """Its name in ``--platform``, in places (``discord:GUILD``), metrics and logs."""
    presenter: Callable[[], Presenter]
    """How it shows an answer (imported when called)."""
    environment: type[S] | None = None
    """Its own variables; None for a platform the worker does not run (the terminal)."""
    runner: Callable[[], Runner[S]] | None = None
    """Its worker (imported when called); None for the terminal."""
    pacer: Pacer = field(default_factory=lambda: Pacer(min_interval=1.0))
    """How often one answer's message may be written while it streams."""
    noisy_loggers: tuple[str, ...] = ()
    """Its libraries' loggers, quieted below WARNING in the worker's JSON log."""
    own_words: bool = False
    """Whether its client names threads and channels in words of its own, which the catalogues
    hold under its name (msgctxt; see :meth:`bot.i18n.wording.Wording._here`)."""
    direct_messages_fenced: bool = True
    """Whether a conversation with the bot alone must pass the allowlists like any channel.
    Slack's are inside a workspace, already a fence; a Discord or Telegram bot can be
    messaged by anyone."""
    disclaimer_apart: bool = False
    """Whether it shows a place's disclaimer itself, apart from the answer's text (Slack: a
    context block with the answer, as Slack's AI guidelines ask); the answer's text then does
    not close with it as a note."""
    place_ids: PlaceIds | None = None
    """Its places' ids, where its admins may change citebot's settings (None: none)."""
    sync_commands: Callable[[S], Awaitable[None]] | None = None
    """Registers its commands with the platform now (``citebot sync-commands``)."""
    manifest: Callable[[S], str] | None = None
    """What an admin pastes to set the app up on the platform (``citebot manifest NAME``):
    Slack's app manifest, Discord's invite URL and commands, Telegram's command list. Needs
    no token: read from the platform's variables as they are."""
    live: Callable[[LiveWords], tuple[LiveSink, Presenter]] | None = None
    """Shows an answer as it streams where ``citebot ask`` runs (the terminal), with the
    presenter that fits it; None: ``citebot ask`` prints the platform's payloads as JSON."""
    preview_url: Callable[[Sequence[Payload]], str] | None = None
    """A link to the platform's own preview of a thread's payloads (``--builder-url``)."""

    @property
    def runs(self) -> bool:
        """Whether the worker runs it (and its servers and channels are places)."""
        return self.runner is not None and self.environment is not None


@cache
def load_platform(name: str) -> Platform[Any]:
    """The descriptor registered as ``name``; KeyError when none is."""
    for point in entry_points(group=GROUP, name=name):
        platform = point.load()
        if not isinstance(platform, Platform) or platform.name != name:
            raise TypeError(f"{point.value} is not the Platform named {name!r}")
        return platform
    raise KeyError(name)


def load_platforms() -> dict[str, Platform[Any]]:
    """Every registered platform's descriptor, by name."""
    return {name: load_platform(name) for name in platform_names()}


def own_words_platforms() -> tuple[str, ...]:
    """The platforms whose clients name threads and channels in words of their own (a msgctxt
    of theirs in the catalogues)."""
    return tuple(name for name, platform in load_platforms().items() if platform.own_words)


def place_forms() -> PlaceForms:
    """How every platform the worker runs writes its places' ids (the terminal has no
    places): what ``citebot settings`` and ``citebot report`` read a PLACE with."""
    return PlaceForms(
        {
            name: platform.place_ids
            for name, platform in load_platforms().items()
            if platform.runs and platform.place_ids is not None
        }
    )
