"""What only Slack's own pages say (its App Home, its /invite): sentences that name a channel in
Slack's words and mean nothing on another platform, so they live with Slack and are extracted
for Slack alone (:meth:`~bot.i18n.wording.Wording.here_on`)."""

from __future__ import annotations

from bot.i18n.wording import Wording

__all__ = ["add_me_first", "how_to_ask", "look_at_a_channel", "this_channel"]


def this_channel(words: Wording, channel: str) -> str:
    """Heads a channel's settings; ``channel`` is how Slack links it."""
    return words.here_on("slack", "This channel: {name}").format(name=channel)


def look_at_a_channel(words: Wording) -> str:
    """Where the settings page knows of no channel (the person looks at none)."""
    return words.here_on(
        "slack",
        "To see a channel's settings here, open this tab while you are in the channel, or "
        "type /citebot in it.",
    )


def how_to_ask(words: Wording) -> str:
    """What the settings page shows whoever may not change the settings."""
    return words.here_on(
        "slack",
        "Mention citebot in a channel, write to it here in Messages, or use its shortcut "
        "on any message to check it against the sources.",
    )


def add_me_first(words: Wording) -> str:
    """citebot was asked somewhere it cannot post (not a member)."""
    return words.here_on(
        "slack",
        "citebot cannot post here: add it to this channel first (/invite), then try again.",
    )
