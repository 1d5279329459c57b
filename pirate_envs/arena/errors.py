"""The one error type the arena's request handlers raise: an HTTP status and a message for the browser."""

from __future__ import annotations


class ApiError(Exception):
    """A request the arena refuses: sent to the browser as ``{"error": message}`` with ``status`` (4xx)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
