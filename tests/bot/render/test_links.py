"""Every link citebot makes is a URI the platforms take, or no link at all (the text stays).

The check is the one Discord's simulator applies to ``format: uri`` (RFC 3986 through
``rfc3986-validator``), with Discord's 2,048 and Slack's 3,000 characters.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rfc3986_validator import validate_rfc3986

from bot.render.links import by_link, safe_link

DISCORD, SLACK = 2048, 3000


def is_uri(url: str) -> bool:
    return bool(validate_rfc3986(url, rule="URI"))


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://例え.jp/パス?q=ünï", "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%BCn%C3%AF"),
        (
            'https://example.org/a|b{c}d^e`f"g<h>i\\j k',
            "https://example.org/a%7Cb%7Bc%7Dd%5Ee%60f%22g%3Ch%3Ei%5Cj%20k",
        ),
        ("https://x.org/%zz", "https://x.org/%25zz"),
        ("https://x.org/100%", "https://x.org/100%25"),
        ("https://x.org/%E2%82%AC", "https://x.org/%E2%82%AC"),
        (
            "HTTPS://Example.ORG:8443/Path?Q=1#Frag#ment",
            "https://example.org:8443/Path?Q=1#Frag%23ment",
        ),
        ("https://[2001:DB8::1]/x", "https://[2001:db8::1]/x"),
        ("https://☃.net/", "https://xn--n3h.net/"),
        ("https://a_b.example/", "https://a_b.example/"),
        ("https://example.org/[1]", "https://example.org/%5B1%5D"),
    ],
)
def test_a_url_is_written_as_the_uri_it_means(url: str, shown: str) -> None:
    assert safe_link(url, limit=DISCORD) == shown
    assert is_uri(shown)


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "ftp://example.org/",
        "https://user:secret@example.org/",
        "https://vatican.va@evil.example/",
        "https:///no-host",
        "https://example.org:99999/",
        "https://example.org:port/",
        "https://[not-ipv6]/",
        "https://exa mple.org/",
        "https://example.org/\nnext",
        "relative/path",
    ],
)
def test_a_url_that_cannot_be_made_safe_is_no_link(url: str) -> None:
    assert safe_link(url, limit=DISCORD) is None


def test_the_limit_counts_the_encoded_url() -> None:
    url = "https://example.org/" + "ü" * 600  # 620 characters, 3,620 once encoded
    assert safe_link(url, limit=SLACK) is None
    fits = "https://example.org/" + "a" * (DISCORD - 20)
    assert safe_link(fits, limit=DISCORD) == fits
    assert safe_link(fits + "a", limit=DISCORD) is None


def test_markup_characters_are_encoded_on_request() -> None:
    assert safe_link("https://x.org/Grace_(theology)'s", limit=DISCORD, encode="()'") == (
        "https://x.org/Grace_%28theology%29%27s"
    )


def test_cards_sharing_a_link_are_grouped_where_the_first_stands() -> None:
    items = [("a", "u1"), ("b", None), ("c", "u2"), ("d", "u1"), ("e", None)]
    groups = by_link(items, lambda item: item[1])
    assert [[name for name, _ in group] for group in groups] == [["a", "d"], ["b"], ["c"], ["e"]]


_PIECES = st.text(
    alphabet=st.one_of(
        st.sampled_from("%25zZ|{}^`\"<>\\ :/?#[]@!$&'()*+,;=.-_~"),
        st.characters(codec="utf-8"),
    ),
    max_size=60,
)
_URLS = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda scheme, host, rest: f"{scheme}://{host}{rest}",
        st.sampled_from(["http", "https", "HTTPS", "ftp"]),
        st.one_of(_PIECES, st.sampled_from(["example.org", "例え.jp", "[::1]", "a.b:80"])),
        _PIECES,
    ),
    st.builds(
        lambda n, tail: "https://example.org/" + "x" * n + tail, st.integers(1900, 3100), _PIECES
    ),
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(url=_URLS, limit=st.sampled_from([DISCORD, SLACK]))
def test_whatever_the_url_the_link_is_a_uri_within_the_limit_or_none(url: str, limit: int) -> None:
    made = safe_link(url, limit=limit, encode="()'")
    if made is None:
        return
    assert is_uri(made), made
    assert len(made) <= limit
    assert made.startswith(("http://", "https://"))
    assert not set(made) & set("()' <>|\"\\")
    assert safe_link(made, limit=limit, encode="()'") == made
