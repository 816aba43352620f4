"""The WebSocket compression of ``erebus serve`` (and of the bench's echo).

uvicorn compresses WebSocket messages (permessage-deflate) with a 4 kB window
(``server_max_window_bits=12``, ``memLevel`` 5) and zlib's default level 6.  A
state push is 5–15 kB and much like the previous one on the same socket, which a
4 kB window cannot reach back to; with the full 32 kB window (15 bits) every push
is compressed against the previous state.  Measured on the bench's states
(2026-12-02): Northwest ~6.3 kB pushes to ~550 B instead of ~1,560 B, Ice and Snow
~14.8 kB to ~1,630 B instead of ~3,050 B, and at level 1 in 25–55 µs instead of
100–190 µs a message.  The price is memory: ~150 kB of zlib state per connection
instead of ~40 kB.  What clients send is tiny and keeps the small window.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

SERVER_WINDOW_BITS = 15
CLIENT_WINDOW_BITS = 12
COMPRESS_SETTINGS = {"memLevel": 5, "level": 1}


class DeflateWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (``ws="websockets-sansio"``) with the
    compression above; pass it as ``uvicorn.Config(ws=...)``."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:
            factory = ServerPerMessageDeflateFactory(
                server_max_window_bits=SERVER_WINDOW_BITS,
                client_max_window_bits=CLIENT_WINDOW_BITS,
                compress_settings=dict(COMPRESS_SETTINGS),
            )
            self.conn = ServerProtocol(
                extensions=[factory],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
