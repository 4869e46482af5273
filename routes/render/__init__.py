"""The interactive map: the story's places, corridors, incidents and areas as Folium layers.

:func:`build_map` assembles the layers (:mod:`~routes.render.layers`,
:mod:`~routes.render.places`, :mod:`~routes.render.timeline`) with their popups
(:mod:`~routes.render.popups`) and key (:mod:`~routes.render.legend`);
:func:`page` and :func:`save` write it as HTML, :func:`save_png` as a picture.
Story text reaches the page only through :func:`escape` (:mod:`~routes.render.markup`).
Render never routes: the corridor table and the graph carry all it draws.
"""

from __future__ import annotations

from routes.render.embed import snippet
from routes.render.markup import escape
from routes.render.page import Inline, build_map, page, save, view
from routes.render.png import save_png
from routes.render.style import (
    BORDER_COLOUR,
    CORRIDOR_PALETTE,
    NETWORK_COLOUR,
    OKABE_ITO,
    ROLE_STYLE,
    STATUS_STYLE,
)

__all__ = [
    "BORDER_COLOUR",
    "CORRIDOR_PALETTE",
    "NETWORK_COLOUR",
    "OKABE_ITO",
    "ROLE_STYLE",
    "STATUS_STYLE",
    "Inline",
    "build_map",
    "escape",
    "page",
    "save",
    "save_png",
    "snippet",
    "view",
]
