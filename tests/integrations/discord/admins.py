"""A server's admin (or anyone) using ``/citebot settings`` and ``/citebot report`` in the
simulated Discord, as a person does: the subcommand, then the select menu or the modal it
opens."""

from __future__ import annotations

from collections.abc import Mapping

from tests.sim.discord import DiscordSim, SimInteraction, SimMessage

__all__ = ["answered", "change", "run_admin", "run_settings"]


async def run_settings(
    sim: DiscordSim,
    subcommand: str,
    options: Mapping[str, object] | None = None,
    *,
    user_id: int | None = None,
    channel_id: int | None = None,
    locale: str = "en-US",
) -> SimInteraction:
    """``/citebot settings SUBCOMMAND`` by ``user_id`` (default: the admin), until answered."""
    return await run_admin(
        sim,
        f"citebot settings {subcommand}",
        options,
        user_id=user_id,
        channel_id=channel_id,
        locale=locale,
    )


async def run_admin(
    sim: DiscordSim,
    command: str,
    options: Mapping[str, object] | None = None,
    *,
    user_id: int | None = None,
    channel_id: int | None = None,
    locale: str = "en-US",
) -> SimInteraction:
    """``/COMMAND`` (with its subcommands) by ``user_id`` (default: the admin), until
    answered."""
    interaction = await sim.slash_command(
        command,
        dict(options or {}),
        user_id=sim.admin.id if user_id is None else user_id,
        channel_id=channel_id,
        locale=locale,
    )
    await answered(sim, interaction)
    return interaction


async def answered(sim: DiscordSim, interaction: SimInteraction) -> None:
    """Until the interaction shows its final words (a deferral's edit, a message, a modal)."""

    def done() -> bool:
        if interaction.modal is not None:
            return True
        original = interaction.original
        return (
            original is not None
            and not original.loading
            and bool(original.content or original.embeds)
        )

    await sim.until(done)


async def change(
    sim: DiscordSim,
    setting: str,
    value: str,
    *,
    where: str = "server",
    channel_id: int | None = None,
    user_id: int | None = None,
    locale: str = "en-US",
) -> str:
    """The admin sets ``setting`` to ``value`` (picked in the menu, or typed in the modal);
    what citebot says back."""
    opened = await run_settings(
        sim,
        "set",
        {"setting": setting, "where": where},
        user_id=user_id,
        channel_id=channel_id,
        locale=locale,
    )
    if opened.modal is not None:
        sent = await sim.submit_modal(opened, {"value": value}, locale=locale)
        await answered(sim, sent)
        assert sent.original is not None
        return sent.original.content
    menu: SimMessage | None = opened.original
    assert menu is not None
    assert menu.components, menu.content
    picked = await sim.choose(
        menu.id,
        f"citebot:set:{where}:{setting}",
        [value],
        user_id=opened.user.id,
        locale=locale,
    )
    await sim.until(lambda: picked.response_type is not None and not menu.components)
    return menu.content
