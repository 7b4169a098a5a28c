"""uvicorn's sans-I/O websocket protocol, bounded for peers that stop reading.

uvicorn answers every ping with a pong written straight to the socket, whatever the peer
reads, and gives up on a connection (keepalive timeout, close handshake timed out) with
``transport.close()``, which waits to hand over what is still buffered: a peer that pings
and never reads made the server's memory grow at its upload speed, held until it hung up,
and a seat whose client stopped reading stayed "connected" for as long. Here:

- a ping that arrives while more than :data:`MAX_UNSENT_BYTES` wait to go out to the peer
  drops the connection (browsers never send pings: only a client of its own does);
- a connection given up on is dropped at once (``transport.abort()``), so the application
  hears of it and its buffers go;
- a close the application asks for while the peer reads nothing of what is sent drops
  the connection too (the close frame would wait behind the rest forever), and so does
  a closing handshake the peer has not finished ``close_timeout`` seconds later.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

MAX_UNSENT_BYTES = 1024 * 1024
"""Most bytes that may wait to go out to a peer when it pings (a pong adds to them)."""


class BoundedWebSocketProtocol(WebSocketsSansIOProtocol):
    """:class:`WebSocketsSansIOProtocol` that lets go of peers that stop reading (module
    docstring); ``gametable serve`` runs its websockets with it."""

    def handle_ping(self) -> None:
        if self.transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            self.drop()
            return
        super().handle_ping()

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        self.drop()

    def send(self, message: ASGISendEvent) -> Coroutine[Any, Any, None]:
        # Every update of every table passes here: all but a close go straight on, with
        # no coroutine of their own around uvicorn's.
        if message["type"] != "websocket.close" or not self.handshake_complete:
            return super().send(message)
        return self._close(message)

    async def _close(self, message: ASGISendEvent) -> None:
        if not self.writable.is_set() and not self.disconnected:
            # Nothing sent is being read: the close frame would queue behind it forever.
            self.drop()
            return
        await super().send(message)
        if self.close_timer is not None:
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(self.close_timeout, self.drop)

    def drop(self) -> None:
        """Let go of the connection now, whatever is still buffered for the peer; the
        application hears ``websocket.disconnect`` as when the peer hangs up."""
        timer, self.close_timer = self.close_timer, None
        if timer is not None:
            timer.cancel()
        if not self.disconnected:
            self.transport.abort()
