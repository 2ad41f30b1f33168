"""What another worker does with a dead worker's answer: its record as the store keeps it
(JSON, the secret apart), read back and closed by the core's closer through the platform's
hook."""

from __future__ import annotations

from bot.i18n.wording import Wording
from bot.inflight import Orphan, Whereabouts, orphan_of, record_of
from bot.orphans import OrphanCloser, OrphanHook
from bot.render.ports import Presenter


async def close_left(
    hook: OrphanHook,
    presenter: Presenter,
    *,
    platform: str,
    where: Whereabouts,
    language: str | None = None,
) -> None:
    closer = OrphanCloser(
        hook,
        presenter=presenter,
        wording_for=lambda lang: Wording(language=lang, platform=platform),
    )
    left = Orphan(platform=platform, language=language, where=where)
    await closer(orphan_of(record_of(left), secret=where.secret))
