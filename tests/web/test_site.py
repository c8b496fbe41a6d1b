"""The lobbies' pages are served by the room's own site, with headers that keep them to themselves."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.net.server_process import Player
from tests.support.browser_pages import http_url


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


def test_serve_demo_prints_the_pages_and_demo_director_and_security_credentials_that_work(web_server):
    lines = web_server.printed(4)                       # tables, the page URLs, the demo director and officer
    base = http_url(web_server)
    assert f"player client: {base}/" in lines[1] and f"admin lobby: {base}/admin" in lines[1]
    assert f"security review: {base}/security" in lines[1]
    for line, role, request in ((lines[2], "director", "director_templates"), (lines[3], "security", "security_cases")):
        words = line.replace(",", "").split()
        nickname, password = words[words.index("nickname") + 1], words[words.index("password") + 1]
        staff = Player(web_server.url, "pokerroom.v1.json")
        login = staff.request("login", nickname=nickname, password=password)
        assert login["ok"] and login["role"] == role
        assert staff.request(request)["ok"]
        staff.close()


def test_the_readme_test_command_is_what_ci_runs():
    root = Path(__file__).resolve().parents[2]
    ci = [line for line in (root / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith(("#", "set", "cd"))]
    assert len(ci) == 1 and f"    {ci[0]}\n" in (root / "README.md").read_text()
