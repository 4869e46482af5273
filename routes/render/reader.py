"""What the page does in the reader's browser: fit the story to the screen, place labels
without collisions, keep popups clear of the controls, and show corridors on their dates.

All of it depends on the screen, so it runs in the page. Python hands it plain data
(:func:`add_reader`); label texts go in as JSON and are written with ``textContent``,
never as HTML or template source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from routes.render.markup import script

if TYPE_CHECKING:
    import folium

__all__ = ["READER_JS", "add_reader"]

#: The page's own behaviour (constant: no story text in it).
READER_JS = """
function routesReader(map, data, groups, timeline) {
  const container = map.getContainer();
  const narrow = () => map.getSize().x < 600;
  const legend = document.querySelector('.routes-legend');
  if (legend && narrow()) legend.removeAttribute('open');

  function boxOf(el) {
    const c = container.getBoundingClientRect(), r = el.getBoundingClientRect();
    return {x: r.left - c.left, y: r.top - c.top, w: r.width, h: r.height};
  }
  function visible(el) {
    const s = getComputedStyle(el);
    return el.offsetParent !== null && s.display !== 'none' && s.visibility !== 'hidden';
  }
  function controls() {
    return [...document.querySelectorAll('.leaflet-control, .routes-title, .routes-legend')]
      .filter(visible).map(boxOf).filter(b => b.w > 2 && b.h > 2)
      .map(b => ({x: b.x - 3, y: b.y - 3, w: b.w + 6, h: b.h + 6}));
  }
  // How far the controls reach in from each side of the map. On a narrow screen the
  // controls in the corners are taken as bars across it: the width is too precious.
  function margins() {
    const size = map.getSize(), m = {top: 8, bottom: 8, left: 8, right: 8};
    for (const b of controls()) {
      const cx = b.x + b.w / 2, cy = b.y + b.h / 2;
      if (b.w > size.x * 0.6 || narrow()) {  // a bar across the map
        if (cy < size.y / 2) m.top = Math.max(m.top, b.y + b.h);
        else m.bottom = Math.max(m.bottom, size.y - b.y);
      } else if (cx < size.x / 3) m.left = Math.max(m.left, b.x + b.w);
      else if (cx > size.x * 2 / 3) m.right = Math.max(m.right, size.x - b.x);
      else if (cy < size.y / 2) m.top = Math.max(m.top, b.y + b.h);
      else m.bottom = Math.max(m.bottom, size.y - b.y);
    }
    m.top = Math.min(m.top, size.y * 0.3); m.bottom = Math.min(m.bottom, size.y * 0.3);
    m.left = Math.min(m.left, size.x * 0.3); m.right = Math.min(m.right, size.x * 0.3);
    return m;
  }
  // The credits run along the bottom of the map: the bottom-left controls (scale, time
  // bar) stand on them rather than under them wherever the two would meet.
  function clearCredits() {
    const credits = container.querySelector('.leaflet-control-attribution');
    const corner = container.querySelector('.leaflet-bottom.leaflet-left');
    if (!credits || !corner) return;
    corner.style.bottom = '';
    const c = boxOf(credits), k = boxOf(corner);
    if (visible(credits) && c.x < k.x + k.w && k.x < c.x + c.w && k.y + k.h > c.y) {
      corner.style.bottom = (map.getSize().y - c.y + 2) + 'px';
    }
  }
  let fitZoom = null;
  function fit() {
    if (!data.fit) return;
    clearCredits();
    const m = margins();
    map.fitBounds(data.fit, {paddingTopLeft: [m.left + 12, m.top + 12],
      paddingBottomRight: [m.right + 12, m.bottom + 12], animate: false});
    fitZoom = map.getZoom();
    place();
  }

  // Labels, most important first; a label that finds no free spot is not drawn.
  const pane = map.createPane('routes-labels');
  pane.style.zIndex = 640;
  pane.style.pointerEvents = 'none';
  const labels = data.labels.map(s => {
    const el = L.DomUtil.create('div', 'routes-label routes-label-' + s.kind, pane);
    el.textContent = s.text;
    el.dataset.kind = s.kind;
    if (s.colour) el.style.setProperty('--routes-colour', s.colour);
    return {s, el};
  });
  function shown(s) {
    if (s.zoom && fitZoom !== null && map.getZoom() < fitZoom + s.zoom) return false;
    return !s.layers || s.layers.every(k => !groups[k] || map.hasLayer(groups[k]));
  }
  function spots(s, w, h) {
    const r = (s.r || 0) + 3;
    if (s.kind !== 'place') {
      return [[-w / 2, -h / 2], [-w / 2, -h - 8], [-w / 2, 8], [10, -h / 2], [-w - 10, -h / 2],
              [10, 8], [10, -h - 8], [-w - 10, 8], [-w - 10, -h - 8],
              [-w / 2, 24], [-w / 2, -h - 24], [10, 24], [-w - 10, 24], [10, -h - 24],
              [-w / 2, -h - 40], [-w / 2, 40]];
    }
    return [[r, -h / 2], [-r - w, -h / 2], [-w / 2, -r - h], [-w / 2, r],
            [r - 2, -r - h + 2], [r - 2, r - 2], [-r - w + 2, -r - h + 2], [-r - w + 2, r - 2]];
  }
  const hit = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  // The corridor lines on screen, as points, each with the room its stroke and offset take.
  function corridorLines() {
    return Object.keys(data.corridors || {}).map(id => groups['line:' + id])
      .filter(l => l && map.hasLayer(l)).map(l => ({
        pad: Math.abs(l.options.offset || 0) + (l.options.weight || 3) / 2 + 2,
        pts: l.getLatLngs().map(p => map.latLngToContainerPoint(p)),
      }));
  }
  const crosses = (line, b) => line.pts.some((p, i) => i > 0 && L.LineUtil.clipSegment(
    line.pts[i - 1], p, L.bounds([b.x - line.pad, b.y - line.pad],
                                 [b.x + b.w + line.pad, b.y + b.h + line.pad])));
  function place() {
    const size = map.getSize(), taken = controls(), lines = corridorLines();
    const dots = labels.filter(l => l.s.r && shown(l.s)).map(l => {
      const p = map.latLngToContainerPoint(l.s.at[0]), r = l.s.r;
      return {x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r};
    });
    for (const l of labels) {
      l.el.style.display = 'none';
      if (!shown(l.s)) continue;
      l.el.style.display = '';
      const w = l.el.offsetWidth, h = l.el.offsetHeight;
      const free = b => b.x >= 2 && b.y >= 2 && b.x + w <= size.x - 2 && b.y + h <= size.y - 2
        && !taken.some(t => hit(t, b)) && !dots.some(d => hit(d, b));
      const boxes = l.s.at.flatMap(at => {
        const p = map.latLngToContainerPoint(at);
        return spots(l.s, w, h).map(([dx, dy]) => ({x: p.x + dx, y: p.y + dy, w, h}));
      }).filter(free);
      // a name clear of the corridor lines where there is room, else beside them (a
      // corridor's own label sits on its line)
      const best = (l.s.kind === 'corridor' ? null
        : boxes.find(b => !lines.some(line => crosses(line, b)))) || boxes[0];
      if (!best) { l.el.style.display = 'none'; continue; }
      taken.push({x: best.x - 2, y: best.y - 2, w: best.w + 4, h: best.h + 4});
      L.DomUtil.setPosition(l.el, map.containerPointToLayerPoint([best.x, best.y]).round());
    }
  }
  map.on('zoomstart', () => { pane.style.visibility = 'hidden'; });
  map.on('moveend zoomend resize overlayadd overlayremove layeradd layerremove', () => {
    pane.style.visibility = '';
    clearCredits();
    place();
  });
  if (legend) legend.addEventListener('toggle', place);

  // Popups: as wide as the screen allows, panned clear of the controls.
  map.on('popupopen', e => {
    const p = e.popup, size = map.getSize(), m = margins();
    const wide = size.x - m.left - m.right - 60;  // the bubble's padding and tip aside
    p.options.maxWidth = Math.max(200, Math.min(420, wide));
    p.options.minWidth = Math.min(240, p.options.maxWidth);
    p.options.maxHeight = Math.max(160, Math.min(360, size.y - m.top - m.bottom - 60));
    p.options.autoPanPaddingTopLeft = L.point(m.left + 8, m.top + 8);
    p.options.autoPanPaddingBottomRight = L.point(m.right + 8, m.bottom + 8);
    p.update();
  });

  // The time control shows each corridor on the days it ran, styled by its status that
  // day, its label giving that day's figure.
  const parent = groups.corridors;
  function showTime(t) {
    for (const [id, days] of Object.entries(data.corridors)) {
      const g = groups[id], line = groups['line:' + id], flow = groups['flow:' + id];
      if (!g || !parent || !days.length) continue;
      const day = (t === null || t === undefined) ? null
        : days.find(d => t >= d[0] && t <= d[1]);
      if (day === undefined) {
        if (parent.hasLayer(g)) parent.removeLayer(g);
        continue;
      }
      if (!parent.hasLayer(g)) parent.addLayer(g);
      if (!day) continue;
      if (line) line.setStyle({dashArray: day[2], opacity: day[3]});
      if (flow && day[2] && g.hasLayer(flow)) g.removeLayer(flow);
      if (flow && !day[2] && !g.hasLayer(flow)) g.addLayer(flow);
      const label = labels.find(l => l.s.id === id);
      if (label) label.el.textContent = day[4];
    }
    place();
  }
  if (timeline) {
    timeline.on('change', () => showTime(timeline.time));
    showTime(timeline.time);
  }
  // The folded search box opens from the keyboard: on Enter's release, or the release
  // reaches the box it just focused, which takes it for an empty search and folds it.
  for (const b of container.querySelectorAll('.leaflet-control-search .search-button')) {
    b.addEventListener('keydown', e => { if (e.key === 'Enter') e.preventDefault(); });
    b.addEventListener('keyup', e => { if (e.key === 'Enter') b.click(); });
  }
  map.routesFit = fit;
  map.routesPlaceLabels = place;
  fit();
}
"""


def add_reader(
    m: folium.Map,
    data: dict[str, Any],
    groups: dict[str, Any],
    timeline: Any | None,
) -> None:
    """Run :data:`READER_JS` on the map with ``data`` (labels, view, corridor dates).

    ``groups`` maps keys the data refers to (corridor ids, ``"corridors"``, layer keys)
    to the folium layers they name; ``timeline`` is the layer the time slider drives.
    """
    m.add_child(
        script(
            "{{ this.js }}\n"  # our constant code, printed as a value, never template source
            "routesReader({{ this._parent.get_name() }}, {{ this.data|tojson }}, { "
            "{% for key, layer in this.groups %}{{ key|tojson }}: {{ layer.get_name() }},"
            "{% endfor %}}, {{ this.timeline.get_name() if this.timeline else 'null' }});",
            js=READER_JS,
            data=data,
            groups=sorted(groups.items()),
            timeline=timeline,
        )
    )
