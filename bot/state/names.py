"""The names of the counters kept about a person or a place, written once: the service and
``bot.places`` count under them, and every backend finds them again to forget a person or a
place. A place is written as ``bot.places`` writes it (``discord:GUILD`` or
``discord:GUILD/CHANNEL``); ids never hold a colon."""

from __future__ import annotations

__all__ = [
    "belongs_to_person",
    "belongs_to_place",
    "counted_person",
    "person_questions",
    "place_cost",
    "place_questions",
    "place_tokens",
    "platform_of",
    "rate_window",
]


def rate_window(platform: str, person: str) -> str:
    """The per-minute window of one person's questions."""
    return f"rate:{platform}:{person}"


def place_questions(place: str) -> str:
    """Today's questions in the place that set ``daily_questions``."""
    return f"questions:{place}"


def person_questions(place: str, person: str) -> str:
    """Today's questions of one person in the place that set ``daily_questions_per_person``."""
    return f"questions-by:{place}:{person}"


def place_tokens(place: str) -> str:
    """Today's upstream tokens in the place that counts them (``daily_tokens``)."""
    return f"tokens:{place}"


def place_cost(place: str) -> str:
    """Today's cost in the place that counts it (``daily_cost``), in millionths of a dollar."""
    return f"cost:{place}"


def belongs_to_person(counter: str, platform: str, person: str) -> bool:
    """Whether a daily counter or rate window counts ``person``'s questions."""
    return counter == rate_window(platform, person) or counted_person(counter) == (
        platform,
        person,
    )


def counted_person(counter: str) -> tuple[str, str] | None:
    """The platform and the person whose questions a daily counter counts (one of
    :func:`person_questions`), None for a place's: each backend keeps a person's counters with
    the rest of what is theirs, so that forget-me finds them without looking at anyone else's."""
    kind, _, rest = counter.partition(":")
    place, _, person = rest.rpartition(":")
    if kind != "questions-by" or not place or not person:
        return None
    return platform_of(place), person


def platform_of(place: str) -> str:
    """The platform a place is on (``discord`` of ``discord:1/2``)."""
    return place.partition(":")[0]


def belongs_to_place(counter: str, platform: str, server: str) -> bool:
    """Whether a daily counter counts in ``server`` or one of its channels."""
    kind, _, rest = counter.partition(":")
    if kind not in ("questions", "questions-by", "tokens", "cost"):
        return False
    here = f"{platform}:{server}"
    return rest == here or rest.startswith((f"{here}/", f"{here}:"))
