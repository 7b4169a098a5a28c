"""Running the server with uvicorn (``gametable serve``)."""

from __future__ import annotations

import logging
from pathlib import Path

import uvicorn

from gametable.server.app import Settings, create_app
from gametable.server.quotas import UploadQuota

WS_MAX_FRAME_BYTES = 1024 * 1024
"""Frames above this are dropped by the websocket layer (close code 1009); smaller
messages above ``socket.MAX_MESSAGE_BYTES`` get a readable ``too_large`` error."""


def run(*, host: str, port: int, data_dir: Path, bot_delay: float = 0.8,
        public_url: str | None = None, static_dir: Path | None = None,
        upload_quota: UploadQuota | None = None) -> None:
    """Serve until interrupted; prints the address to open."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: "
                        "%(message)s")
    settings = Settings(data_dir=data_dir, bot_delay=bot_delay,
                        public_url=public_url.rstrip("/") if public_url else None,
                        upload_quota=upload_quota or UploadQuota())
    if static_dir is not None:
        settings.static_dir = static_dir
    app = create_app(settings)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"gametable: open http://{shown}:{port}/ in your browser "
          f"(data in {data_dir.resolve()})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_FRAME_BYTES,
                ws_per_message_deflate=False,
                ws_ping_interval=20, ws_ping_timeout=20)
