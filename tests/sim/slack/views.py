"""Views: the App Home tab (``views.publish``) and modals (``views.open``, ``views.update``),
checked as Slack checks them and kept as a person sees them.

Sources: the view object (https://docs.slack.dev/reference/views: ``type`` ``home`` or
``modal``; a modal's ``title`` plain text of at most 24 characters; at most 100 blocks; ``close``
and ``submit`` at most 24; ``submit`` required when an input block is in the view;
``private_metadata`` at most 3,000; ``callback_id`` at most 255), each method's page
(``views.open``: a ``trigger_id`` "expires after 3 seconds", ``expired_trigger_id``,
``invalid_trigger_id``; ``views.update``: ``view_id`` or ``external_id``, ``hash_conflict``,
``not_found``; ``views.publish``: ``user_id``, a ``home`` view; every one ``view_too_large``
past 250 kB), the block reference (a ``block_id`` unique in its view; an input block's ``label``
and ``hint`` at most 2,000) and the elements' pages (a select's ``options`` at most 100, radio
buttons' at most 10, an option's ``text`` at most 75 and ``value`` at most 150, a select's
``initial_option`` one of its options; a plain-text input's ``max_length`` at most 3,000 and its
``initial_value`` within it; a ``placeholder`` at most 150). Every block is also parsed and
validated by slack_sdk's models, as messages' are (:mod:`tests.sim.slack.limits`).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.views import View as SdkView

from tests.sim.slack.limits import Refusal, block_problem

__all__ = ["StoredView", "Triggers", "Views", "check_view"]

VIEW_BLOCKS_MAX = 100
VIEW_BYTES_MAX = 250_000
LABEL_MAX = 2000
OPTIONS_MAX = {"static_select": 100, "radio_buttons": 10, "checkboxes": 10, "overflow": 5}
OPTION_TEXT_MAX = 75
OPTION_VALUE_MAX = 150
PLACEHOLDER_MAX = 150
INPUT_MAX = 3000
TRIGGER_SECONDS = 3.0
INPUT_ELEMENTS = frozenset(
    {"plain_text_input", "static_select", "radio_buttons", "checkboxes", "number_input"}
)


def _option(option: object, where: str) -> str | None:
    if not isinstance(option, Mapping):
        return f"{where} must be an option object"
    text = option.get("text")
    if not isinstance(text, Mapping) or not str(text.get("text") or ""):
        return f"{where}/text must be a non-empty text object"
    if len(str(text["text"])) > OPTION_TEXT_MAX:
        return f"{where}/text must be less than {OPTION_TEXT_MAX + 1} characters"
    value = option.get("value")
    if not isinstance(value, str) or not value or len(value) > OPTION_VALUE_MAX:
        return f"{where}/value must be a string of 1 to {OPTION_VALUE_MAX} characters"
    return None


def element_problem(element: Mapping[str, Any], where: str) -> str | None:
    """What the documented limits refuse in one interactive element."""
    kind = element.get("type")
    placeholder = element.get("placeholder")
    if isinstance(placeholder, Mapping) and len(str(placeholder.get("text", ""))) > PLACEHOLDER_MAX:
        return f"{where}/placeholder must be less than {PLACEHOLDER_MAX + 1} characters"
    if kind in OPTIONS_MAX:
        options = element.get("options")
        if not isinstance(options, list) or not options:
            return f"{where}/options must be a non-empty array"
        if len(options) > OPTIONS_MAX[str(kind)]:
            return f"{where}/options must provide no more than {OPTIONS_MAX[str(kind)]} items"
        for i, option in enumerate(options):
            if problem := _option(option, f"{where}/options/{i}"):
                return problem
        values = [o["value"] for o in options]
        if len(set(values)) != len(values):
            return f"{where}/options must have unique values"
        initial = element.get("initial_option")
        if initial is not None and initial not in options:
            return f"{where}/initial_option must be one of the options"
    if kind == "plain_text_input":
        most = element.get("max_length", INPUT_MAX)
        if not isinstance(most, int) or not 1 <= most <= INPUT_MAX:
            return f"{where}/max_length must be from 1 to {INPUT_MAX}"
        if len(str(element.get("initial_value") or "")) > most:
            return f"{where}/initial_value must be at most max_length characters"
    return None


def _input(block: Mapping[str, Any], where: str) -> str | None:
    label, hint = block.get("label") or {}, block.get("hint") or {}
    if len(str(label.get("text", ""))) > LABEL_MAX or len(str(hint.get("text", ""))) > LABEL_MAX:
        return f"{where}: label and hint must be less than {LABEL_MAX + 1} characters"
    element = block.get("element")
    if not isinstance(element, Mapping) or element.get("type") not in INPUT_ELEMENTS:
        return f"{where}/element must be an input element"
    return element_problem(element, f"{where}/element")


def check_view(view: object, *, surface: str) -> Refusal | None:
    """``view`` as ``views.publish`` (``home``) or ``views.open``/``views.update``
    (``modal``) takes it; ``(error, detail)`` when Slack would refuse it."""
    if not isinstance(view, Mapping) or view.get("type") != surface:
        return ("invalid_arguments", f"view.type must be {surface!r}")
    if len(json.dumps(view)) > VIEW_BYTES_MAX:
        return ("view_too_large", "the view is greater than 250kb")
    try:
        SdkView(**dict(view)).validate_json()
    except (SlackObjectFormationError, TypeError, ValueError, AttributeError, KeyError) as error:
        return ("invalid_arguments", str(error))
    blocks = view.get("blocks")
    if not isinstance(blocks, list) or not 0 < len(blocks) <= VIEW_BLOCKS_MAX:
        return ("invalid_arguments", f"views hold 1 to {VIEW_BLOCKS_MAX} blocks")
    ids = [b.get("block_id") for b in blocks if isinstance(b, Mapping) and b.get("block_id")]
    if len(set(ids)) != len(ids):
        return ("invalid_arguments", "duplicate block_id in the view")
    inputs = False
    for i, block in enumerate(blocks):
        where = f"/view/blocks/{i}"
        problem = block_problem(block, where)
        if problem is None and isinstance(block, Mapping):
            accessory = block.get("accessory")
            if block.get("type") == "input":
                inputs = True
                problem = _input(block, where)
            elif isinstance(accessory, Mapping):
                problem = element_problem(accessory, f"{where}/accessory")
        if problem:
            return ("invalid_arguments", problem)
    if surface == "modal" and inputs and not view.get("submit"):
        return ("invalid_arguments", "a modal with an input block needs submit")
    return None


@dataclass
class StoredView:
    """A view as Slack keeps it: what was sent, with its id, hash and what a person chose."""

    id: str
    user: str
    body: dict[str, Any]
    hash: str
    state: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    """What the app answered a submission with (``response_action: errors``)."""

    def wire(self, *, team: str, app: str, bot: str) -> dict[str, Any]:
        """The view as Slack returns it and sends it with interactions."""
        return {
            "id": self.id,
            "team_id": team,
            "type": self.body["type"],
            "blocks": self.body.get("blocks", []),
            "private_metadata": self.body.get("private_metadata", ""),
            "callback_id": self.body.get("callback_id", ""),
            "state": {"values": self.state},
            "hash": self.hash,
            "title": self.body.get("title"),
            "close": self.body.get("close"),
            "submit": self.body.get("submit"),
            "clear_on_close": False,
            "notify_on_close": False,
            "root_view_id": self.id,
            "previous_view_id": None,
            "app_id": app,
            "external_id": self.body.get("external_id", ""),
            "app_installed_team_id": team,
            "bot_id": bot,
        }

    def elements(self) -> list[Mapping[str, Any]]:
        """Every interactive element of the view (selects, buttons, inputs)."""
        found: list[Mapping[str, Any]] = []
        for block in self.body.get("blocks", []):
            for element in [
                block.get("accessory"),
                block.get("element"),
                *block.get("elements", []),
            ]:
                if isinstance(element, Mapping) and "action_id" in element:
                    found.append(element)
        return found

    def texts(self) -> str:
        """Every string a person reads in the view, joined by newlines."""
        found: list[str] = []

        def walk(node: object) -> None:
            if isinstance(node, Mapping):
                if isinstance(node.get("text"), str):
                    found.append(node["text"])
                for key, value in node.items():
                    if key != "text" or not isinstance(value, str):
                        walk(value)
            elif isinstance(node, list):
                for item in node:
                    walk(item)

        walk(self.body.get("blocks", []))
        return "\n".join(found)


class Triggers:
    """The ``trigger_id`` of each interaction: one use, within 3 seconds, by its user."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._issued: dict[str, tuple[str, float]] = {}

    def issue(self, user: str) -> str:
        trigger = f"{uuid.uuid4().int % 10**12}.{uuid.uuid4().int % 10**12}.sim"
        self._issued[trigger] = (user, self._clock())
        return trigger

    def take(self, trigger: object) -> str | None:
        """The user the trigger was issued to; None when it is unknown, spent or expired."""
        issued = self._issued.pop(str(trigger), None)
        if issued is None or self._clock() - issued[1] > TRIGGER_SECONDS:
            return None
        return issued[0]

    def known(self, trigger: object) -> bool:
        return str(trigger) in self._issued


