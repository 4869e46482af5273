"""A page meant for an ``<iframe>`` in an article, and the snippet that embeds it.

In an article a map must not trap the reader's scrolling: the wheel zooms only after a
click on the map (or with Ctrl or ⌘ held; a hint says so), and on a touch screen one
finger scrolls the article until the map is tapped. The key starts folded, there is no
full-screen control, and the map fills its frame. The page tells the article the height
it wants for the frame's width (tall on a phone, wide on a desktop) as Datawrapper's
responsive embeds do: a ``postMessage`` of ``{"routes-height": {<story id>: <px>}}`` to
the host page, which the snippet's few lines of script apply to the frame that sent it.
It starts on its own Natural Earth base layer, so that it asks no tile server for
anything until the reader picks a basemap.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from routes.render.markup import markup, script

if TYPE_CHECKING:
    import folium

    from routes.scenario import Scenario

__all__ = ["EMBED_CSS", "EMBED_JS", "HEIGHT_MESSAGE", "add_embed", "snippet"]

#: The key of the message the page sends its host.
HEIGHT_MESSAGE = "routes-height"

EMBED_CSS = """
.routes-embed-hint{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);
  z-index:1100;padding:8px 14px;border-radius:4px;background:rgba(0,0,0,.72);color:#fff;
  font:14px/1.3 system-ui,sans-serif;pointer-events:none;opacity:0;transition:opacity .2s}
.routes-embed-hint.on{opacity:1}
"""

#: The page's behaviour in a frame (constant: the story's id comes as an argument).
EMBED_JS = """
function routesEmbed(map, id) {
  const box = map.getContainer();
  const legend = document.querySelector('.routes-legend');
  if (legend) legend.removeAttribute('open');
  map.scrollWheelZoom.disable();
  const touch = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
  if (touch) map.dragging.disable();
  const hint = L.DomUtil.create('div', 'routes-embed-hint', box);
  hint.setAttribute('aria-hidden', 'true');
  hint.textContent = touch ? 'Tap the map to move it'
    : 'Click the map to zoom with the wheel, or hold Ctrl (\\u2318) while scrolling';
  let timer = null;
  const tell = () => {
    hint.classList.add('on');
    clearTimeout(timer);
    timer = setTimeout(() => hint.classList.remove('on'), 1600);
  };
  box.addEventListener('wheel', e => {
    if (map.scrollWheelZoom.enabled()) return;
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      const at = map.mouseEventToContainerPoint(e);
      map.setZoomAround(at, map.getZoom() + (e.deltaY < 0 ? 0.5 : -0.5));
    } else tell();
  }, {passive: false});
  box.addEventListener('touchstart', e => {
    if (touch && e.touches.length === 1 && !map.dragging.enabled()) tell();
  }, {passive: true});
  const wake = () => { map.scrollWheelZoom.enable(); if (touch) map.dragging.enable(); };
  const rest = () => { map.scrollWheelZoom.disable(); if (touch) map.dragging.disable(); };
  map.on('click', wake);
  map.on('mouseout', () => map.scrollWheelZoom.disable());
  window.addEventListener('blur', rest);
  // The height the frame wants for its width: taller than wide on a phone.
  function post() {
    const w = document.documentElement.clientWidth;
    const h = Math.round(Math.max(360, Math.min(760, w < 600 ? w * 1.45 : w * 0.62)));
    if (window.parent !== window) window.parent.postMessage({'routes-height': {[id]: h}}, '*');
  }
  post();
  window.addEventListener('resize', post);
}
"""


def add_embed(m: folium.Map, story_id: str) -> None:
    """The page's behaviour in a frame (see the module); its story id names its messages."""
    root = m.get_root()
    root.header.add_child(markup()(f"<style>{EMBED_CSS}</style>"), name="routes_embed_css")  # type: ignore[attr-defined]
    m.add_child(
        script(
            "{{ this.js }}\nroutesEmbed({{ this._parent.get_name() }}, {{ this.id|tojson }});",
            js=EMBED_JS,
            id=story_id,
        )
    )


def snippet(scenario: Scenario, src: str) -> str:
    """The HTML to paste into an article: the frame, at the page's address ``src`` (its file
    name: change it to where the page is published), and the script that sets the frame's
    height from the page's messages. Every text in it is escaped."""
    story = scenario.story
    key = html.escape(story.id, quote=True)
    title = html.escape(f"Map: {story.title} ({story.publisher})", quote=True)
    return (
        f"<!-- routes map {key}: set src to the address where the page is published -->\n"
        f'<iframe src="{html.escape(src, quote=True)}" title="{title}" '
        f'data-routes-embed="{key}" loading="lazy" '
        'style="display:block;width:100%;height:520px;border:0"></iframe>\n'
        "<script>window.addEventListener('message',function(e){"
        f"var d=e.data&&e.data['{HEIGHT_MESSAGE}'];if(!d)return;"
        "document.querySelectorAll('iframe[data-routes-embed]').forEach(function(f){"
        "var h=d[f.getAttribute('data-routes-embed')];"
        "if(f.contentWindow===e.source&&h>0&&h<5000)f.style.height=h+'px';});});</script>\n"
    )
