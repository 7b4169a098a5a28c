"""Guards of the HTTP API at the ASGI level: request size, read time, security headers.

They wrap the HTTP API only; the table websockets go around them (``app.Gametable``),
and check the ``Origin`` of a handshake with :func:`origin_allowed`.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Iterable
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gametable.server.refused import Refused

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

LOOPBACK: Final = ("127.0.0.0/8", "::1/128")
"""This machine's own addresses."""


def networks(specs: Iterable[str]) -> tuple[Network, ...] | None:
    """Parse networks such as ``"10.0.0.0/8"`` or ``"::1"``; ``None`` for ``"all"``
    (every client).

    Raises:
        ValueError: a spec that is neither ``"all"`` nor an address or network.
    """
    parsed: list[Network] = []
    for spec in (text.strip() for text in specs):
        if spec == "all":
            return None
        if spec:
            parsed.append(ipaddress.ip_network(spec, strict=False))
    return tuple(parsed)


def allowed(address: str, among: tuple[Network, ...] | None) -> bool:
    """Whether a client at ``address`` (:func:`client_address`) is in ``among``
    (``None``: everyone is). A client without an IP address is not."""
    if among is None:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in among)

INJECTED_STYLES = ("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
                   "/aQdAPrD+kc0v7HnGQTuKBtoP6ZN+lnzOGVJ1Qt6dfw=")
"""SHA-256 (base64) of the one style element the client adds itself: the pan-and-zoom
library of the Triominos board (react-zoom-pan-pinch) appends it empty, then fills it
with its CSS. A test checks these against the built client."""
_STYLE_HASHES = " ".join(f"'sha256-{digest}'" for digest in INJECTED_STYLES)
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; "
    f"style-src 'self' {_STYLE_HASHES}; "
    "img-src 'self' blob:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The built client loads its script and style sheet from ``/assets`` (no inline script;
no inline style element but :data:`INJECTED_STYLES`); pictures come from the API, and
the deck upload previews the chosen files as ``blob:`` addresses. The websocket is the
page's own host (``'self'``)."""
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    # A personal link carries a seat's token after '#'; browsers never send the fragment,
    # and with no referrer at all neither does anything else of the page's address.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP answer (headers the app set win)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = SECURITY_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(n, v) for n, v in added if n not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HeadAsGet:
    """Answer ``HEAD`` as ``GET`` without the body (RFC 9110, 9.3.2): the same status and
    headers, ``Content-Length`` included, so that link checkers, uptime monitors and
    ``curl -I`` see what a browser gets (the API's routes answered 405). A path that
    takes no ``GET`` still answers 405."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)


class BodyLimit:
    """Refuse a request body over ``limit`` bytes (413), or one that arrives too slowly
    (408), counting the bytes actually read, whatever ``Content-Length`` says (a chunked
    body has none).

    Args:
        limit: the most bytes of a body; ``larger`` gives other limits for some paths.
        read_timeout: the longest wait for the next piece of a body, in seconds.
        body_timeout: the longest time a whole body may take, in seconds (paths in
            ``larger`` — uploads — have only ``read_timeout``).

    A declared ``Content-Length`` over the limit is refused before anything is read. Once
    the limit or a timeout is passed, the application sees the client as gone
    (``http.disconnect``), whatever it answers is dropped and the refusal is sent instead,
    with ``Connection: close``.
    """

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None,
                 read_timeout: float = 15.0, body_timeout: float = 30.0,
                 refusals: dict[str, Callable[[int], Refused]] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger or {}
        self.refusals = refusals or {}
        """A path's own refusal of a body too large, given its size in bytes (a deck
        upload's ``upload_too_large``): else ``too_large``."""
        self.read_timeout = read_timeout
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        limit = self.larger.get(path, self.limit)
        length = _header(scope, b"content-length")
        too_large = self.refusals.get(path) or (lambda size: _too_large(size, limit))
        if length is not None and length.isdigit() and int(length) > limit:
            await _refuse(send, too_large(int(length)))
            return
        loop = asyncio.get_running_loop()
        deadline = None if path in self.larger else loop.time() + self.body_timeout
        received = 0
        refusal: Refused | None = None
        started = False
        body_done = False

        async def limited_receive() -> Message:
            nonlocal received, refusal, body_done
            if refusal is not None:
                return {"type": "http.disconnect"}
            if body_done:  # only a disconnect can follow: no time limit on waiting for it
                return await receive()
            wait = self.read_timeout
            if deadline is not None:
                wait = min(wait, max(0.0, deadline - loop.time()))
            try:
                message = await asyncio.wait_for(receive(), wait)
            except TimeoutError:
                seconds = round(self.read_timeout if deadline is None else self.body_timeout)
                refusal = Refused("too_slow", "server.errors.too_slow", status=408,
                                  seconds=seconds, count=seconds)
                return {"type": "http.disconnect"}
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refusal = too_large(received)
                    return {"type": "http.disconnect"}
                body_done = not message.get("more_body", False)
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refusal is not None:
                return  # the refusal is answered below instead
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if refusal is None:
                raise
        if refusal is not None and not started:
            await _refuse(send, refusal)


def _too_large(size: int, limit: int) -> Refused:
    return Refused("too_large", "server.errors.too_large", status=413, size=size, limit=limit)


async def _refuse(send: Send, refusal: Refused) -> None:
    response = JSONResponse(refusal.to_json(), status_code=refusal.status,
                            headers={"Connection": "close"})
    await response({"type": "http"}, _nothing, send)


async def _nothing() -> Message:  # a response never reads the request
    return {"type": "http.disconnect"}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def origin_allowed(scope: Scope, public_url: str | None) -> bool:
    """Whether a websocket handshake may go on: no ``Origin`` (a program, not a page), or
    an ``Origin`` on this server's own host (the ``Host`` it was reached at) or that of
    ``public_url``. A page of another site may not play in its visitors' seats."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    netloc = urlsplit(origin).netloc.lower()
    if not netloc:
        return False
    host = (_header(scope, b"host") or "").lower()
    if netloc == host:
        return True
    return bool(public_url) and netloc == urlsplit(str(public_url)).netloc.lower()


def client_address(scope: Scope | dict[str, Any]) -> str:
    """The client's address (``"-"`` when the server was not told)."""
    client = scope.get("client")
    return str(client[0]) if client else "-"


IPV6_CLIENT_PREFIX: Final = 64
"""The IPv6 prefix length that names one client for limits: a household or a server
is usually given a whole ``/64``, so each of its 2**64 addresses is the same client."""


def client_key(scope: Scope | dict[str, Any]) -> str:
    """The name under which rate limits, connection caps and quotas count a client:
    :func:`client_network` of its address."""
    return client_network(client_address(scope))


def client_network(address: str) -> str:
    """An IPv4 address as it is; an IPv6 address as its ``/64`` network
    (``"2001:db8:1:2::/64"``; an IPv4-mapped one as its IPv4 address); anything that is
    not an IP address (``"-"``, a test client's name) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_CLIENT_PREFIX), strict=False))
    return str(ip)
