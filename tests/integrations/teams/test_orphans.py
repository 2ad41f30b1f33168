"""An answer whose worker died, closed by another (the core's closer, Teams' hook): where the
dead worker's sink said the answer was, the asker reads that it was interrupted (they saw some
of it) or that citebot is restarting (they saw nothing), in the answer's thread."""

from __future__ import annotations

from bot.i18n.wording import Wording
from bot.inflight import Orphan
from bot.orphans import OrphanCloser
from integrations.teams.chatting import Chat
from integrations.teams.orphans import TeamsOrphans
from integrations.teams.place import Conversation
from integrations.teams.presenter import TeamsPresenter
from integrations.teams.sink import TeamsSink, unpaced
from integrations.teams.wire import TeamsWire
from tests.integrations.teams.conftest import Endpoint
from tests.sim.teams import TeamsSim

EN = Wording("en", "teams")


def closer(wire: TeamsWire) -> OrphanCloser:
    hook = TeamsOrphans(Chat(wire=wire, pace=unpaced))
    return OrphanCloser(hook, presenter=TeamsPresenter(), wording_for=lambda _: EN)


async def test_a_channel_answer_that_showed_nothing_says_citebot_restarts(
    teams: TeamsSim, wire: TeamsWire, endpoint: Endpoint
) -> None:
    owner = teams.add_person("Olivia Owner")
    channel = teams.add_team("Parish", owners=[owner]).channels[0]
    post, _ = await teams.say(owner, channel, "Is life sacred?")
    where = Conversation(teams.service_url, channel.id, "channel", team=channel.id, thread=post.id)
    sink = TeamsSink(wire=wire, where=where, informative="citebot is thinking…")
    await sink.show([{"type": "message", "text": "Life is"}], final=False)
    await closer(wire)(Orphan(platform="teams", language="en", where=sink.whereabouts()))
    (note,) = teams.replies(post)
    assert note.text == EN.restarting()


async def test_a_personal_chats_streamed_answer_says_it_was_interrupted(
    teams: TeamsSim, wire: TeamsWire
) -> None:
    alice = teams.add_person("Alice Archer")
    chat = teams.personal_chat(alice)
    where = Conversation(teams.service_url, chat.id, "personal")
    sink = TeamsSink(wire=wire, where=where, informative="citebot is thinking…", stream_interval=0)
    await sink.start()
    teams.advance(1.0)
    await sink.show([{"type": "message", "text": "Life is sacred"}], final=False)
    assert sink.whereabouts().shown
    await closer(wire)(Orphan(platform="teams", language="en", where=sink.whereabouts()))
    note = teams.bot_messages(chat)[-1]
    assert note.text == EN.interrupted()
