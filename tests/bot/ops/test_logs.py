"""The worker's JSON log lines, as an operator's log platform reads them."""

from __future__ import annotations

import io
import json
import logging

from bot.admission import Admission
from bot.ops.logs import JsonFormatter
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient


async def test_a_feedback_vote_is_one_line_with_its_data() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("citebot.answers")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        async with (
            open_state("memory://") as state,
            AnswerClient(base_url="http://127.0.0.1:9", api_key=None, model="m") as client,
        ):
            service = AnswerService(
                client=client, state=state, admission=Admission(max_in_flight=1)
            )
            await service.records.vote(
                platform="slack", answer_key="slack:C1:1.2", user_id="U1", value="up"
            )
            await service.records.vote(
                platform="slack", answer_key="slack:C1:1.2", user_id="U1", value="up"
            )
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    first, again = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "feedback"
    assert {k: first[k] for k in ("platform", "answer", "user", "value", "changed")} == {
        "platform": "slack",
        "answer": "slack:C1:1.2",
        "user": "U1",
        "value": "up",
        "changed": True,
    }
    assert again["changed"] is False  # the same vote again changes nothing


def test_any_record_s_feedback_fields_join_its_line() -> None:
    record = logging.LogRecord("citebot", logging.INFO, __file__, 1, "feedback", None, None)
    record.feedback = {"platform": "discord", "value": "down"}
    line = json.loads(JsonFormatter().format(record))
    assert (line["platform"], line["value"]) == ("discord", "down")
