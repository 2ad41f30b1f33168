"""The composition root: the ``citebot`` command.

It finds the platforms through the registry (:mod:`bot.platforms`, the ``citebot.platforms``
entry points) and names none itself; each is imported only by the command that needs it, so
``citebot ask`` never loads discord.py or slack-bolt.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable, Coroutine, Sequence
from importlib import metadata
from typing import Any

from bot.connect import open_providers, open_quote_checker, open_upstream, wants_demo
from bot.i18n.wording import language_setting
from bot.ops.report_command import describe as describe_report
from bot.ops.report_command import report_command
from bot.places import PlaceSettings, SettingRefused
from bot.places.cli import describe as describe_settings
from bot.places.cli import settings_command
from bot.places.own_cli import answers_command
from bot.places.own_cli import describe as describe_answers
from bot.platforms import load_platform, load_platforms, place_forms, platform_names
from bot.upstream.trust import TrustedSources
from bot.verify import Verdict
from config import Settings, SettingsError, load_settings

log = logging.getLogger("citebot")

EXIT_FAILED = 1
EXIT_SETTINGS = 2
EXIT_INTERRUPTED = 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citebot",
        description="Answers with sources, in the terminal and the places people talk.",
    )
    # the version is written once, in pyproject.toml, and read back from the installed metadata
    parser.add_argument(
        "--version", action="version", version=f"citebot {metadata.version('citebot')}"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ask = commands.add_parser("ask", help="ask once and stream the answer with its sources")
    ask.add_argument("question", nargs="+", help="the question (quotes optional)")
    ask.add_argument(
        "--platform",
        choices=platform_names(),
        default="terminal",
        help="format the answer as this platform would show it",
    )
    ask.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: answer and thread payloads, citations",
    )
    ask.add_argument(
        "--builder-url",
        action="store_true",
        help="also print a link to the platform's own preview of the thread, where it has one ",
    )
    ask.add_argument(
        "--place",
        metavar="PLACE",
        help="answer as citebot would there (its trusted sources and provider, from STATE_URL)",
    )
    ask.add_argument(
        "--locale",
        metavar="TAG",
        help="the language of citebot's own words, e.g. pt-BR (default: "
        "CITEBOT_LANGUAGE, else LC_ALL, LC_MESSAGES or LANG, else English)",
    )

    commands.add_parser("run", help="the long-running worker: every configured platform")

    demo = commands.add_parser("demo-server", help="serve the embedded demo upstream")
    demo.add_argument("--host", default="127.0.0.1")
    demo.add_argument("--port", type=int, default=8000)

    commands.add_parser(
        "sync-commands", help="register the configured platforms' commands with them now"
    )

    manifest = commands.add_parser(
        "manifest", help="print what an admin pastes to set citebot up on a platform"
    )
    manifest.add_argument("platform", choices=platform_names(), help="the platform")

    forms = place_forms()
    describe_settings(commands.add_parser("settings", help="places' settings, on STATE_URL"), forms)
    describe_answers(
        commands.add_parser("answers", help="the questions a place answers itself, on STATE_URL"),
        forms,
    )
    describe_report(
        commands.add_parser("report", help="what was asked and answered, from the answer log"),
        forms,
    )
    return parser


async def _ask(settings: Settings, args: argparse.Namespace) -> int:
    from bot.answer import Question, answer_question
    from bot.i18n.command_line import command_line_language
    from bot.i18n.wording import Wording
    from bot.pacing import Pacer
    from bot.preview import CollectingSink, LiveSink, LiveWords
    from bot.quote_checks import ASK_DEADLINE, show_quote_checks

    question = " ".join(args.question).strip()
    if not question:
        print(
            'citebot: please give a question, e.g. citebot ask "How do I deploy citebot?"',
            file=sys.stderr,
        )
        return EXIT_SETTINGS
    configured = settings.language if "language" in settings.model_fields_set else None
    language = command_line_language(args.locale, configured=configured, environ=os.environ)
    wording = Wording(language=language, platform=args.platform)
    platform = load_platform(args.platform)
    preview = args.json or platform.live is None
    collected = CollectingSink()
    sink: LiveSink = collected
    presenter = platform.presenter()
    if not preview:
        assert platform.live is not None
        sink, presenter = platform.live(
            LiveWords(
                sources=wording.labels.sources,
                status=f"citebot {wording.thinking()}",
                checking=f"citebot {wording.checking_quotes()}" if settings.quote_check else None,
            )
        )
    verdicts: Sequence[Verdict] | None = None
    place = await _place_settings(settings, args.place) if args.place else None
    trusted = place.trusted if place is not None else None
    async with (
        open_upstream(settings, demo=wants_demo(settings)) as upstream,
        open_providers(settings) as providers,
        open_quote_checker(settings, cache=None, pages=upstream.pages) as checker,
        sink.live(question),
    ):
        provider = place.provider if place is not None else None
        chosen = providers.get(provider) if provider is not None else None
        client = upstream.client if provider is None else chosen.client if chosen else None
        if client is None:
            raise SettingsError(
                f"{args.place}: its provider {provider!r} is not in UPSTREAM_PROFILES"
            )
        outcome = await answer_question(
            Question(
                text=question,
                platform=args.platform,
                user_id="command-line",
                channel_id="command-line",
                language=language,
                locale=args.locale,
            ),
            client=client,
            presenter=presenter,
            sink=sink,
            wording=wording,
            trusted=trusted,
            pacer=Pacer(min_interval=0.0 if preview else 0.05),
            # what the worker would post: --json and the terminal keep its caps
            max_messages=settings.max_answer_messages,
            max_cards=settings.max_cards,
        )
        if checker is not None and outcome.rendered is not None:
            # the cards wait for the checks, a few seconds at most, and show their verdicts
            verdicts = await show_quote_checks(
                outcome.rendered,
                checker=checker,
                presenter=presenter,
                sink=sink,
                deadline=ASK_DEADLINE,
            )
    if preview:
        _print_json(
            args.platform,
            collected.answer,
            collected.thread,
            outcome,
            verdicts,
            builder=args.builder_url,
            trusted=trusted,
        )
    if outcome.status == "answered":
        return 0
    if preview and outcome.error is not None:  # the terminal sink has already said it
        print(wording.explain(outcome.error), file=sys.stderr)
    return EXIT_FAILED


def _print_json(
    platform: str,
    answer: Sequence[Any],
    thread: Sequence[Any],
    outcome: Any,
    verdicts: Sequence[Verdict] | None,
    *,
    builder: bool,
    trusted: TrustedSources | None,
) -> None:
    rendered = outcome.rendered
    citations = []
    if rendered:
        # footnote order, then the sources the answer consulted but never cited: every source
        # one number (bot.render.numbering); only the quotes of the cards posted are checked,
        # the cited sources past MAX_CARDS are only listed
        posted = list(verdicts) if verdicts is not None else [None] * len(rendered.layout.cards)
        checked = [*posted, *[None] * (len(rendered.citations) - len(posted))]
        for citation, verdict in zip(rendered.citations, checked, strict=True):
            nothing_to_check = not (citation.cited_text.strip() and citation.source_url)
            quote_check = None if verdict is None or nothing_to_check else verdict.value
            citations.append({**citation.to_json(), "quote_check": quote_check})
        citations += [{**c.to_json(), "quote_check": None} for c in rendered.also_consulted]
        for shown in citations:  # among the place's trusted sources (None: it names none)
            url = shown["source_url"]
            shown["trusted"] = None if trusted is None else trusted.covers(url)
    document = {"platform": platform, "answer": list(answer), "thread": list(thread)}
    print(json.dumps({**document, "citations": citations}, ensure_ascii=False, indent=2))
    preview_url = load_platform(platform).preview_url
    if builder and preview_url is not None:
        print(preview_url(thread), file=sys.stderr)


async def _place_settings(settings: Settings, place: str) -> PlaceSettings:
    """``--place``: that place's settings in ``STATE_URL``'s store."""
    from bot.places import Places
    from bot.state import open_state

    try:
        where = place_forms().parse(place)
    except SettingRefused as refused:
        raise SettingsError(f"--place: {refused}") from None
    async with open_state(settings.state_url, timeout=settings.state_timeout_seconds) as state:
        return await Places(state, defaults=settings).of(where)


async def _demo_server(settings: Settings, args: argparse.Namespace) -> int:
    from bot.demo import serve_demo

    def announce(url: str) -> None:
        print(
            f"citebot demo upstream on {url} (OpenAI-compatible: POST {url}/chat/completions;"
            " Ctrl-C stops it)",
            file=sys.stderr,
            flush=True,
        )

    await serve_demo(
        host=args.host,
        port=args.port,
        corpus=settings.demo_corpus,
        tokens_per_second=settings.demo_tokens_per_second,
        on_ready=announce,
    )
    return 0


async def _run(settings: Settings) -> int:
    from bot.worker import run_worker

    return await run_worker(settings, platforms=load_platforms())


async def _manifest(args: argparse.Namespace) -> int:
    platform = load_platform(args.platform)
    if platform.manifest is None or platform.environment is None:
        print(f"citebot: {args.platform} needs nothing set up on its side", file=sys.stderr)
        return EXIT_SETTINGS
    print(platform.manifest(platform.environment.load()))
    return 0


async def _sync_commands() -> int:
    from bot.worker import configured_platforms

    configured, problem = configured_platforms(load_platforms())
    syncing = [(p, env) for p, env in configured.values() if p.sync_commands is not None]
    if problem is not None or not syncing:
        ways = ", or ".join(
            p.environment.start_with
            for p in load_platforms().values()
            if p.sync_commands is not None and p.environment is not None
        )
        print(f"citebot: sync-commands needs {problem or ways}", file=sys.stderr)
        return EXIT_SETTINGS
    for platform, environment in syncing:
        assert platform.sync_commands is not None
        await platform.sync_commands(environment)
    return 0


def _with_language(settings: Settings) -> Settings:
    """``CITEBOT_LANGUAGE`` checked against the catalogues citebot ships (the settings, a leaf,
    cannot know them) and kept as the catalogue it names."""
    if "language" not in settings.model_fields_set:
        return settings
    try:
        language = language_setting(settings.language)
    except ValueError as error:
        raise SettingsError(f"CITEBOT_LANGUAGE: {error}") from None
    return settings.model_copy(update={"language": language})


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = _with_language(load_settings())
    except SettingsError as error:
        print(f"citebot: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    # ask's user reads one friendly paragraph, not the retry log; LOG_LEVEL=DEBUG shows it
    quiet = args.command == "ask" and settings.log_level != "DEBUG"
    logging.basicConfig(
        level=logging.ERROR if quiet else settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    commands: dict[str, Callable[[], Coroutine[Any, Any, int]]] = {
        "ask": lambda: _ask(settings, args),
        "run": lambda: _run(settings),
        "demo-server": lambda: _demo_server(settings, args),
        "sync-commands": _sync_commands,
        "manifest": lambda: _manifest(args),
        "settings": lambda: settings_command(settings, args, place_forms()),
        "answers": lambda: answers_command(settings, args, place_forms()),
        "report": lambda: report_command(settings, args, place_forms()),
    }
    loop_factory = None
    if args.command == "run":
        from bot.worker import event_loop_factory

        loop_factory = event_loop_factory()
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            return runner.run(commands[args.command]())
    except SettingsError as error:  # found late, e.g. an unusable DEMO_CORPUS
        print(f"citebot: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
