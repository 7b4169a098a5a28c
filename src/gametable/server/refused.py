"""The server's refusal: :class:`Refused`, an error a person can read, sent to the
client that asked (over HTTP or its websocket) with a code, a translation key and a
status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gametable.core.errors import GameError
from gametable.core.i18n import translate


class Refused(Exception):
    """A request refused with a translatable message; nothing was changed.

    Attributes:
        code: a stable machine-readable reason (``"illegal_action"``, ``"seat_taken"``…).
        key, params: the catalog message and its parameters.
        rule: the rule ID for illegal actions, else ``None``.
        status: the HTTP status that fits (400, 403, 404, 409, 413, 429, 503).
        headers: HTTP headers the answer carries (``Retry-After``), if any.
    """

    def __init__(self, code: str, key: str, *, status: int = 400, rule: str | None = None,
                 retry_after: int | None = None,
                 headers: Mapping[str, str] | None = None, **params: Any) -> None:
        self.code = code
        self.key = key
        self.params = params
        self.rule = rule
        self.status = status
        self.retry_after = retry_after
        """For ``rate_limited`` (429): whole seconds until the request would pass."""
        self.headers = dict(headers or {})
        """More HTTP headers for the answer."""
        super().__init__(translate(key, **params))

    @classmethod
    def from_game_error(cls, error: GameError) -> Refused:
        """The refusal for a rules error: ``illegal_action``, ``malformed`` or ``bad_config``."""
        code = "malformed" if error.rule == "PROTOCOL" else (
            "bad_config" if isinstance(error, ValueError) else "illegal_action")
        return cls(code, error.key, rule=error.rule, **error.params)

    def to_json(self) -> dict[str, Any]:
        """The ``error`` message sent to the client (see ``docs/protocol.md``)."""
        return {"type": "error", "code": self.code, "rule": self.rule, "key": self.key,
                "params": self.params, "message": str(self)}
