"""A personal chat's streamed answer, as Teams takes it: learn.microsoft.com/microsoftteams/
platform/bots/streaming-ux.

- Streaming is for one-on-one chats only, and Teams "supports only one concurrent streaming
  response per chat at a time". Elsewhere: ``403 ContentStreamNotAllowed`` "Content stream is
  not allowed" (a second stream in a chat gets the same; the page gives no wording for it).
- A stream starts with a ``typing`` activity carrying a ``streaminfo`` entity (``streamType``
  ``informative`` or ``streaming``, the default) and ``streamSequence`` 1, with text ("Start
  streaming activities should include text", 400); Teams answers ``201 {"id": streamId}``.
- Each later activity names the ``streamId``; ``streamSequence`` increases ("Subsequent numbers
  (except final) must be a monotonic increasing integer"); one that does not is dropped, ``202
  ContentStreamSequenceOrderPreConditionFailed``.
- An informative update is at most 1,000 characters. A streaming update's text holds all the
  earlier streamed text ("During streaming, the bot message must contain the previous
  streaming content", with a non-example that "returns error").
- At most one request a second ("The throttling limit is 1 request per second", quoted in
  microsoft/teams.py#452, whose maintainers saw 429s for faster bursts): a faster one is
  ``429`` "API calls quota exceeded".
- Attachments, the AI label and the feedback loop go on the final message only.
- The stream ends with a ``message`` activity, ``streamType`` ``final``, no
  ``streamSequence``; within two minutes of its start, or Teams ends it ("Content stream
  finished due to exceeded streaming time", 403); after its end nothing more streams into it
  ("Content stream is not allowed on an already completed streamed message", 403).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.sim.teams.model import SimConversation, SimStream
from tests.sim.teams.rules import Refused

if TYPE_CHECKING:
    from tests.sim.teams.sim import TeamsSim

__all__ = ["stream_info", "take_stream_activity"]

NOT_ALLOWED = "ContentStreamNotAllowed"


def stream_info(body: dict[str, Any]) -> dict[str, Any] | None:
    """The activity's ``streaminfo`` entity, if it is part of a stream."""
    for entity in body.get("entities") or []:
        if isinstance(entity, dict) and str(entity.get("type", "")).lower() == "streaminfo":
            return entity
    return None


def take_stream_activity(
    sim: TeamsSim, conversation: SimConversation, body: dict[str, Any], info: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """One activity of a stream: the status and body Teams answers; raises :class:`Refused`
    for what it refuses."""
    if conversation.kind != "personal":
        raise Refused(403, NOT_ALLOWED, "Content stream is not allowed")
    now = sim.now()
    kind = info.get("streamType") or "streaming"
    stream_id = info.get("streamId")
    final = body.get("type") == "message"
    if final and kind != "final":
        raise Refused(400, "BadRequest", "a stream's message must be streamType final")
    if not final and kind not in ("informative", "streaming"):
        raise Refused(400, "BadRequest", f"streamType {kind!r} on a typing activity")
    if not str(body.get("text") or "").strip():
        raise Refused(400, "BadRequest", "Start streaming activities should include text")
    if stream_id is None:
        return _start(sim, conversation, body, info, kind, now)
    stream = sim.streams.get(str(stream_id))
    if stream is None or stream.conversation is not conversation:
        raise Refused(400, "BadRequest", f"unknown streamId {stream_id!r}")
    if stream.ended:
        raise Refused(
            403,
            NOT_ALLOWED,
            "Content stream is not allowed on an already completed streamed message",
        )
    if now - stream.started_at > sim.stream_seconds:
        stream.ended = "timeout"
        raise Refused(403, NOT_ALLOWED, "Content stream finished due to exceeded streaming time.")
    if final:
        return _finish(sim, stream, body, info)
    sequence = info.get("streamSequence")
    if not isinstance(sequence, int) or sequence <= stream.sequence:
        return 202, {"error": {"code": "ContentStreamSequenceOrderPreConditionFailed"}}
    _paced(sim, stream, now)
    _update(stream, body, kind)
    stream.sequence = sequence
    stream.last_at = now
    return 202, {}


def _start(
    sim: TeamsSim,
    conversation: SimConversation,
    body: dict[str, Any],
    info: dict[str, Any],
    kind: str,
    now: float,
) -> tuple[int, dict[str, Any]]:
    if body.get("type") == "message":
        raise Refused(400, "BadRequest", "a final message names its streamId")
    if info.get("streamSequence") != 1:
        raise Refused(400, "BadRequest", "a stream starts at streamSequence 1")
    live = [
        s
        for s in sim.streams.values()
        if s.conversation is conversation and s.open and now - s.started_at <= sim.stream_seconds
    ]
    if live:
        raise Refused(403, NOT_ALLOWED, "Content stream is not allowed")
    _only_on_final(body)
    stream = SimStream(id=sim.new_id(), conversation=conversation, started_at=now, last_at=now)
    _update(stream, body, kind)
    sim.streams[stream.id] = stream
    return 201, {"id": stream.id}


def _finish(
    sim: TeamsSim, stream: SimStream, body: dict[str, Any], info: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    if "streamSequence" in info:
        raise Refused(400, "BadRequest", "the final message must not set streamSequence")
    stream.ended = "final"
    sim.show(stream.conversation, body, message_id=stream.id, stream=stream)
    return 202, {}


def _paced(sim: TeamsSim, stream: SimStream, now: float) -> None:
    if now - stream.last_at < sim.stream_interval:
        raise Refused(429, "Throttled", "API calls quota exceeded")


def _update(stream: SimStream, body: dict[str, Any], kind: str) -> None:
    _only_on_final(body)
    text = str(body.get("text") or "")
    if kind == "informative":
        if len(text) > 1000:
            raise Refused(400, "BadRequest", "informative messages are at most 1000 characters")
        stream.informative.append(text)
        return
    if stream.streamed and not text.startswith(stream.streamed[-1]):
        raise Refused(400, "BadRequest", "streaming content must contain the previous content")
    stream.streamed.append(text)


def _only_on_final(body: dict[str, Any]) -> None:
    data = body.get("channelData") or {}
    labelled = any("additionalType" in e for e in body.get("entities") or [] if isinstance(e, dict))
    if body.get("attachments") or labelled or "feedbackLoop" in data:
        raise Refused(
            400, "BadRequest", "attachments, AI label and feedback go on the final message"
        )
