"""The Grafana dashboard in docs/ queries only what a worker exports: every metric its queries
name is read from a worker's own ``/metrics`` (served on loopback, as Prometheus scrapes it),
each query parsed as PromQL (a typo or a metric renamed fails here), and the report's counts
are all on it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import promql_parser

from bot.admission import Admission
from bot.ingress import Ingress
from bot.ops.health import health_routes
from bot.service import AnswerService
from bot.state import open_state
from bot.upstream.client import AnswerClient

DASHBOARD = Path(__file__).parents[3] / "docs" / "grafana-dashboard.json"
GRAFANA = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "7d"}
"""Grafana's own variables, as Grafana fills them in before Prometheus reads a query."""
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
}


def queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    found = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    found += [
        variable["query"]["query"]
        for variable in dashboard["templating"]["list"]
        if variable["type"] == "query"
    ]
    return found


def metrics_in(query: str) -> set[str]:
    """The metric names a query reads (``label_values(METRIC, label)`` too)."""
    values = re.fullmatch(r"label_values\((\w+),\s*\w+\)", query)
    if values:
        return {values[1]}
    for variable, value in GRAFANA.items():
        query = query.replace(variable, value)
    names: set[str] = set()

    def visit(node: object) -> None:
        if isinstance(node, promql_parser.VectorSelector) and node.name:
            names.add(node.name)

    promql_parser.walk(promql_parser.parse(query), pre_visit=visit)
    return names


async def exported(service: AnswerService) -> set[str]:
    """Every sample name the worker's ``/metrics`` can carry (each family's, by its type)."""
    routes = health_routes(service=service, ready={})
    async with (
        Ingress(host="127.0.0.1").serving(0, routes) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        text = (await http.get("/metrics")).text
    names = set()
    for family, kind in re.findall(r"^# TYPE (\w+) (\w+)$", text, re.MULTILINE):
        base = family.removesuffix("_total")
        names |= {base + suffix for suffix in SUFFIXES.get(kind, ("",))}
    return names


async def test_every_query_of_the_dashboard_reads_a_metric_the_worker_exports(
    answer_client: AnswerClient,
) -> None:
    async with open_state("memory://") as state:
        service = AnswerService(
            client=answer_client, state=state, admission=Admission(max_in_flight=1)
        )
        available = await exported(service)
    used = {name for query in queries() for name in metrics_in(query)}
    assert used - available == set()
    # the report's counts are each on the dashboard
    for counted in (
        "citebot_answers_total",
        "citebot_refusals_total",
        "citebot_votes_total",
        "citebot_down_reasons_total",
        "citebot_quote_checks_total",
        "citebot_answers_quote_not_found_total",
        "citebot_first_text_seconds_bucket",
        "citebot_tokens_total",
    ):
        assert counted in used

    # and a query naming a metric the worker does not export is caught
    misspelt = metrics_in(
        'sum(rate(citebot_answer_total{platform=~"$platform"}[$__rate_interval]))'
    )
    assert misspelt == {"citebot_answer_total"}
    assert not misspelt <= available
