"""What the conformance suite asks of one platform (:class:`Conformance`, :class:`Wire`,
:class:`Inbound`), every registered platform's answer to it (one module each in
``platforms/``), and the answers each platform is run on."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

import pytest

from bot.answer import AnswerSink
from bot.platforms import platform_names
from bot.render.ports import Payload, Presenter
from tests.integrations.formatter.cases import CASES, Case, source
from tests.sim.upstream import UpstreamSim

__all__ = [
    "ANSWERS",
    "Conformance",
    "Inbound",
    "Reply",
    "Where",
    "Wire",
    "crowded",
    "registered",
]


class Wire(Protocol):
    """One answer's place on the platform's simulator, and its sink writing there."""

    @property
    def sink(self) -> AnswerSink: ...

    def seen(self) -> list[str]:
        """Every message of the answer and its thread as a person reads it, in order."""
        ...

    def pings(self) -> list[str]:
        """Every mention in them that notified someone."""
        ...

    def refusals(self) -> int:
        """How many writes the platform refused."""
        ...

    def spoiled(self, payload: Payload, card: int) -> Payload:
        """The thread message ``payload`` with its card ``card`` made one the platform refuses,
        as a check citebot lacks would let through."""
        ...


Where = Literal["allowed", "outside", "off"]
"""A place the platform's allowlist names (``allowed``), one it leaves out (``outside``), and
one it names whose admins switched citebot off (``off``: ``enabled`` off)."""


@dataclass(frozen=True, kw_only=True)
class Reply:
    """What a person who asked reads back once citebot is done with their question."""

    said: list[str]
    """Every message citebot wrote in reply (the answer's, or a refusal), as read, in order;
    the cards apart."""
    answer: object
    """The platform's own handle on the answer (its message), for the votes under it."""


class Inbound(Protocol):
    """A platform's worker on its simulator, as people use it: the real client library, the
    adapter's ways in, the kit's steps."""

    @property
    def upstream(self) -> UpstreamSim: ...

    async def ask(self, text: str, *, where: Where = "allowed", twice: bool = False) -> Reply:
        """A person asks ``text`` the platform's way (a mention, ``/ask``) where ``where``
        says; ``twice``: the platform delivers it twice (a retry, another worker's copy)."""
        ...

    async def vote(self, reply: Reply, value: Literal["up", "down"], *, asker: bool) -> None:
        """A 👍 or 👎 pressed under the answer, by the person who asked or by someone else,
        until kept."""
        ...

    async def votes(self, reply: Reply) -> dict[str, str]:
        """The votes kept on the answer, by who pressed: ``asker`` or ``someone else``."""
        ...


@dataclass(frozen=True, kw_only=True)
class Conformance:
    """One platform as the suite sees it."""

    name: str
    """As registered (the ``citebot.platforms`` entry point)."""
    presenter: Presenter
    problems: Callable[[Payload], list[str]]
    """What the platform would refuse in a payload (its limits.py, its official spec) or what
    breaks a promise of citebot's (a mention left live, a link that is not http or https)."""
    footnotes: Callable[[Sequence[Payload]], list[tuple[int, str | None]]]
    """Every footnote the answer messages show, with the URL it links to (None: a plain
    number)."""
    cards: Callable[[Sequence[Payload]], dict[int, str | None]]
    """Every footnote number the thread's cards show, with the URL its card links to."""
    wire: Callable[[pytest.MonkeyPatch], AbstractAsyncContextManager[Wire]] | None
    """The platform's sink against its simulator, for one answer; None where nothing is sent
    anywhere (the terminal prints)."""
    inbound: Callable[[pytest.MonkeyPatch, Path], AbstractAsyncContextManager[Inbound]] | None = (
        None
    )
    """The platform's worker on its simulator (``tmp_path`` for its store); None for a
    platform the worker does not run (the terminal): ``test_inbound`` requires one of every
    other."""


def registered() -> list[Conformance]:
    """Every registered platform's :class:`Conformance` (``platforms/<name>.py``'s
    ``PLATFORM``); a platform without its module fails the suite."""
    return [
        importlib.import_module(f"tests.integrations.conformance.platforms.{name}").PLATFORM
        for name in platform_names()
    ]


def crowded() -> Case:
    """An answer pressing on every limit: 25 cited sources (three passages of one document
    among them), titles, headings, authors, references and quotes past any field's room,
    mention words in each, five sources consulted but never cited, seven long related
    questions."""
    long = "Grace builds on nature, @everyone <@1> <!here>, and perfects it. " * 60
    cited = [
        source(
            index,
            cited_text=f"Passage {index + 1}. {long}",
            cited_text_heading=f"Heading @here {index + 1} " * 20,
            document_title=f"Document {index + 1} <@&9> " * 30,
            document_author="<!channel> Author " * 30,
            document_reference=f"Ref {index + 1} " * 100,
            source_url=f"https://www.vatican.va/{'ccc' if index < 3 else index}.html",
        )
        for index in range(25)
    ]
    consulted = [source(index, document_index=30 + index) for index in range(25, 30)]
    return Case(
        text=" ".join(f"Claim {n} @everyone holds.[^{n}]" for n in range(1, 26)),
        citations=[*cited, *consulted],
        related=tuple(f"Related question {n}, @here, {long[:100]}?" for n in range(7)),
    )


ANSWERS: dict[str, Case] = {**CASES, "crowded": crowded()}