class Views:
    """Every view of the workspace: each user's Home tab and open modals, and the three methods
    that change them (``fail(error, detail)`` raises ``ok: false``; ``wire`` writes a view as
    Slack returns it)."""

    def __init__(
        self,
        *,
        triggers: Triggers,
        fail: Callable[..., NoReturn],
        wire: Callable[[StoredView], dict[str, Any]],
    ) -> None:
        self.triggers = triggers
        self._fail = fail
        self._wire = wire
        self.by_id: dict[str, StoredView] = {}
        self.home: dict[str, str] = {}
        self.modals: dict[str, list[str]] = {}
        self.closed: list[StoredView] = []

    def handlers(self) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        return {
            "views.publish": self.views_publish,
            "views.open": self.views_open,
            "views.update": self.views_update,
        }

    def _checked(self, args: Mapping[str, Any], surface: str) -> dict[str, Any]:
        view = args.get("view")
        if isinstance(view, str):
            try:
                view = json.loads(view)
            except ValueError:
                self._fail("invalid_arguments", "view must be a JSON object")
        refusal = check_view(view, surface=surface)
        if refusal is not None:
            self._fail(*refusal)
        assert isinstance(view, Mapping)  # check_view refuses anything else
        return dict(view)

    def views_publish(self, args: dict[str, Any]) -> dict[str, Any]:
        user = args.get("user_id")
        if not user:
            self._fail("invalid_arguments", "invalid `user_id`")
        view = self._checked(args, "home")
        current = self.home.get(str(user))
        if args.get("hash") and current and self.by_id[current].hash != args["hash"]:
            self._fail("hash_conflict")
        return {"view": self._wire(self.publish(str(user), view))}

    def views_open(self, args: dict[str, Any]) -> dict[str, Any]:
        trigger = args.get("trigger_id")
        if not trigger or not self.triggers.known(trigger):
            self._fail("invalid_trigger_id")
        view = self._checked(args, "modal")
        user = self.triggers.take(trigger)
        if user is None:
            self._fail("expired_trigger_id")
        return {"view": self._wire(self.open(user, view))}

    def views_update(self, args: dict[str, Any]) -> dict[str, Any]:
        view_id = args.get("view_id")
        if not view_id and args.get("external_id"):
            external = args["external_id"]
            found = [v.id for v in self.by_id.values() if v.body.get("external_id") == external]
            view_id = found[0] if found else None
        if not view_id or view_id not in self.by_id:
            self._fail("not_found")
        old = self.by_id[str(view_id)]
        view = self._checked(args, str(old.body["type"]))
        if args.get("hash") and old.hash != args["hash"]:
            self._fail("hash_conflict")
        return {"view": self._wire(self.update(str(view_id), view))}

    def _store(self, user: str, body: Mapping[str, Any], view_id: str | None = None) -> StoredView:
        """Kept as Slack keeps it: every block with a ``block_id`` (Slack makes one up for a
        block sent without), a new hash."""
        blocks = [{"block_id": uuid.uuid4().hex[:5], **block} for block in body.get("blocks", [])]
        view = StoredView(
            id=view_id or f"V{uuid.uuid4().hex[:10].upper()}",
            user=user,
            body={**body, "blocks": blocks},
            hash=f"{time.time():.6f}.{uuid.uuid4().hex[:8]}",
        )
        self.by_id[view.id] = view
        return view

    def publish(self, user: str, body: Mapping[str, Any]) -> StoredView:
        view = self._store(user, body, self.home.get(user))
        self.home[user] = view.id
        return view

    def open(self, user: str, body: Mapping[str, Any]) -> StoredView:
        view = self._store(user, body)
        self.modals.setdefault(user, []).append(view.id)
        return view

    def update(self, view_id: str, body: Mapping[str, Any]) -> StoredView:
        old = self.by_id[view_id]
        return self._store(old.user, body, view_id)

    def close(self, view_id: str) -> None:
        view = self.by_id[view_id]
        stack = self.modals.get(view.user, [])
        if view_id in stack:
            stack.remove(view_id)
            self.closed.append(view)
