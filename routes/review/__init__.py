"""``routes review``: a local web page to check a draft against its story and fix it.

The page (:mod:`~routes.review.server`, with its own ``review.html``, ``review.js`` and
``review.css``; Leaflet from the installed package the map takes it from) shows the story
with every proposal highlighted where it was read, the draft's checklist (its ``review``
items), an editor for the selected proposal, and the draft's map. Each change is an edit
(:mod:`~routes.review.edits`) applied through the scenario model; saving writes the
scenario YAML atomically and redraws the map. What the page shows is plain data
(:mod:`~routes.review.state`), put in as text.
"""

from routes.review.edits import EditError, apply, apply_all
from routes.review.server import HOST, Session, app, bind, serve
from routes.review.state import candidates, checklist, page_state

__all__ = [
    "HOST",
    "EditError",
    "Session",
    "app",
    "apply",
    "apply_all",
    "bind",
    "candidates",
    "checklist",
    "page_state",
    "serve",
]
