"""Text into the page as data: escaping, our own scripts and overlays, reproducible ids.

Everything a story or a user wrote reaches the page through :func:`escape`, which
makes it inert both as HTML and inside the JavaScript template literals folium wraps
popups and tooltips in; blocks of HTML are values a template prints, never template
source.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

from routes.render.css import CSS, HATCH
from routes.text import for_display

if TYPE_CHECKING:
    import folium

__all__ = [
    "CSS",
    "add_head",
    "add_overlays",
    "escape",
    "markup",
    "script",
    "sequential_ids",
    "verbatim_rewraps",
]


def escape(text: object) -> str:
    """Make text inert in HTML and in a JavaScript template literal; drop bidi controls."""
    return (
        html.escape(for_display(str(text)), quote=True)
        .replace("`", "&#96;")
        .replace("$", "&#36;")
        .replace("\\", "&#92;")
    )


@contextmanager
def verbatim_rewraps() -> Iterator[None]:
    """While a page renders, text is never template source.

    branca renders each element and wraps the output, story text included, in a new
    ``Element(output)``, whose first argument it compiles as a Jinja template: so a
    name like ``{{ 7*7 }}`` would be evaluated and ``{% raw %}`` would break the page.
    Here those wraps print their text as it is.
    """
    import branca.element

    class Verbatim:
        def __init__(self, source: str) -> None:
            self.source = source

        def render(self, *args: object, **kwargs: object) -> str:
            return self.source

    original = branca.element.Template
    branca.element.Template = Verbatim  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        branca.element.Template = original  # type: ignore[misc]


@contextmanager
def sequential_ids() -> Iterator[None]:
    """Number branca elements 0, 1, 2… instead of random hex, for reproducible pages."""
    from branca.element import Element

    counter = itertools.count()
    original = Element.__dict__["_generate_id"]
    Element._generate_id = classmethod(lambda cls: f"{next(counter):06d}")  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Element._generate_id = original  # type: ignore[method-assign]


def add_head(m: folium.Map, title: str, description: str) -> None:
    """The page's ``<title>`` and ``<meta name="description">``, from plain text (escaped)."""
    meta = f'<meta name="description" content="{escape(description)}">'
    head = f"<title>{escape(title)}</title>{meta}"
    m.get_root().header.add_child(markup()(head), name="routes_head")  # type: ignore[attr-defined]


def add_overlays(m: folium.Map, *escaped_html: str) -> None:
    """Fixed HTML blocks over the map (title, legend, summary), already escaped, and their CSS.

    Each block is a value the page's template prints, never template source: a story's
    ``{{ … }}`` or ``{% … %}`` reaches the reader as the characters it is.
    """
    root = m.get_root()
    root.header.add_child(markup()(f"<style>{CSS}</style>"), name="routes_css")  # type: ignore[attr-defined]
    for i, block in enumerate(escaped_html):
        root.html.add_child(markup()(block), name=f"routes_overlay_{i}")  # type: ignore[attr-defined]
    root.html.add_child(markup()(HATCH), name="routes_hatch")  # type: ignore[attr-defined]


@cache
def markup() -> type:
    """A branca element that prints its ``markup`` as data (made on first use: branca is heavy)."""
    from branca.element import Element
    from jinja2 import Template

    class Markup(Element):
        _template = Template("{{ this.markup }}")

        def __init__(self, markup: str) -> None:
            super().__init__()
            self.markup = markup

    return Markup


def script(template: str, **values: Any) -> Any:
    """A script of our own in the page; ``values`` are what its Jinja template reads."""
    from branca.element import MacroElement
    from jinja2 import Template

    element = MacroElement()
    element._template = Template("{% macro script(this, kwargs) %}" + template + "{% endmacro %}")
    for name, value in values.items():
        setattr(element, name, value)
    return element
