"""``citebot run`` with no ``STATE_URL``: the embedded SQLite file in the user's data
directory keeps what an admin set in the platform and what an operator set with ``citebot
settings`` across a restart of the worker, the command line works on the same file while the
worker answers, and ``citebot report`` reads the worker's answers from it."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from tests.bot.test_worker import HOPE, worker_env, workers
from tests.sim.slack import SlackSim
from tests.sim.slack.views import StoredView
from tests.sim.upstream import UpstreamSim

ADMIN, ASKER, CHANNEL = "U0ADMIN", "U0ASKER", "C0ASK"
DISCLAIMER = "Checked by the parish office."


async def citebot(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    """The command line, as an operator runs it beside the worker: exit code, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def home(sim: SlackSim, showing: str) -> StoredView:
    await sim.wait_for(lambda: (view := sim.home(ADMIN)) is not None and showing in view.texts())
    view = sim.home(ADMIN)
    assert view is not None
    return view


def answered(sim: SlackSim, ts: str) -> bool:
    """The answer's last reply, its 👍/👎 under it, has been posted."""
    return any(message.elements() for message in sim.bot_replies(CHANNEL, ts))


async def test_with_no_state_url_settings_and_the_answer_log_outlive_a_restart(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    async with SlackSim() as sim, UpstreamSim(default=HOPE).running() as upstream:
        sim.workspace.add_user(ADMIN, admin=True)
        sim.workspace.add_user(ASKER, locale="ja-JP")  # no catalogue: the place's language
        place = f"slack:{sim.me.team_id}"
        env = worker_env(sim, upstream, None, XDG_DATA_HOME=str(data))
        async with workers(1, sim, upstream, None, XDG_DATA_HOME=str(data)) as (worker,):
            # the admin, in the Home tab: a disclaimer under every answer
            await sim.open_home(user=ADMIN)
            await sim.choose(
                await home(sim, ""), "citebot_setting", block_id="workspace:disclaimer"
            )
            await sim.wait_for(lambda: bool(sim.modals(ADMIN)))
            form = sim.modals(ADMIN)[-1]
            sim.fill(form, "value", DISCLAIMER)
            await sim.submit(form, user=ADMIN)
            await home(sim, DISCLAIMER)
            # the operator, on the same file while the worker answers a question
            first = await sim.mention(CHANNEL, "What is hope?", user=ASKER)
            setting, shown = await asyncio.gather(
                citebot(env, "settings", "set", place, "language", "fr"),
                citebot(env, "report", "--format", "json"),
            )
            assert setting[0] == 0, setting[2]
            assert shown[0] == 0, shown[2]
            await sim.wait_for(lambda: answered(sim, first.ts))
            code, _, log = await worker.stop()
        assert code == 0
        assert f"state store: 'sqlite:///{data / 'citebot' / 'state.sqlite3'}'" in log
        assert (data / "citebot" / "state.sqlite3").is_file()

        async with workers(1, sim, upstream, None, XDG_DATA_HOME=str(data)) as (worker,):
            again = await sim.mention(CHANNEL, "And charity?", user=ASKER)
            await sim.wait_for(lambda: answered(sim, again.ts))
            await worker.stop()
        settings = await citebot(env, "settings", "show", place)
        report = await citebot(env, "report", "--format", "json")

    # both settings held: the disclaimer under the answer, French asked of the upstream
    [buttons] = [m for m in sim.bot_replies(CHANNEL, again.ts) if m.elements()]
    assert DISCLAIMER in json.dumps(buttons.blocks)
    assert "French" in upstream.questions[-1][0]["content"]
    assert "disclaimer\tChecked by the parish office.\t" + place in settings[1]
    assert "language\tfr\t" + place in settings[1]
    # the report reads both workers' answers from the same file
    assert report[0] == 0, report[2]
    assert json.loads(report[1])["outcomes"] == {"answered": 2}
