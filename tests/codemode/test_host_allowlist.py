"""The connector host allowlist: which URLs a connector may name, by host and port."""

from __future__ import annotations

import pytest

from codemode import HostAllowlist

ALLOWED = HostAllowlist(["api.github.com", "localhost:8080", "*.example.com", "10.0.0.7", "[::1]"])


@pytest.mark.parametrize("url", [
    "https://api.github.com/repos", "https://API.GitHub.com", "http://api.github.com:8443/",
    "http://localhost:8080/mcp", "https://tools.example.com/mcp", "https://a.b.example.com",
    "http://10.0.0.7:9000/", "http://[::1]:3000/mcp",
])
def test_a_listed_host_is_allowed(url: str) -> None:
    assert ALLOWED.problem(url, "url") is None


@pytest.mark.parametrize("url, shown", [
    ("http://localhost:8081/mcp", "localhost:8081"), ("https://example.com/", "example.com"),
    ("https://api.github.com.evil.test/", "api.github.com.evil.test"),
    ("https://evilexample.com/", "evilexample.com"), ("http://10.0.0.8/", "10.0.0.8"),
    ("http://127.0.0.1:8080/", "127.0.0.1:8080"),
])
def test_any_other_host_is_refused_by_name(url: str, shown: str) -> None:
    problem = ALLOWED.problem(url, "spec_url")
    assert problem is not None
    assert problem.startswith(f"spec_url host {shown} is not one") and "SANDBOX_CONNECTOR_HOSTS" in problem


def test_no_list_or_a_star_allows_every_host() -> None:
    for allowlist in (HostAllowlist(None), HostAllowlist(["*"]), HostAllowlist(["a.test", "*"])):
        assert allowlist.problem("https://anything.test:1234/x", "url") is None


def test_an_empty_list_allows_no_host() -> None:
    assert HostAllowlist([]).problem("http://127.0.0.1/", "url") is not None


@pytest.mark.parametrize("entry", ["https://api.github.com", "a.test/path", "*x.test", "a*.test",
                                   "user@a.test", "a.test?x"])
def test_an_entry_that_is_not_a_host_is_refused(entry: str) -> None:
    with pytest.raises(ValueError, match="is not a host"):
        HostAllowlist([entry])
