// The review page: the story with every proposal highlighted where it was read, the
// checklist, an editor for the selected proposal, and the draft's map. Every change is an
// edit the server applies through the scenario model (preview), and Save writes them.
// Every text from the story or the draft goes in with textContent: it is never markup.
"use strict";
(function () {
  const token = document.body.dataset.token;
  const STATUSES = JSON.parse(document.body.dataset.statuses);
  const $ = (id) => document.getElementById(id);
  let state = null;     // what the server last gave: the draft with the edits applied
  let base = null;      // the saved version the edits apply to
  let edits = [];       // edits not saved yet
  let selected = null;  // {kind, record}
  let picker = null;    // the Leaflet map a point is placed on

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children) node.append(child);
    return node;
  }

  async function call(path, body) {
    const options = body === undefined ? {headers: {"X-Routes-Token": token}} : {
      method: "POST", body: JSON.stringify(body),
      headers: {"X-Routes-Token": token, "Content-Type": "application/json"},
    };
    const response = await fetch(path, options);
    const data = await response.json().catch(() => ({error: "the server gave no answer"}));
    if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), data);
    return data;
  }

  function say(text, error) {
    $("status").textContent = text;
    $("status").className = error ? "error" : "";
  }

  let busy = false;  // one change at a time: the next one is made on what this one gives

  async function edit(change) {
    if (busy) { say("One moment: the last change is being applied."); return; }
    busy = true;
    document.body.classList.add("busy");
    edits.push(change);
    try {
      show(await call("api/preview", {version: base, edits}));
      say(`${edits.length} unsaved change${edits.length > 1 ? "s" : ""}`);
    } catch (err) {
      edits.pop();
      say(err.message, true);
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  async function save() {
    try {
      const saved = await call("api/save", {version: base, edits});
      edits = [];
      base = saved.version;
      show(saved);
      reloadMap();
      say(saved.draft ? "Saved. Still a draft: see the checklist." : "Saved: no review items left.");
    } catch (err) {
      say(err.message, true);
    }
  }

  function reloadMap() {
    $("map").src = `map?token=${token}&v=${base}`;
  }

  function names() {
    const all = {};
    for (const p of state.places) all[p.id] = p.name;
    for (const u of state.unresolved) all[u.id] = u.name + " (not placed)";
    return all;
  }

  function show(next) {
    if (state && selected && selected.record) selected = followed(selected, next);
    state = next;
    $("save").disabled = edits.length === 0 && next.version === base;
    for (const field of ["title", "publisher", "date", "url"]) {
      const input = $(field);
      if (document.activeElement !== input) input.value = next.story[field] || "";
    }
    drawChecklist();
    drawStory();
    drawAdd();
    drawEditor();
  }

  function followed(was, next) {
    // A movement whose ends are both set becomes a corridor: the selection follows it.
    if (Object.values(next).some((v) => Array.isArray(v) && v.some((r) => r && r.id === was.record))) return was;
    const [, old] = find(was.record);
    const read = old && JSON.stringify(old.evidence || []);
    const now = old && next.corridors.find((c) => JSON.stringify(c.evidence || []) === read);
    return now ? {kind: "corridor", record: now.id} : was;
  }

  function drawChecklist() {
    const list = $("checklist");
    list.replaceChildren();
    $("count").textContent = `(${state.checklist.length})`;
    for (const item of state.checklist) {
      const row = el("li", {className: isSelected(item) ? "on" : ""});
      const text = el("span", {className: "item", textContent: item.text, tabIndex: 0});
      text.addEventListener("click", () => select(item.kind, item.record));
      const done = el("button", {type: "button", textContent: "Done", title: "Checked: remove from the list"});
      done.addEventListener("click", () => edit({op: "resolve", item: item.text}));
      row.append(text, done);
      list.append(row);
    }
  }

  function isSelected(item) {
    return selected && item.record && item.record === selected.record;
  }

  function drawStory() {
    const box = $("story");
    box.replaceChildren();
    if (state.text === null) {
      box.append(el("p", {className: "hint", textContent: "The story's text was not found beside the draft: pass --story FILE to see it here."}));
      return;
    }
    const text = state.text, spans = state.spans;
    const cuts = new Set([0, text.length]);
    for (const s of spans) { cuts.add(s.start); cuts.add(s.end); }
    const points = [...cuts].sort((a, b) => a - b);
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i], points[i + 1]];
      const over = spans.filter((s) => s.start <= a && s.end >= b);
      if (!over.length) { box.append(text.slice(a, b)); continue; }
      const top = over.reduce((x, y) => (y.end - y.start < x.end - x.start ? y : x));
      const node = el("span", {className: `hl ${top.kind}`, textContent: text.slice(a, b)});
      node.dataset.record = top.record;
      if (selected && top.record === selected.record) node.classList.add("on");
      node.title = top.kind === "figure" ? `a figure (${top.what}) of ${top.record}` : `${top.kind}: ${top.record}`;
      const kind = top.kind === "figure" ? recordKind(top.record) : top.kind;
      node.addEventListener("click", () => select(kind, top.record));
      box.append(node);
    }
  }

  function recordKind(id) {
    for (const kind of ["corridor", "movement", "vehicles", "incident"]) {
      if (state[kind === "vehicles" ? "vehicles" : kind + "s"].some((r) => r.id === id)) return kind;
    }
    return "movement";
  }

  function options(select, entries, chosen, blank) {
    select.replaceChildren(el("option", {value: "", textContent: blank || "—"}));
    for (const [value, label] of entries) {
      select.append(el("option", {value, textContent: label, selected: value === chosen}));
    }
  }

  function drawAdd() {
    const places = state.places.map((p) => [p.id, p.name]);
    options($("add-origin"), places, $("add-origin").value);
    options($("add-destination"), places, $("add-destination").value);
  }

  function select(kind, record) {
    selected = {kind, record};
    closePicker();
    drawChecklist();
    drawStory();
    drawEditor();
  }

  function find(id) {
    for (const section of ["places", "unresolved", "corridors", "movements", "vehicles", "incidents"]) {
      const found = state[section].find((r) => r.id === id);
      if (found) return [section, found];
    }
    return [null, null];
  }

  function drawEditor() {
    const box = $("editor");
    box.replaceChildren();
    if (!selected || !selected.record) {
      box.append(el("p", {className: "hint", textContent: selected && selected.kind === "story"
        ? "Set the story's title, publisher, date and URL at the top." : "Nothing selected."}));
      return;
    }
    const [section, record] = find(selected.record);
    if (!record) {
      box.append(el("p", {className: "hint", textContent: `${selected.record} is no longer in the draft.`}));
      return;
    }
    if (section === "places" || section === "unresolved") placeEditor(box, record, section);
    else movementEditor(box, record, section);
  }

  function placeEditor(box, place, section) {
    const where = section === "places"
      ? `${place.detail || ""} · ${place.lat.toFixed(4)}, ${place.lon.toFixed(4)}` : "not placed: no gazetteer has it";
    box.append(el("h3", {textContent: place.name}), el("p", {className: "hint", textContent: where}));
    const list = el("ul", {className: "cands", id: "candidates"});
    const search = el("input", {placeholder: "Look up another name", value: place.name, id: "lookup"});
    const go = el("button", {type: "button", textContent: "Look up"});
    const pin = el("button", {type: "button", textContent: "Place on the map", id: "pin"});
    box.append(el("p", {className: "hint", textContent: "Pick the place the story means:"}), list,
      el("div", {className: "row"}, search, go, pin));
    const load = () => loadCandidates(list, place, search.value);
    go.addEventListener("click", load);
    search.addEventListener("keydown", (e) => { if (e.key === "Enter") load(); });
    pin.addEventListener("click", () => openPicker(place));
    load();
  }

  async function loadCandidates(list, place, name) {
    list.replaceChildren(el("li", {className: "hint", textContent: "Looking up…"}));
    const near = place.lat === undefined ? "" : `&lat=${place.lat}&lon=${place.lon}`;
    try {
      const found = await call(`api/candidates?name=${encodeURIComponent(name)}${near}`);
      list.replaceChildren();
      if (!found.length) list.append(el("li", {className: "hint", textContent: "No gazetteer has this name: place it on the map."}));
      for (const c of found) {
        const far = c.km === null ? "" : c.km === 0 ? " · here now" : ` · ${c.km.toLocaleString("en")} km away`;
        const people = c.population ? ` · pop. ${c.population.toLocaleString("en")}` : "";
        const label = `${c.name} · ${c.country || "no country"} · ${c.kind}${people}${far}`;
        const button = el("button", {type: "button", textContent: label, className: c.km === 0 ? "current" : ""});
        button.dataset.ref = c.ref;
        button.dataset.country = c.country || "";
        button.addEventListener("click", () => edit({op: "choose_place", place: place.id, name, ref: c.ref}));
        list.append(el("li", {}, button));
      }
    } catch (err) {
      list.replaceChildren(el("li", {className: "warn", textContent: err.message}));
    }
  }

  function openPicker(place) {
    const box = $("picker");
    box.hidden = false;
    if (!picker) {
      picker = L.map(box, {attributionControl: true});
      L.tileLayer("https://tile.openstreetmap.org/{z}/{x}/{y}.png", {
        maxZoom: 18, attribution: "© OpenStreetMap contributors"}).addTo(picker);
    }
    picker.off("click");
    const at = place.lat === undefined ? [0, 0] : [place.lat, place.lon];
    picker.setView(at, place.lat === undefined ? 2 : 8);
    picker.invalidateSize();
    say(`Click the map where ${place.name} is.`);
    picker.on("click", (e) => {
      closePicker();
      edit({op: "place_point", place: place.id, lat: +e.latlng.lat.toFixed(5), lon: +e.latlng.lng.toFixed(5)});
    });
  }

  function closePicker() {
    $("picker").hidden = true;
  }

  function movementEditor(box, record, section) {
    const corridor = section === "corridors";
    const all = names();
    const ends = Object.entries(all);
    const origin = corridor ? record.origin : (record.origins || [])[0];
    const destination = corridor ? record.destination : (record.destinations || [])[0];
    box.append(el("h3", {textContent: record.name || `${all[origin] || "?"} to ${all[destination] || "?"}`}));
    if (section === "vehicles" || section === "incidents") {
      box.append(el("p", {className: "hint", textContent: section === "vehicles"
        ? "Vehicles that moved no one: kept for the key, never drawn as people."
        : record.description || ""}));
    } else {
      const from = el("select", {id: "origin"}), to = el("select", {id: "destination"});
      options(from, ends, origin, "not stated");
      options(to, ends, destination, "not stated");
      from.addEventListener("change", () => edit({op: "set_ends", record: record.id, origin: from.value || null}));
      to.addEventListener("change", () => edit({op: "set_ends", record: record.id, destination: to.value || null}));
      const swap = el("button", {type: "button", textContent: "Swap direction"});
      swap.addEventListener("click", () => edit({op: "swap", record: record.id}));
      const day = el("input", {type: "date", value: record.date || "", id: "record-date"});
      day.addEventListener("change", () => edit({op: "set_record", record: record.id, date: day.value}));
      box.append(el("div", {className: "row"}, el("label", {}, "From ", from), el("label", {}, "To ", to), swap),
        el("div", {className: "row"}, el("label", {}, "Date ", day)));
      if (corridor) {
        const status = el("select", {id: "record-status"});
        options(status, STATUSES.map((s) => [s, s]), record.status || "reported");
        status.addEventListener("change", () => edit({op: "set_record", record: record.id, status: status.value}));
        box.lastChild.append(el("label", {}, "Status ", status));
      } else {
        box.append(el("p", {className: "hint", textContent: "Set both ends to the story's places: it becomes a corridor and is routed."}));
      }
    }
    figureList(box, record);
    const reject = el("button", {type: "button", textContent: "Reject: the story reports no such thing"});
    reject.addEventListener("click", () => { selected = null; edit({op: "reject", record: record.id}); });
    box.append(el("div", {className: "row"}, reject));
  }

  function figureList(box, record) {
    const figures = record.figures || [];
    if (!figures.length) return;
    const list = el("ul", {className: "figures"});
    const targets = [...state.corridors, ...state.movements].filter((r) => r.id !== record.id);
    figures.forEach((f, index) => {
      const text = [f.qualifier, f.value.toLocaleString("en"), f.kind].filter(Boolean).join(" ");
      const detach = el("button", {type: "button", textContent: "Detach"});
      detach.dataset.figure = f.kind;
      detach.addEventListener("click", () => edit({op: "move_figure", record: record.id, index, to: null}));
      const move = el("select", {});
      options(move, targets.map((r) => [r.id, r.name || r.id]), "", "move to…");
      move.addEventListener("change", () => move.value && edit({op: "move_figure", record: record.id, index, to: move.value}));
      list.append(el("li", {}, el("span", {textContent: `${text}, according to ${f.according_to}`}), detach, move));
    });
    box.append(el("p", {className: "hint", textContent: "Figures read with it:"}), list);
  }

  function storyField(field) {
    $(field).addEventListener("change", () => {
      const value = $(field).value;
      if ((state.story[field] || "") !== value) edit({op: "set_story", [field]: value});
    });
  }

  ["title", "publisher", "date", "url"].forEach(storyField);
  $("save").addEventListener("click", save);
  $("add-go").addEventListener("click", () => {
    const origin = $("add-origin").value, destination = $("add-destination").value;
    if (origin && destination) edit({op: "add_movement", origin, destination});
  });
  window.addEventListener("beforeunload", (e) => { if (edits.length) e.preventDefault(); });

  call("api/draft").then((first) => {
    base = first.version;
    show(first);
    reloadMap();
    say(first.draft ? "A draft: work through the checklist, then Save." : "No review items left.");
  }).catch((err) => say(err.message, true));
})();
