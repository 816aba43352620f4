"""The one error the server's parts raise at a client: an HTTP status and a message.

It lives apart from the service so that the input checks (:mod:`erebus.server.inputs`,
:mod:`erebus.server.guard`), the table and the lobby can raise it without importing
the service that ties them together."""

from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
