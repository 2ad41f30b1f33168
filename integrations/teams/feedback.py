"""👍/👎 through Teams' own feedback loop: the answer's final message carries
``channelData.feedbackLoop`` (:mod:`.presenter`), Teams shows 👍/👎 under it and, on either,
its feedback form; what the person sends reaches the bot as a ``message/submitAction`` invoke
naming the message (``replyToId``), the reaction (``like``, ``dislike``) and what they wrote
(``feedback``: JSON holding ``feedbackText``), which the invoke's empty answer acknowledges
(learn.microsoft.com/microsoftteams/platform/bots/how-to/bot-messages-ai-generated-content).

The vote is the person's own, kept once per person on the answer's key through the kit
(:meth:`~bot.adapter.Kit.vote`, which keeps only the values citebot offers); the 👎's words are
its comment, as why it was bad (Teams' form asks it there: a free text, so no reason from
citebot's list is picked for the person). What a form sends is read within bounds: a
comment is at most :data:`COMMENT` characters of JSON's ``feedbackText``, anything else is no
comment.
"""

from __future__ import annotations

import json
import logging

from microsoft_teams.api.activities import MessageSubmitActionInvokeActivity

from bot.adapter import Admitted, Kit
from integrations.teams.place import answer_key, arrival, conversation_of

__all__ = ["COMMENT", "VOTES", "Feedback"]

log = logging.getLogger(__name__)

VOTES = {"like": "up", "dislike": "down"}
"""Teams' reactions, as citebot's votes."""
COMMENT = 2000
"""Characters of a form's text read as a 👎's comment (the answer log keeps fewer)."""
_FORM = 16 * 1024
"""Characters of a form's JSON read at all."""


def comment_of(feedback: str) -> str | None:
    """``feedbackText`` of Teams' form, if it is one."""
    if len(feedback) > _FORM:
        return None
    try:
        form = json.loads(feedback)
    except ValueError:
        return None
    text = form.get("feedbackText") if isinstance(form, dict) else None
    return text.strip()[:COMMENT] or None if isinstance(text, str) else None


class Feedback:
    def __init__(self, *, kit: Kit) -> None:
        self._kit = kit

    async def submitted(self, activity: MessageSubmitActionInvokeActivity) -> None:
        """A 👍 or 👎 sent from Teams' form: kept as the vote of whoever sent it."""
        where = conversation_of(activity)
        message = activity.reply_to_id
        chosen = activity.value.action_value
        if not message:
            return

        async def act(admitted: Admitted) -> None:
            await self._kit.vote(
                answer_key=answer_key(where, message),
                user_id=activity.from_.id,
                value=VOTES.get(chosen.reaction, chosen.reaction),
                comment=comment_of(chosen.feedback),
            )

        await self._kit.take(arrival(activity), act)
