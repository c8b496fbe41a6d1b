"""The lobbies' pages are served by the room's own site, with headers that keep them to themselves."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.web.conftest import http_url


def fetch(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@pytest.mark.parametrize(("path", "kind"), [("/", "text/html"), ("/admin", "text/html"),
                                             ("/static/common/room.js", "text/javascript"),
                                             ("/static/common/base.css", "text/css")])
def test_pages_and_assets_are_served_with_a_content_security_policy(web_server, path, kind):
    status, headers, body = fetch(http_url(web_server) + path)
    assert status == 200 and body
    assert headers["Content-Type"].startswith(kind)
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/static/", "/static/common/", "/static/../pokerroom/app.py",
                                  "/static/common/missing.js"])
def test_no_listing_no_escape_and_missing_files_are_not_found(web_server, path):
    status, _, body = fetch(http_url(web_server) + path)
    assert status == 404
    assert b"app.py" not in body and b"room.js" not in body
