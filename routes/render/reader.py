"""What the page does in the reader's browser: fit the story to the screen, place labels
without collisions, keep popups clear of the controls, and step through the story's days.

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
function routesReader(map, data, groups) {
  const container = map.getContainer();
  const narrow = () => map.getSize().x < 600;
  const legend = document.querySelector('.routes-legend');
  if (legend && narrow()) legend.removeAttribute('open');
  const days = data.days || [];
  let step = 0;

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
    // room beyond the outermost places for their names
    map.fitBounds(data.fit, {paddingTopLeft: [m.left + 36, m.top + 20],
      paddingBottomRight: [m.right + 36, m.bottom + 20], animate: false});
    fitZoom = map.getZoom();
    place();
  }

  // Labels, most important first; a label that finds no free spot is not drawn. Place
  // names go beside their marker, a corridor's name on its own line in the half nearer
  // its destination, an area's name inside it, touching it, or led to it by a line.
  const pane = map.createPane('routes-labels');
  pane.style.zIndex = 640;
  pane.style.pointerEvents = 'none';
  const svgNS = 'http://www.w3.org/2000/svg';
  const leaders = document.createElementNS(svgNS, 'svg');
  leaders.setAttribute('class', 'routes-leaders');
  leaders.setAttribute('aria-hidden', 'true');
  pane.appendChild(leaders);
  const labels = data.labels.map(s => {
    const el = L.DomUtil.create('div', 'routes-label routes-label-' + s.kind, pane);
    el.textContent = s.text;
    el.dataset.kind = s.kind;
    if (s.id) el.dataset.id = s.id;
    if (s.colour) el.style.setProperty('--routes-colour', s.colour);
    return {s, el};
  });
  function shown(s) {
    if (s.zoom && fitZoom !== null && map.getZoom() < fitZoom + s.zoom) return false;
    if (s.until && fitZoom !== null && map.getZoom() >= fitZoom + s.until) return false;
    return !s.layers || s.layers.every(k => !groups[k] || map.hasLayer(groups[k]));
  }
  function placeSpots(s, w, h) {
    const r = (s.r || 0) + 3;
    if (s.kind !== 'place' && s.kind !== 'town') {
      return [[-w / 2, -h / 2], [-w / 2, -h - 8], [-w / 2, 8], [10, -h / 2], [-w - 10, -h / 2],
              [10, 8], [10, -h - 8], [-w - 10, 8], [-w - 10, -h - 8],
              [-w / 2, 24], [-w / 2, -h - 24], [10, 24], [-w - 10, 24], [10, -h - 24],
              [-w / 2, -h - 40], [-w / 2, 40]];
    }
    const R = r + 9;  // a second ring, a little further out
    return [[r, -h / 2], [-r - w, -h / 2], [-w / 2, -r - h], [-w / 2, r],
            [r - 2, -r - h + 2], [r - 2, r - 2], [-r - w + 2, -r - h + 2], [-r - w + 2, r - 2],
            [R, -h / 2], [-R - w, -h / 2], [-w / 2, -R - h], [-w / 2, R],
            [r - 2, -R - h], [r - 2, R], [-r - w + 2, -R - h], [-r - w + 2, R],
            [-r, -r - h], [-r, r], [r - w, -r - h], [r - w, r],
            [-r, -R - h], [-r, R], [r - w, -R - h], [r - w, R],
            [-w / 2, -R - h - 9], [-w / 2, R + 9], [-r, -R - h - 9], [-r, R + 9],
            [r - w, -R - h - 9], [r - w, R + 9]];
  }
  // Points of a drawn line at fractions of its length, on screen (its offset included).
  function along(layer, fractions) {
    const el = layer && map.hasLayer(layer) && layer.getElement && layer.getElement();
    if (!el || !el.getTotalLength || !el.getAttribute('d')) return [];
    const n = el.getTotalLength(), m = el.getScreenCTM(), c = container.getBoundingClientRect();
    if (!n || !m) return [];
    return fractions.map(f => {
      const p = el.getPointAtLength(n * f);
      return {x: m.a * p.x + m.c * p.y + m.e - c.left, y: m.b * p.x + m.d * p.y + m.f - c.top};
    });
  }
  const ALONG = [0.72, 0.66, 0.78, 0.6, 0.84, 0.56, 0.9, 0.63, 0.69, 0.75, 0.81, 0.87,
                 0.53, 0.58, 0.93, 0.96];
  // Boxes for a label of size w x h: [box, the point a leader line joins, or null].
  function candidates(s, w, h) {
    if (s.kind === 'corridor') {  // on the line, the point inside the box, nearer its end
      const line = groups['line:' + s.id], [start, end] = along(line, [0, 1]);
      const gap = (b, p) => Math.hypot(b.x + b.w / 2 - p.x, b.y + b.h / 2 - p.y);
      return along(line, ALONG).flatMap(p =>
        [[0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75], [0.12, 0.5], [0.88, 0.5],
         [0.12, 0.15], [0.88, 0.15], [0.12, 0.85], [0.88, 0.85], [0.5, 0.1], [0.5, 0.9],
         [0.97, 0.8], [0.03, 0.2], [0.97, 0.2], [0.03, 0.8]]  // corners: beside the line
          .map(([fx, fy]) => [{x: p.x - w * fx, y: p.y - h * fy, w, h}, null]))
        .map(c => [c, !start || gap(c[0], end) < gap(c[0], start) ? 0 : 1])
        .sort((a, b) => a[1] - b[1]).map(([c]) => c);  // nearer its end first
    }
    if (s.box) {
      const a = map.latLngToContainerPoint(s.box[0]), b = map.latLngToContainerPoint(s.box[1]);
      const B = {x: Math.min(a.x, b.x), y: Math.min(a.y, b.y),
                 w: Math.abs(b.x - a.x), h: Math.abs(b.y - a.y)};
      const out = [];
      if (w <= B.w - 4 && h <= B.h - 4) {
        out.push([{x: B.x + (B.w - w) / 2, y: B.y + (B.h - h) / 2, w, h}, null]);
      }
      for (const t of [0.5, 0.2, 0.8, 0, 1]) {  // touching it, sliding along each side
        out.push([{x: B.x + B.w + 1, y: B.y + t * B.h - h / 2, w, h}, null]);
        out.push([{x: B.x - w - 1, y: B.y + t * B.h - h / 2, w, h}, null]);
        out.push([{x: B.x + t * B.w - w / 2, y: B.y - h - 1, w, h}, null]);
        out.push([{x: B.x + t * B.w - w / 2, y: B.y + B.h + 1, w, h}, null]);
      }
      const cx = B.x + B.w / 2, cy = B.y + B.h / 2;
      for (const d of [24, 44, 70]) {  // further out, joined to it by a leader line
        for (const [ux, uy] of [[1, 0], [-1, 0], [0, -1], [0, 1],
                                [1, -1], [1, 1], [-1, -1], [-1, 1]]) {
          const x = ux > 0 ? B.x + B.w + d : ux < 0 ? B.x - w - d : cx - w / 2;
          const y = uy > 0 ? B.y + B.h + d : uy < 0 ? B.y - h - d : cy - h / 2;
          out.push([{x, y, w, h}, B]);
        }
      }
      return out;
    }
    return s.at.flatMap(at => {
      const p = map.latLngToContainerPoint(at);
      const near = placeSpots(s, w, h).map(([dx, dy]) => [{x: p.x + dx, y: p.y + dy, w, h}, null]);
      if (s.kind !== 'place') return near;
      // further out, led to the marker by a line: a name no line crosses beats a near one
      const r = s.r || 0, dot = {x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r};
      const far = [];
      for (const d of [18, 32, 50]) {
        for (const [ux, uy] of [[1, 0], [-1, 0], [0, -1], [0, 1], [1, -1], [1, 1], [-1, -1],
                                [-1, 1]]) {
          const x = ux > 0 ? p.x + r + d : ux < 0 ? p.x - r - d - w : p.x - w / 2;
          const y = uy > 0 ? p.y + r + d : uy < 0 ? p.y - r - d - h : p.y - h / 2;
          far.push([{x, y, w, h}, dot]);
        }
      }
      return near.concat(far);
    });
  }
  const hit = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  // The corridor lines on screen, as points, each with the room its stroke and offset take.
  function corridorLines() {
    return Object.keys(data.corridors || {}).map(id => [id, groups['line:' + id]])
      .filter(([_id, l]) => l && map.hasLayer(l)).map(([id, l]) => ({
        id, pad: Math.abs(l.options.offset || 0) + (l.options.weight || 3) / 2 + 2,
        pts: l.getLatLngs().map(p => map.latLngToContainerPoint(p)),
      }));
  }
  // Whether a line passes through a label's box; for a corridor's label (``own``: its
  // line), a line that only runs along its own line there (a shared course) does not.
  const alongside = (q, own, d) => own.pts.some((o, i) => i > 0
    && L.LineUtil.pointToSegmentDistance(q, own.pts[i - 1], o) <= d);
  const crosses = (line, b, own) => line.pts.some((p, i) => {
    if (i === 0) return false;
    const inside = L.LineUtil.clipSegment(line.pts[i - 1], p, L.bounds(
      [b.x - line.pad, b.y - line.pad], [b.x + b.w + line.pad, b.y + b.h + line.pad]));
    if (!inside || !own) return !!inside;
    const [a, z] = inside, mid = a.add(z).divideBy(2);
    return ![a, mid, z].every(q => alongside(q, own, own.pad + line.pad + 6));
  });
  // Every marker on the map (places, incidents, arrowheads): no label covers one.
  function markers() {
    return [...container.querySelectorAll('.leaflet-routes-places-pane path, ' +
        '.leaflet-marker-icon.routes-incident svg, .leaflet-marker-icon.routes-arrow path')]
      .filter(e => getComputedStyle(e).display !== 'none')
      .map(boxOf).filter(b => b.w > 0 && b.h > 0);
  }
  function leader(box, B) {  // from the label's nearest edge to the area's nearest point
    const near = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
    const ax = near(B.x + B.w / 2, box.x, box.x + box.w);
    const ay = near(B.y + B.h / 2, box.y, box.y + box.h);
    const bx = near(ax, B.x, B.x + B.w), by = near(ay, B.y, B.y + B.h);
    const a = map.containerPointToLayerPoint([ax, ay]);
    const b = map.containerPointToLayerPoint([bx, by]);
    const line = document.createElementNS(svgNS, 'line');
    line.setAttribute('x1', a.x); line.setAttribute('y1', a.y);
    line.setAttribute('x2', b.x); line.setAttribute('y2', b.y);
    line.setAttribute('class', 'routes-leader');
    leaders.appendChild(line);
  }
  // A label wrapped on a narrow screen, as wide as its longest line rather than its box.
  function fitWidth(el) {
    el.style.width = '';
    const range = document.createRange();
    range.selectNodeContents(el);
    const lines = [...range.getClientRects()];
    if (lines.length > 1) el.style.width = Math.ceil(Math.max(...lines.map(r => r.width))) + 'px';
  }
  function place() {
    const size = map.getSize(), taken = controls(), lines = corridorLines(), dots = markers();
    leaders.replaceChildren();
    for (const l of labels) {
      l.el.style.display = 'none';
      if (!shown(l.s)) continue;
      l.el.style.display = '';
      if (l.s.kind === 'corridor') fitWidth(l.el);
      const w = l.el.offsetWidth, h = l.el.offsetHeight;
      const free = b => b.x >= 2 && b.y >= 2 && b.x + w <= size.x - 2 && b.y + h <= size.y - 2
        && !taken.some(t => hit(t, b)) && !dots.some(d => hit(d, b));
      const boxes = candidates(l.s, w, h).filter(([b]) => free(b));
      // a name clear of the corridor lines (a corridor's own label sits on its own line,
      // clear of the others); a leader line only when nothing near is clear. A place's
      // name crosses a line only when no spot is clear; the context's names never do.
      const own = l.s.kind === 'corridor' ? lines.find(line => line.id === l.s.id) : null;
      const clear = ([b]) => !lines.some(line => line.id !== l.s.id && crosses(line, b, own));
      const best = boxes.find(c => !c[1] && clear(c)) || boxes.find(clear)
        || (l.s.clear ? null : boxes[0]);
      if (!best) { l.el.style.display = 'none'; continue; }
      const [b, joined] = best;
      taken.push({x: b.x - 2, y: b.y - 2, w: b.w + 4, h: b.h + 4});
      L.DomUtil.setPosition(l.el, map.containerPointToLayerPoint([b.x, b.y]).round());
      if (joined) leader(b, joined);
    }
  }
  map.on('zoomstart', () => { pane.style.visibility = 'hidden'; });
  map.on('moveend zoomend resize overlayadd overlayremove layeradd layerremove', () => {
    pane.style.visibility = '';
    clearCredits();
    place();
  });
  if (legend) legend.addEventListener('toggle', place);

  // Each corridor's state on the day shown: the last change at or before that step;
  // [step] alone means it is not drawn that day.
  const stateOf = id => {
    const states = (data.corridors || {})[id] || [];
    let found = null;
    for (const s of states) if (s[0] <= step) found = s;
    return found;
  };
  // Popups: as wide as the screen allows, panned clear of the controls, and saying how a
  // corridor stood on the day the time bar shows.
  function liven(root) {
    const box = root && root.querySelector('[data-corridor]');
    const state = box && stateOf(box.dataset.corridor);
    if (!state || state.length < 2) return;
    const status = box.querySelector('[data-live="status"]');
    const said = box.querySelector('[data-live="said"]');
    if (status) status.textContent = state[3] + ' (' + days[step] + ')';
    if (said) said.textContent = state[4];
  }
  map.on('popupopen', e => {
    const p = e.popup, size = map.getSize(), m = margins();
    const wide = size.x - m.left - m.right - 60;  // the bubble's padding and tip aside
    p.options.maxWidth = Math.max(200, Math.min(420, wide));
    p.options.minWidth = Math.min(240, p.options.maxWidth);
    p.options.maxHeight = Math.max(160, Math.min(360, size.y - m.top - m.bottom - 60));
    p.options.autoPanPaddingTopLeft = L.point(m.left + 8, m.top + 8);
    p.options.autoPanPaddingBottomRight = L.point(m.right + 8, m.bottom + 8);
    liven(p.getElement());  // before the update, which sizes and pans it as it will read
    p.update();
  });

  // The time bar: one step a day. Each corridor is drawn on the days it ran, styled by
  // its status that day; its label, its key entry and its popup give that day's figure.
  function showDay(to) {
    step = Math.max(0, Math.min(days.length - 1, to));
    for (const id of Object.keys(data.corridors || {})) {
      const g = groups[id], line = groups['line:' + id], flow = groups['flow:' + id];
      const parent = groups['parent:' + id] || groups.corridors, state = stateOf(id);
      if (!g || !parent || !state) continue;
      const item = legend && legend.querySelector('li[data-corridor="' + CSS.escape(id) + '"]');
      if (state.length < 2) {
        if (parent.hasLayer(g)) parent.removeLayer(g);
        if (item) item.classList.add('routes-off');
        continue;
      }
      if (!parent.hasLayer(g)) parent.addLayer(g);
      if (item) {
        item.classList.remove('routes-off');
        item.querySelector('.routes-day').textContent = state[4];
      }
      if (line) line.setStyle({dashArray: state[1], opacity: state[2]});
      if (flow && state[1] && g.hasLayer(flow)) g.removeLayer(flow);
      if (flow && !state[1] && !g.hasLayer(flow)) g.addLayer(flow);
      const label = labels.find(l => l.s.id === id);
      if (label) label.el.textContent = label.s.prefix + state[4];
    }
    for (const [id, [first, last]] of Object.entries(data.incidents || {})) {
      const marker = groups['incident:' + id];
      if (marker) marker.setOpacity(step >= first && step <= last ? 1 : 0.35);
    }
    if (bar) {
      bar.slider.value = step;
      bar.slider.setAttribute('aria-valuetext', days[step]);
      bar.text.textContent = days[step];
      bar.prev.disabled = step === 0;
      bar.next.disabled = step === days.length - 1;
    }
    liven(container.querySelector('.leaflet-popup'));
    map.fire('routes:day', {step});
    place();
  }
  let bar = null, playing = null;
  // The buttons' shapes, drawn: no icon font to fetch, no glyph a font may lack.
  const svg = d => '<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">' +
    '<path d="' + d + '" fill="currentColor"/></svg>';
  const ICONS = {prev: svg('M3 3h2v10H3zM14 3v10L6 8z'), next: svg('M11 3h2v10h-2zM2 3v10l8-5z'),
                 play: svg('M4 2v12l10-6z'), pause: svg('M3 2h4v12H3zM9 2h4v12H9z')};
  function stop() {
    if (playing) clearInterval(playing);
    playing = null;
    if (bar) { bar.play.innerHTML = ICONS.play; bar.play.setAttribute('aria-label', 'Play'); }
  }
  if (days.length) {
    const Bar = L.Control.extend({options: {position: 'bottomleft'}, onAdd() {
      const div = L.DomUtil.create('div', 'leaflet-control routes-timebar');
      div.setAttribute('role', 'group');
      div.setAttribute('aria-label', 'Day of the story');
      const button = (name, label, shape) => {
        const b = L.DomUtil.create('button', 'routes-' + name, div);
        b.type = 'button'; b.title = label; b.innerHTML = ICONS[shape];
        b.setAttribute('aria-label', label);
        return b;
      };
      const prev = button('prev', 'Previous day', 'prev');
      const play = button('play', 'Play', 'play');
      const next = button('next', 'Next day', 'next');
      const slider = L.DomUtil.create('input', 'routes-day-slider', div);
      Object.assign(slider, {type: 'range', min: 0, max: days.length - 1, step: 1,
                             value: data.start || 0});
      slider.setAttribute('aria-label', 'Day');
      const text = L.DomUtil.create('output', 'routes-day-text', div);
      L.DomEvent.disableClickPropagation(div);
      L.DomEvent.disableScrollPropagation(div);
      prev.addEventListener('click', () => { stop(); showDay(step - 1); });
      next.addEventListener('click', () => { stop(); showDay(step + 1); });
      slider.addEventListener('input', () => { stop(); showDay(+slider.value); });
      play.addEventListener('click', () => {
        if (playing) { stop(); return; }
        if (step === days.length - 1) showDay(0);
        play.innerHTML = ICONS.pause; play.setAttribute('aria-label', 'Pause');
        playing = setInterval(() => {
          if (step >= days.length - 1) stop(); else showDay(step + 1);
        }, 1200);
      });
      bar = {prev, play, next, slider, text};
      return div;
    }});
    new Bar().addTo(map);
  }
  // The folded search box opens from the keyboard: on Enter's release, or the release
  // reaches the box it just focused, which takes it for an empty search and folds it.
  for (const b of container.querySelectorAll('.leaflet-control-search .search-button')) {
    b.addEventListener('keydown', e => { if (e.key === 'Enter') e.preventDefault(); });
    b.addEventListener('keyup', e => { if (e.key === 'Enter') b.click(); });
  }
  map.routesFit = fit;
  map.routesPlaceLabels = place;
  map.routesShowDay = showDay;
  window.routesMap = map;  // for scripts that print or test the page
  fit();
  if (days.length) showDay(data.start || 0);
}
"""


def add_reader(m: folium.Map, data: dict[str, Any], groups: dict[str, Any]) -> None:
    """Run :data:`READER_JS` on the map with ``data`` (labels, view, the days of the time
    bar, each corridor's and incident's states on them).

    ``groups`` maps keys the data refers to (corridor ids, ``"corridors"``, layer keys)
    to the folium layers they name.
    """
    m.add_child(
        script(
            "{{ this.js }}\n"  # our constant code, printed as a value, never template source
            "routesReader({{ this._parent.get_name() }}, {{ this.data|tojson }}, { "
            "{% for key, layer in this.groups %}{{ key|tojson }}: {{ layer.get_name() }},"
            "{% endfor %}});",
            js=READER_JS,
            data=data,
            groups=sorted(groups.items()),
        )
    )
