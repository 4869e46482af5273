"""The review page's local web server: Starlette, served by uvicorn on 127.0.0.1 only.

Like Jupyter's, it takes a secret token per run, in the URL it prints; every request
without it (in the query, or the ``X-Routes-Token`` header) is refused with 403, and
writes take it only in the header, with a JSON body, from the page's own origin (a form
or page of another site can send neither: CSRF-safe). The ``Host`` must be this machine
(no DNS rebinding). Saves carry the version of the draft they were made on: a save over
a draft that changed since (another tab saved) is refused and the page told; the file is
replaced atomically, under a lock, so it is always whole. Nothing outside the draft's
folder is read or written.
"""

from __future__ import annotations

import errno
import hashlib
import json
import secrets
import socket
import threading
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routes import scenario as scenarios
from routes._io import MAX_SCENARIO_BYTES, inside, read_input, write_atomically
from routes.errors import RoutesError, UsageError
from routes.review.edits import STATUSES, EditError, apply_all
from routes.review.state import candidates, lookup, page_state

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["HOST", "MAX_BODY_BYTES", "Session", "app", "bind", "serve"]

#: The one address the server listens on.
HOST = "127.0.0.1"
#: The largest request body read, bytes (a save is a list of small edits).
MAX_BODY_BYTES = 1 << 20
#: The page's own files (package data of ``routes.review``).
_STATIC = {"review.js": "text/javascript", "review.css": "text/css"}
#: Leaflet, from the installed package the map takes it from (never kept in the repo).
_LEAFLET = {
    "leaflet.js": "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js",
    "leaflet.css": "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.css",
}
_HEADERS = {
    "Referrer-Policy": "no-referrer",  # the token is in the URL: never sent on to tiles
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
_SHELL_POLICY = (
    "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; "
    "frame-src 'self'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'"
)


@dataclass
class Session:
    """One review: the draft file, the story's text (if known), the run's token."""

    draft: Path
    text: str | None
    token: str = field(default_factory=lambda: secrets.token_hex(24))
    lock: threading.Lock = field(default_factory=threading.Lock)
    maps: dict[str, bytes] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return self.draft.resolve().parent

    def read(self) -> tuple[scenarios.Scenario, str]:
        """The draft as saved now, and its version (the digest of its bytes)."""
        data = read_input(self.draft, limit=MAX_SCENARIO_BYTES, what="draft")
        return scenarios.from_bytes(data, name=self.draft.name), _digest(data)

    def edited(self, body: Any) -> tuple[scenarios.Scenario, str]:
        """The draft with the body's edits applied, if it is still the version they were
        made on; its version."""
        if not isinstance(body, dict) or not isinstance(body.get("edits"), list):
            raise EditError('expected {"version": ..., "edits": [...]}')
        scenario, version = self.read()
        if body.get("version") != version:
            raise _Stale()
        return apply_all(scenario, body["edits"][:500], lookup=lookup), version

    def save(self, body: Any) -> dict[str, Any]:
        """Apply and write the edits (under the lock: one save at a time); the new state."""
        with self.lock:
            scenario, _version = self.edited(body)
            target = self._target(body.get("path"))
            data = scenarios.dump(scenario).encode("utf-8")
            write_atomically(target, data)
            self.draft = target
        return page_state(scenario, self.text, _digest(data))

    def map_page(self) -> bytes:
        """The saved draft's map, as ``routes map --draft --offline`` draws it."""
        scenario, version = self.read()
        if version not in self.maps:
            from routes import pipeline

            html, _warnings, _complete = pipeline.map_html(scenario, offline=True)
            self.maps = {version: (html or "").encode("utf-8")}
        return self.maps[version]

    def _target(self, name: Any) -> Path:
        """Where a save goes: the draft, or a new YAML file name in its folder."""
        if name is None:
            return self.draft
        if (
            not isinstance(name, str)
            or "/" in name
            or "\\" in name
            or not name.endswith((".yaml", ".yml"))
        ):
            raise _Refused("save: a YAML file name in the draft's folder, without a path")
        return inside(self.folder, name)


class _Stale(RoutesError):
    """The draft changed since the page read it."""

    def __init__(self) -> None:
        super().__init__(
            "the draft was saved from another tab or program since this page read it; "
            "reload the page to see it (your unsaved changes are not kept)"
        )


class _Refused(RoutesError):
    """A request that names something outside what the page may touch."""


def app(session: Session, port: int) -> Starlette:
    """The Starlette application for ``session``, served at ``127.0.0.1:port``."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.routing import Route

    origins = {f"http://{HOST}:{port}", f"http://localhost:{port}"}

    async def guard(request: Request, call_next: Any) -> Response:
        from starlette.responses import PlainTextResponse

        header = request.headers.get("x-routes-token", "")
        given = header or (request.query_params.get("token", "") if request.method == "GET" else "")
        origin = request.headers.get("origin")
        writing = request.method != "GET"
        if (
            not secrets.compare_digest(given.encode(), session.token.encode())
            or (writing and (not header or (origin is not None and origin not in origins)))
            or (writing and request.headers.get("content-type") != "application/json")
        ):
            response: Response = PlainTextResponse(
                "forbidden: open the URL routes review printed", status_code=403
            )
        else:
            response = await call_next(request)
        response.headers.update(_HEADERS)
        return response

    from starlette.middleware.base import BaseHTTPMiddleware

    routes = [
        Route("/", lambda r: _shell(session), methods=["GET"]),
        Route("/static/{name}", _static, methods=["GET"]),
        Route(
            "/api/draft", lambda r: _answer(lambda: page_state(*_current(session))), methods=["GET"]
        ),
        Route("/api/candidates", lambda r: _answer(lambda: _candidates(r)), methods=["GET"]),
        Route("/api/preview", _endpoint(session, preview=True), methods=["POST"]),
        Route("/api/save", _endpoint(session, preview=False), methods=["POST"]),
        Route("/map", lambda r: _map(session), methods=["GET"]),
    ]
    return Starlette(
        routes=routes,
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=[HOST, "localhost"]),
            Middleware(BaseHTTPMiddleware, dispatch=guard),
        ],
    )


def _current(session: Session) -> tuple[scenarios.Scenario, str | None, str]:
    scenario, version = session.read()
    return scenario, session.text, version


def _endpoint(session: Session, *, preview: bool) -> Any:
    async def run(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            return _json({"error": "request too large"}, 413)
        try:
            body = json.loads(raw)
        except ValueError:
            return _json({"error": "not JSON"}, 400)
        from starlette.concurrency import run_in_threadpool

        def work() -> dict[str, Any]:
            if preview:
                scenario, version = session.edited(body)
                return page_state(scenario, session.text, version)
            return session.save(body)

        return await run_in_threadpool(_answer, work)

    return run


def _answer(work: Any) -> Response:
    """``work()`` as JSON; a user's error as ``{"error": ...}`` with its status."""
    try:
        return _json(work())
    except _Stale as exc:
        return _json({"error": str(exc), "stale": True}, 409)
    except _Refused as exc:
        return _json({"error": str(exc)}, 403)
    except (RoutesError, OSError) as exc:
        return _json({"error": " ".join(str(exc).split())[:400]}, 400)


def _json(value: Any, status: int = 200) -> Response:
    from starlette.responses import Response

    body = json.dumps(value, ensure_ascii=True).replace("<", "\\u003c")
    return Response(body, status_code=status, media_type="application/json")


def _candidates(request: Request) -> list[dict[str, Any]]:
    name = request.query_params.get("name", "")
    try:
        lat, lon = float(request.query_params["lat"]), float(request.query_params["lon"])
        near: tuple[float, float] | None = (lat, lon)
    except (KeyError, ValueError):
        near = None
    return candidates(name, near) if name.strip() else []


def _shell(session: Session) -> Response:
    from starlette.responses import HTMLResponse

    token = session.token  # hex: safe in a URL and an attribute as it is
    statuses = json.dumps(list(STATUSES)).replace('"', "&quot;")
    page = (files("routes.review") / "review.html").read_text(encoding="utf-8")
    page = page.replace("{{token}}", token).replace("{{statuses}}", statuses)
    return HTMLResponse(page, headers={"Content-Security-Policy": _SHELL_POLICY})


async def _static(request: Request) -> Response:
    from starlette.responses import Response

    from routes.render import assets

    name = request.path_params["name"]
    if name in _STATIC:
        body = (files("routes.review") / name).read_text(encoding="utf-8")
        return Response(body, media_type=_STATIC[name])
    if name in _LEAFLET:
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(assets.text(_LEAFLET[name]), media_type=kind)
    return Response("not found", status_code=404)


def _map(session: Session) -> Response:
    from starlette.responses import HTMLResponse

    try:
        return HTMLResponse(session.map_page(), headers={"X-Frame-Options": "SAMEORIGIN"})
    except RoutesError as exc:
        message = " ".join(str(exc).split())[:400]
        return HTMLResponse(_plain_page(message), status_code=200)


def _plain_page(message: str) -> str:
    import html

    return f"<!doctype html><p>The map cannot be drawn yet: {html.escape(message)}</p>"


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (``port`` 0: a free one); a busy port is one line."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(
                f"port {port} is in use; pass another --port, or leave it out for a free one"
            ) from None
        raise UsageError(f"cannot listen on {HOST}:{port} ({exc.strerror})") from None
    sock.listen(64)
    return sock


def serve(session: Session, sock: socket.socket) -> None:
    """Serve the review page on ``sock`` until Ctrl-C (uvicorn stops it cleanly)."""
    import uvicorn

    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app(session, port),
        log_level="warning",
        lifespan="off",
        access_log=False,
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
