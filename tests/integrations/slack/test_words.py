"""Slack's own pages say a channel as Slack's client does in the reader's language, and the
other platforms' readers the general word (where a Slack sentence would ever reach them)."""

from __future__ import annotations

from bot.i18n.wording import Wording
from integrations.slack.words import look_at_a_channel, this_channel


def test_slack_s_pages_name_a_channel_in_slack_s_words() -> None:
    assert this_channel(Wording("de", "slack"), "#fragen") == "Dieser Channel: #fragen"
    assert this_channel(Wording("de"), "#fragen") == "Dieser Kanal: #fragen"
    assert this_channel(Wording("de", "discord"), "#fragen") == "Dieser Kanal: #fragen"
    assert look_at_a_channel(Wording("fr", "slack")).startswith(
        "Pour voir ici les réglages d’un canal"
    )
