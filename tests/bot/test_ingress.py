"""The worker's one HTTP way in: routes grouped by port, one site per port while it has any."""

from __future__ import annotations

import httpx
import pytest
from aiohttp import web

from bot.ingress import Ingress, Route
from tests.sim.redis_server import free_port


def saying(words: str) -> Route:
    async def handler(_: web.Request) -> web.Response:
        return web.Response(text=words)

    return Route("POST", f"/{words}", handler)


async def test_routes_on_one_port_share_a_site_that_closes_with_the_last() -> None:
    ingress = Ingress(host="127.0.0.1")
    port = free_port()
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        async with ingress.serving(port, [saying("slack")]):
            async with ingress.serving(port, [saying("telegram")]) as bound:
                assert bound == port
                assert (await http.post("/slack")).text == "slack"
                assert (await http.post("/telegram")).text == "telegram"
                assert (await http.get("/slack")).status_code == 405
                assert (await http.post("/discord")).status_code == 404
                with pytest.raises(ValueError, match=f"port {port} serves POST /slack already"):
                    async with ingress.serving(port, [saying("slack")]):
                        pass
            assert (await http.post("/telegram")).status_code == 404  # its platform closed
            assert (await http.post("/slack")).text == "slack"  # the site stays for the other
        with pytest.raises(httpx.ConnectError):  # the last route gone: nothing listens
            await http.post("/slack")


async def test_a_route_that_takes_nothing_more_answers_503_to_be_delivered_again() -> None:
    taking = {"now": True}
    route = Route("POST", "/hook", saying("taken").handler, accepting=lambda: taking["now"])
    async with (
        Ingress(host="127.0.0.1").serving(0, [route]) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        assert (await http.post("/hook")).text == "taken"
        taking["now"] = False  # the worker drains
        refused = await http.post("/hook")
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "5"
