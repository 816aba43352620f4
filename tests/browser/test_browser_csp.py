"""The web client and the offline /docs under the server's Content-Security-Policy:
Chromium reports a blocked script, style or connection as a console error, which
``new_page`` collects."""

from __future__ import annotations

from typing import Any


def test_pages_run_under_the_csp(server: Any, new_page: Any) -> None:
    created = server.create([{"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=2)
    home = new_page("home")
    response = home.goto(server.base + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    game = new_page("game")
    game.goto(server.base + created["seats"][0]["url"])
    game.locator("svg.board").wait_for()  # the module script ran and the socket opened
    docs = new_page("docs")
    docs.goto(server.base + "/docs")
    docs.locator(".opblock").first.wait_for()  # Swagger UI from this origin rendered
    assert docs.locator(".opblock").count() >= 5
    game.wait_for_timeout(300)
    assert not new_page.errors.errors, new_page.errors.errors
