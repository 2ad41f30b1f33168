"""The conformance suite: what every registered platform's presenter and sink must do, run for
each platform the ``citebot.platforms`` entry points name (``bot.platforms.platform_names``).

What it checks, on the same answers for every platform (``kit.ANSWERS``: the formatter's
cases and one answer crowded past every limit, 25 sources against ``MAX_CARDS`` 20):
- **limits kept** (``test_payloads.py``): every payload, streamed, finished, capped and with
  the quote checks' verdicts edited in, is one the platform takes (its ``limits.py``, its
  official spec as the simulator models it) and keeps citebot's promises (no live mention, no
  link but http and https);
- **every footnote has its card** (``test_payloads.py``): the same number and the same URL;
- **nothing pings** (``test_wire.py``): mention words and sequences from the upstream
  (``@everyone``, ``<@123>``, ``<!here>``) reach the platform's simulator as text and notify
  nobody;
- **a refused message is sent again without the refused card** (``test_wire.py``): the
  platform refuses one card of a thread message and the sink sends the rest again, their
  quotes whole (Discord without that embed; Slack without the blocks of the card its
  ``invalid_blocks`` names), the answer untouched;
- **what people send in** (``test_inbound.py``, every platform the worker runs), through the
  kit's steps: a question outside the allowlist, or where the place's admins switched
  citebot off, is refused in the asker's words and asks nothing upstream; a question the
  platform delivers twice is answered once; a vote is kept on the answer, and a press of its
  buttons by someone else is their own vote, never the asker's.

The formatter's golden, property and adversarial suites (``tests/integrations/formatter/``)
run every registered platform too, reading its payloads through its module here.

A new platform registers its entry point, then adds one module here, ``platforms/<name>.py``,
defining ``PLATFORM``, a :class:`~tests.integrations.conformance.kit.Conformance`:
- ``presenter``: its presenter;
- ``problems(payload)``: what the platform would refuse in a payload, from its ``limits.py``
  and its spec (Telegram: text of 1-4,096 characters after entities parsing, its
  ``callback_data`` of 1-64 bytes...), and a mention or a link citebot must never make;
- ``footnotes(answer)`` and ``cards(thread)``: the footnotes a reader sees in the answer
  messages, and the numbers the cards show, each with its URL, read from the payloads as the
  platform shows them;
- ``wire(monkeypatch)``: an async context manager yielding a
  :class:`~tests.integrations.conformance.kit.Wire`, the platform's real sink on its
  simulator (``tests/sim/``) for one answer: what a person sees there, what pinged, how many
  writes were refused, and how to spoil one card of a thread message so the simulator refuses
  it. ``None`` for a platform that sends nothing anywhere (the terminal);
- ``inbound(monkeypatch, tmp_path)``: an async context manager yielding an
  :class:`~tests.integrations.conformance.kit.Inbound`, the platform's worker (its runner,
  the real client library, the kit) on its simulator with an allowlist naming two places, one
  of them switched off: how a person asks there, votes under an answer, and which votes were
  kept. ``None`` only for a platform the worker does not run.
"""
