"""``citebot answers``: the operators' view of a place's own answers, on the workers' store.

``list PLACE`` prints the own answers kept in a place (a channel's are its own: its server's
are listed under the server), ``add PLACE QUESTION ANSWER`` keeps one (the same question again
replaces its answer) and prints its ID, ``remove PLACE ID`` removes one. Like ``citebot
settings`` (:mod:`bot.places.cli`), whose store, output and errors it shares: a bad place,
question, answer or ID is one line naming it, exit 2, and nothing changes; every worker answers
with a change within about a second. Answers added here are set by ``operator``, in the place's
language.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from bot.places.cli import OPERATOR, Output, with_places
from bot.places.own import new_own_answer
from bot.places.place import PlaceForms
from bot.places.resolver import Places
from bot.render.text import clip
from config import Settings

__all__ = ["answers_command", "describe"]

_SHOWN = 60
"""Characters of an answer a listing shows (``citebot settings export`` has them whole)."""


def describe(parser: argparse.ArgumentParser, forms: PlaceForms) -> None:
    """The ``answers`` subcommand's arguments, on the parser ``bot.__main__`` made for it
    (``forms``: how the registered platforms write a place)."""
    actions = parser.add_subparsers(dest="answers_action", required=True, metavar="ACTION")
    place_help = forms.help()
    listing = actions.add_parser("list", help="a place's own answers")
    listing.add_argument("place", metavar="PLACE", help=place_help)
    add = actions.add_parser("add", help="keep a question the place answers itself")
    add.add_argument("place", metavar="PLACE", help=place_help)
    add.add_argument("question", metavar="QUESTION", help="the question, as people ask it")
    add.add_argument("answer", metavar="ANSWER", help="its answer (Markdown)")
    remove = actions.add_parser("remove", help="remove one of a place's own answers")
    remove.add_argument("place", metavar="PLACE", help=place_help)
    remove.add_argument("id", metavar="ID", help="as list shows it")


async def answers_command(settings: Settings, args: argparse.Namespace, forms: PlaceForms) -> int:
    """Run ``citebot answers ACTION``, its places written in one of ``forms``; the exit
    status."""
    return await with_places(
        settings,
        lambda places, output: _ACTIONS[args.answers_action](places, args, output, forms),
    )


async def _list(places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms) -> int:
    kept = await places.own_answers(forms.parse(args.place))
    labels = output.wording.own_answer_labels
    if not kept:
        output.say(labels.none_yet)
    rows = [
        [
            own.id,
            own.question,
            clip(" ".join(own.answer.split()), _SHOWN),
            own.name,
            datetime.fromtimestamp(own.at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        ]
        for own in kept
    ]
    output.rows([labels.id, labels.question, labels.answer, labels.set_by, labels.when], rows)
    return 0


async def _add(places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms) -> int:
    place = forms.parse(args.place)
    language = (await places.of(place)).language
    own = new_own_answer(args.question, args.answer, by=OPERATOR, name=OPERATOR, language=language)
    kept = await places.add_own_answer(place, own, by=OPERATOR)
    print(kept.id, file=output.stream)
    output.say(output.wording.own_answer_saved(kept.id))
    return 0


async def _remove(
    places: Places, args: argparse.Namespace, output: Output, forms: PlaceForms
) -> int:
    gone = await places.remove_own_answer(forms.parse(args.place), args.id, by=OPERATOR)
    output.say(output.wording.own_answer_removed(gone.id))
    return 0


_Action = Callable[[Places, argparse.Namespace, Output, PlaceForms], Awaitable[int]]
_ACTIONS: dict[str, _Action] = {
    "list": _list,
    "add": _add,
    "remove": _remove,
}
