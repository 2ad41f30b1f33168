"""The OpenAI-compatible request the demo accepts and the Magisterium-shaped bodies it sends.

Requests are validated with pydantic but stay permissive like the real API: unknown fields are
ignored and content may be a string or a list of text parts. Replies follow seed 002: text in
``chat.completion.chunk`` deltas, ``citations`` (and ``related_questions``) only on the final
chunk, the one with ``finish_reason``.
"""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.demo.answerer import Answer

__all__ = [
    "MODEL",
    "ChatRequest",
    "Envelope",
    "RequestError",
    "completion",
    "error_body",
    "final_chunk",
    "new_envelope",
    "opening_chunk",
    "parse_request",
    "text_chunk",
    "token_pieces",
]

MODEL = "magisterium-1"

# Word pieces of up to six characters, punctuation in pairs, whitespace kept with what follows:
# close enough to a real tokenizer that a ``[^12]`` marker often spans several deltas.
_PIECE = re.compile(r"\s*(?:\w{1,6}|[^\w\s]{1,2})|\s+")


class RequestError(ValueError):
    """The request cannot be answered; ``str()`` is the message sent back with the 400."""


class _TextPart(BaseModel):
    model_config = ConfigDict(extra="ignore")
    type: str = "text"
    text: str | None = None


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore")
    role: str
    content: str | list[_TextPart] | None = None

    @property
    def text(self) -> str:
        if isinstance(self.content, list):
            return "\n".join(part.text for part in self.content if part.text)
        return self.content or ""


class ChatRequest(BaseModel):
    """The fields of a chat-completions request the demo reads."""

    model_config = ConfigDict(extra="ignore")
    model: str = MODEL
    messages: list[_Message] = Field(min_length=1)
    stream: bool = False
    return_related_questions: bool = False

    @property
    def user_turns(self) -> list[str]:
        return [m.text for m in self.messages if m.role == "user" and m.text.strip()]

    @property
    def prompt_tokens(self) -> int:
        return sum(len(token_pieces(m.text)) for m in self.messages)


def parse_request(body: object) -> ChatRequest:
    """Validate a decoded JSON body, raising :class:`RequestError` with one readable line."""
    if not isinstance(body, dict):
        raise RequestError("The request body must be a JSON object.")
    try:
        request = ChatRequest.model_validate(body)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise RequestError(f"Invalid request: {where}: {first['msg']}.") from None
    if not request.user_turns:
        raise RequestError("Invalid request: messages must include a user message with text.")
    return request


def error_body(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    """The OpenAI error shape, which the client reads as ``error.message``."""
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def token_pieces(text: str) -> list[str]:
    """Split text into token-like pieces that join back to exactly ``text``."""
    return _PIECE.findall(text)


class Envelope:
    """The id, timestamp and model every chunk of one reply shares."""

    def __init__(self, *, model: str) -> None:
        self.id = f"chatcmpl-demo-{uuid.uuid4().hex[:24]}"
        self.created = int(time.time())
        self.model = model

    def body(self, kind: str, choice: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": kind,
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, **choice}],
        }


def new_envelope(request: ChatRequest) -> Envelope:
    return Envelope(model=request.model)


def opening_chunk(envelope: Envelope) -> dict[str, Any]:
    return envelope.body(
        "chat.completion.chunk",
        {"delta": {"role": "assistant", "content": ""}, "finish_reason": None},
    )


def text_chunk(envelope: Envelope, text: str) -> dict[str, Any]:
    return envelope.body(
        "chat.completion.chunk", {"delta": {"content": text}, "finish_reason": None}
    )


def _extras(request: ChatRequest, answer: Answer, completion_tokens: int) -> dict[str, Any]:
    extras: dict[str, Any] = {"citations": list(answer.citations)}
    if request.return_related_questions:
        extras["related_questions"] = list(answer.related_questions)
    prompt = request.prompt_tokens
    extras["usage"] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt + completion_tokens,
    }
    return extras


def final_chunk(
    envelope: Envelope, request: ChatRequest, answer: Answer, *, completion_tokens: int
) -> dict[str, Any]:
    body = envelope.body("chat.completion.chunk", {"delta": {}, "finish_reason": "stop"})
    return body | _extras(request, answer, completion_tokens)


def completion(request: ChatRequest, answer: Answer) -> dict[str, Any]:
    """The whole reply as one ``chat.completion`` object (``stream: false``)."""
    body = new_envelope(request).body(
        "chat.completion",
        {"message": {"role": "assistant", "content": answer.text}, "finish_reason": "stop"},
    )
    return body | _extras(request, answer, len(token_pieces(answer.text)))
