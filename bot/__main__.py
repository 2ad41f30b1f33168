"""The composition root: the ``citebot`` command.

This is the one module of ``bot`` that may import ``integrations``; it does so lazily, inside
the command that needs a platform, so ``citebot ask`` never loads discord.py or slack-bolt.
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

from bot.connect import open_quote_checker, open_upstream, wants_demo
from bot.i18n.wording import language_setting
from bot.render.ports import Presenter
from bot.verify import Verdict
from config import Settings, SettingsError, load_settings

log = logging.getLogger("citebot")

EXIT_FAILED = 1
EXIT_SETTINGS = 2
EXIT_INTERRUPTED = 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citebot", description="Answers with sources, in the terminal, Discord and Slack."
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
        choices=("terminal", "discord", "slack"),
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
        help="with --platform slack: also print a Block Kit Builder link",
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

    commands.add_parser("sync-commands", help="register Discord's slash commands now")
    return parser


def _presenter(platform: str) -> Presenter:
    if platform == "discord":
        from integrations.discord.presenter import DiscordPresenter

        return DiscordPresenter()
    if platform == "slack":
        from integrations.slack.presenter import SlackPresenter

        return SlackPresenter()
    from integrations.terminal.presenter import TerminalPresenter

    return TerminalPresenter()


async def _ask(settings: Settings, args: argparse.Namespace) -> int:
    from bot.answer import Question, answer_question
    from bot.i18n.wording import Wording
    from bot.pacing import Pacer
    from bot.quote_checks import ASK_DEADLINE, show_quote_checks
    from integrations.terminal.language import terminal_language
    from integrations.terminal.presenter import TerminalPresenter
    from integrations.terminal.sink import CollectingSink, TerminalSink

    question = " ".join(args.question).strip()
    if not question:
        print(
            'citebot: please give a question, e.g. citebot ask "How do I deploy citebot?"',
            file=sys.stderr,
        )
        return EXIT_SETTINGS
    configured = settings.language if "language" in settings.model_fields_set else None
    language = terminal_language(args.locale, configured=configured, environ=os.environ)
    wording = Wording(language=language, platform=args.platform)
    preview = args.json or args.platform != "terminal"
    collected = CollectingSink()
    sink: CollectingSink | TerminalSink = collected
    presenter = _presenter(args.platform)
    if not preview:
        sink = TerminalSink(
            sources=wording.labels.sources,
            status=f"citebot {wording.thinking()}",
            checking=f"citebot {wording.checking_quotes()}" if settings.quote_check else None,
        )
        presenter = TerminalPresenter(hyperlinks=sink.hyperlinks)
    verdicts: Sequence[Verdict] | None = None
    async with (
        open_upstream(settings, demo=wants_demo(settings)) as upstream,
        open_quote_checker(settings, cache=None, pages=upstream.pages) as checker,
        sink.live(question),
    ):
        outcome = await answer_question(
            Question(
                text=question,
                platform=args.platform,
                user_id="terminal",
                channel_id="terminal",
                language=language,
                locale=args.locale,
            ),
            client=upstream.client,
            presenter=presenter,
            sink=sink,
            wording=wording,
            pacer=Pacer(min_interval=0.0 if preview else 0.05),
        )
        if checker is not None and outcome.rendered is not None:
            # the cards wait for the checks, a few seconds at most, and show their verdicts
            verdicts = await show_quote_checks(
                outcome.rendered,
                checker=checker,
                presenter=presenter,
                sink=sink,
                labels=wording.labels,
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
) -> None:
    rendered = outcome.rendered
    citations = []
    if rendered:
        # footnote order, then the sources the answer consulted but never cited: every source
        # one number (bot.render.numbering); only a cited quote is checked
        checked = list(verdicts) if verdicts is not None else [None] * len(rendered.citations)
        for citation, verdict in zip(rendered.citations, checked, strict=True):
            nothing_to_check = not (citation.cited_text.strip() and citation.source_url)
            quote_check = None if verdict is None or nothing_to_check else verdict.value
            citations.append({**citation.to_json(), "quote_check": quote_check})
        citations += [{**c.to_json(), "quote_check": None} for c in rendered.also_consulted]
    document = {"platform": platform, "answer": list(answer), "thread": list(thread)}
    print(json.dumps({**document, "citations": citations}, ensure_ascii=False, indent=2))
    if builder and platform == "slack":
        from integrations.slack.builder import block_kit_builder_url

        blocks = [block for payload in thread for block in payload.get("blocks", [])]
        print(block_kit_builder_url(blocks), file=sys.stderr)


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

    return await run_worker(settings, platforms=_platforms(settings))


def _platforms(settings: Settings) -> dict[str, Any]:
    """The platform runners this deployment configured, imported only when configured."""
    runners: dict[str, Any] = {}
    if settings.discord_token:
        from integrations.discord.run import run_discord

        runners["discord"] = run_discord
    if settings.slack_mode:
        from integrations.slack.run import run_slack

        runners["slack"] = run_slack
    return runners


async def _sync_commands(settings: Settings) -> int:
    if not settings.discord_token:
        print("citebot: sync-commands needs DISCORD_TOKEN", file=sys.stderr)
        return EXIT_SETTINGS
    from integrations.discord.run import sync_commands

    await sync_commands(settings)
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
        "sync-commands": lambda: _sync_commands(settings),
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
