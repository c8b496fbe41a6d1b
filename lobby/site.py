"""The web lobbies: the player client at ``/``, the directors' admin lobby at ``/admin`` and the security
team's review pages at ``/security``.

All are static pages (HTML, CSS and JavaScript modules in ``lobby/static``)
that speak the ``pokerroom.v1.json`` subprotocol over ``/ws`` like any other
client: there is no second API. The pages hold no authority and no data -- the
server checks the role on every director and security request -- so serving
them to anyone leaks nothing; the admin and security pages simply show a
refusal to an account without the role.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from twisted.web.resource import Resource
from twisted.web.static import File

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {b"": "player/index.html", b"admin": "admin/index.html", b"security": "security/index.html"}
# Only our own scripts, styles and images; WebSocket to our own host. No inline script, no framing.
POLICY = (b"default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
          b"script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


class Guarded(File):
    """``twisted.web.static.File`` with the headers every page and asset of the lobbies carries."""

    def render_GET(self, request: Any) -> Any:                      # noqa: N802 - twisted.web's name
        request.setHeader(b"content-security-policy", POLICY)
        request.setHeader(b"x-content-type-options", b"nosniff")
        request.setHeader(b"referrer-policy", b"no-referrer")
        request.setHeader(b"cache-control", b"no-cache")
        return super().render_GET(request)

    def getChild(self, path: bytes, request: Any) -> Resource:      # noqa: N802
        """No file name holds a NUL byte: ``index.html%00.js`` is not found (the file system would raise)."""
        if b"\x00" in path:
            return self.childNotFound
        return super().getChild(path, request)

    def directoryListing(self) -> Resource:                         # noqa: N802
        return self.childNotFound


Guarded.contentTypes = {**File.contentTypes, ".js": "text/javascript", ".mjs": "text/javascript",
                        ".css": "text/css", ".svg": "image/svg+xml"}


def add_pages(root: Resource) -> None:
    """Mount ``/`` (player client), ``/admin`` (admin lobby), ``/security`` (security review) and ``/static/…``
    (their assets) on ``root``."""
    for path, page in PAGES.items():
        root.putChild(path, Guarded(str(STATIC / page), defaultType="text/html"))
    root.putChild(b"static", Guarded(str(STATIC)))
