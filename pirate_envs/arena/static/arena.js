// pirate_envs arena page: plain JavaScript, no build step, no outside resources.
// Draws whatever TableView JSON the server sends (zones of cards) as SVG; never sees the game state.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const DELAYS = [1600, 900, 450, 180, 40]; // ms between bot moves for the speed slider 0..4
const $ = (id) => document.getElementById(id);

const arena = {
  meta: null,
  snap: null, // the last snapshot received
  viewer: null, // requested viewer: a seat number, "spectator" or null (the server's default)
  playing: false, // watch/replay: auto-advance
  timer: null,
  generation: 0, // bumps when a game is left, so late timers and answers are dropped
  busy: false,
  lastSetup: null,
};

// ---- talking to the server ------------------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `HTTP ${response.status}`);
  }
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function guarded(work) {
  // One request at a time per tab; errors are shown, the page stays usable.
  if (arena.busy) return;
  arena.busy = true;
  document.body.dataset.busy = "true";
  const generation = arena.generation;
  try {
    await work(generation);
  } catch (e) {
    if (generation === arena.generation) {
      showError(e.message);
      stopPlaying();
    }
  } finally {
    arena.busy = false;
    document.body.dataset.busy = "false";
  }
}

function viewerParam() {
  return arena.viewer === null || arena.viewer === undefined ? undefined : arena.viewer;
}

// ---- setup screen ---------------------------------------------------------------------------

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

function currentGameMeta() {
  return arena.meta.games.find((g) => g.env_id === $("game").value);
}

function fillGames() {
  const select = $("game");
  select.replaceChildren();
  for (const g of arena.meta.games) select.append(el("option", { value: g.env_id }, `${g.title} (${g.env_id})`));
  onGameChange();
}

function onGameChange() {
  const g = currentGameMeta();
  const players = $("players");
  players.replaceChildren();
  for (const n of g.player_counts) {
    const opt = el("option", { value: n }, String(n));
    if (n === g.player_counts[0]) opt.selected = true;
    players.append(opt);
  }
  const box = $("options");
  box.replaceChildren();
  for (const o of g.options) box.append(optionInput(o));
  fillSeats();
}

function optionInput(o) {
  const label = el("label", { title: o.doc || o.name });
  label.append(document.createTextNode(o.name.replaceAll("_", " ") + " "));
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox" });
    input.checked = !!o.default;
  } else if (o.choices && o.choices.length) {
    input = el("select");
    for (const c of o.choices) {
      const opt = el("option", { value: String(c) }, String(c));
      if (c === o.default) opt.selected = true;
      input.append(opt);
    }
  } else {
    input = el("input", { type: "number", min: o.minimum ?? undefined, max: o.maximum ?? undefined,
      step: o.kind === "int" ? "1" : "any" });
    input.value = o.default;
  }
  input.dataset.option = o.name;
  input.dataset.kind = o.kind;
  label.append(input);
  return label;
}

function readOptions() {
  const options = {};
  const g = currentGameMeta();
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const spec = g.options.find((o) => o.name === input.dataset.option);
    let value;
    if (spec.kind === "bool") value = input.checked;
    else if (spec.kind === "int") value = input.value === "" ? spec.default : parseInt(input.value, 10);
    else if (spec.kind === "float") value = input.value === "" ? spec.default : parseFloat(input.value);
    else value = spec.choices.length && typeof spec.choices[0] === "number" ? Number(input.value) : input.value;
    if (value !== spec.default) options[spec.name] = value;
  }
  return options;
}

function fillSeats() {
  const n = parseInt($("players").value, 10);
  const box = $("seats");
  box.replaceChildren();
  for (let seat = 0; seat < n; seat++) {
    const row = el("div", { class: "seat", "data-seat": seat });
    row.append(el("span", { class: "name" }, `player_${seat}`));
    const kind = el("select", { class: "kind", "aria-label": `policy of player_${seat}` });
    for (const p of arena.meta.policies) {
      if (p.kind === "checkpoint" && !arena.meta.checkpoints.length) continue;
      const opt = el("option", { value: p.kind }, p.label);
      if (p.kind === (seat === 0 ? "me" : "heuristic")) opt.selected = true;
      kind.append(opt);
    }
    const params = el("span", { class: "params" });
    kind.addEventListener("change", () => fillSeatParams(kind.value, params));
    row.append(kind, params);
    box.append(row);
    fillSeatParams(kind.value, params);
  }
}

function fillSeatParams(kind, box) {
  box.replaceChildren();
  const spec = arena.meta.policies.find((p) => p.kind === kind);
  if (kind === "checkpoint") {
    const env = $("game").value;
    const select = el("select", { class: "checkpoint", "aria-label": "checkpoint file" });
    const sorted = [...arena.meta.checkpoints].sort((a, b) => (b.path.includes(env) ? 1 : 0) - (a.path.includes(env) ? 1 : 0));
    for (const c of sorted) {
      select.append(el("option", { value: JSON.stringify(c) }, `${c.root}/${c.path}`));
    }
    box.append(select);
    return;
  }
  for (const f of (spec && spec.params) || []) {
    const label = el("label", {}, f.name.replaceAll("_", " ") + " ");
    let input;
    if (f.choices) {
      input = el("select");
      for (const c of f.choices) {
        const opt = el("option", { value: c }, c);
        if (c === f.default) opt.selected = true;
        input.append(opt);
      }
    } else {
      input = el("input", { type: "number", min: f.minimum, max: f.maximum, step: f.kind === "int" ? "1" : "any",
        placeholder: f.default === null ? "none" : String(f.default) });
      if (f.default !== null) input.value = f.default;
    }
    input.dataset.param = f.name;
    input.dataset.kind = f.kind;
    label.append(input);
    box.append(label);
  }
}

function readSeats() {
  const seats = [];
  for (const row of $("seats").querySelectorAll(".seat")) {
    const kind = row.querySelector(".kind").value;
    const spec = { kind };
    if (kind === "checkpoint") {
      const c = JSON.parse(row.querySelector(".checkpoint").value);
      spec.root = c.root;
      spec.path = c.path;
    }
    const params = {};
    for (const input of row.querySelectorAll("[data-param]")) {
      if (input.value === "") continue;
      params[input.dataset.param] = input.dataset.kind === "str" ? input.value : Number(input.value);
    }
    if (Object.keys(params).length) spec.params = params;
    seats.push(spec);
  }
  return seats;
}

async function startGame(setup) {
  await guarded(async () => {
    showError("");
    const snap = await api("POST", "/api/games", setup);
    arena.lastSetup = setup;
    enterTable(snap);
  });
}

function onStart(event) {
  event.preventDefault();
  const seed = $("seed").value;
  startGame({
    env_id: $("game").value,
    num_players: parseInt($("players").value, 10),
    options: readOptions(),
    seats: readSeats(),
    seed: seed === "" ? null : parseInt(seed, 10),
  });
}

async function loadReplays() {
  const data = await api("GET", "/api/replays");
  const list = $("replay-list");
  list.replaceChildren();
  if (!data.replays.length) list.append(el("li", { class: "hint" }, "no replay files yet"));
  for (const name of data.replays) {
    const item = el("li");
    const button = el("button", { type: "button", class: "replay", "data-path": name }, name);
    button.addEventListener("click", () => openReplay(name));
    item.append(button);
    list.append(item);
  }
}

async function openReplay(name) {
  await guarded(async () => {
    showError("");
    const snap = await api("POST", "/api/replays/open", { path: name, step: 0 });
    enterTable(snap);
  });
}

// ---- the table ------------------------------------------------------------------------------

function leaveTable() {
  arena.generation += 1;
  stopPlaying();
  const snap = arena.snap;
  arena.snap = null;
  if (snap) api("DELETE", `/api/games/${snap.id}`).catch(() => {});
  $("table").hidden = true;
  $("setup").hidden = false;
}

function enterTable(snap) {
  arena.generation += 1;
  arena.viewer = snap.viewer === null ? "spectator" : snap.viewer;
  arena.playing = false;
  $("setup").hidden = true;
  $("table").hidden = false;
  $("saved").textContent = "";
  const viewer = $("viewer");
  viewer.replaceChildren();
  for (const v of snap.viewers) {
    viewer.append(el("option", { value: String(v) }, v === "spectator" ? "spectator (public only)" : `player_${v}`));
  }
  viewer.value = String(arena.viewer);
  $("viewer-box").hidden = snap.mode === "play";
  $("watch-controls").hidden = snap.mode === "play";
  $("replay-controls").hidden = snap.mode !== "replay";
  $("step").hidden = snap.mode === "replay";
  $("save-replay").hidden = snap.mode === "replay" || !arena.meta.replays_dir;
  $("again").hidden = snap.mode === "replay";
  render(snap);
  if (snap.mode === "play") scheduleBots();
}

function render(snap) {
  arena.snap = snap;
  const view = snap.view;
  const table = $("table");
  table.dataset.finished = String(snap.finished);
  table.dataset.waiting = snap.waiting_for;
  table.dataset.mode = snap.mode;
  table.dataset.step = String(snap.step);
  $("title").textContent = view.title;
  const seats = snap.seats.map((s) => `${s.name}: ${s.policy}`).join(" · ");
  const who = snap.viewer === null ? "spectator view (public information only)" : `viewing as player_${snap.viewer}`;
  const modeText = { play: "You play", watch: "Watching bots", replay: `Replay ${snap.replay || ""}` }[snap.mode];
  $("mode").textContent = `${modeText} — ${who} — ${seats} — seed ${snap.seed}`;
  $("status").textContent = snap.error ? "Stopped by an error" : view.status;
  if (snap.error) showError(snap.error);

  const players = $("players-list");
  players.replaceChildren();
  view.players.forEach((line, seat) => {
    const item = el("li", {}, line);
    if (seat === snap.current_player) item.classList.add("current");
    if (seat === snap.viewer) item.classList.add("viewer");
    players.append(item);
  });
  $("last-action").textContent = view.last_action ? `Last move: ${view.last_action}` : "";
  drawBoard(view);
  renderActions(snap);
  renderLog(snap);
  renderGlossary(view);
  renderResult(snap);
  renderControls(snap);
}

function renderActions(snap) {
  const view = snap.view;
  $("decision").textContent = view.decision_help || "";
  const box = $("actions");
  box.replaceChildren();
  if (snap.mode === "play" && !snap.finished) {
    if (view.legal.length) {
      for (const a of view.legal) {
        const button = el("button", { type: "button", class: "action", "data-action": a.action, title: a.detail || a.label }, a.label);
        button.addEventListener("click", () => sendAction(a.action));
        button.addEventListener("mouseenter", () => showHelp(a.label, "", a.detail));
        button.addEventListener("focus", () => showHelp(a.label, "", a.detail));
        box.append(button);
      }
    } else {
      box.append(el("span", { class: "waiting" }, `Waiting for player_${snap.current_player}…`));
    }
  }
}

function renderLog(snap) {
  const log = $("log");
  log.replaceChildren();
  for (const line of snap.log) {
    const item = el("li", { value: line.step }, line.text);
    if (line.seat === snap.viewer) item.classList.add("mine");
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function renderGlossary(view) {
  const box = $("glossary");
  box.replaceChildren();
  for (const [term, meaning] of view.glossary) {
    box.append(el("dt", {}, term), el("dd", {}, meaning));
  }
  $("glossary-box").hidden = !view.glossary.length;
}

function renderResult(snap) {
  const box = $("result");
  const done = snap.finished && (snap.mode !== "replay" || snap.step === snap.total_steps);
  box.hidden = !done;
  if (!done) return;
  $("result-line").textContent = snap.error || (snap.result && snap.result.line) || "Game over";
  const scores = $("scores");
  scores.replaceChildren();
  if (snap.result) {
    const head = el("tr");
    head.append(el("th", {}, "seat"), el("th", {}, "played by"), el("th", {}, "score"), el("th", {}, ""));
    scores.append(head);
    snap.seats.forEach((s, i) => {
      const row = el("tr", { class: snap.result.winners.includes(i) ? "winner" : "" });
      row.append(el("td", {}, s.name), el("td", {}, s.policy), el("td", {}, String(snap.result.scores[i])),
        el("td", {}, snap.result.winners.includes(i) ? "winner" : ""));
      scores.append(row);
    });
  }
}

function renderControls(snap) {
  $("play").textContent = arena.playing ? "Pause" : "Play";
  if (snap.mode === "watch") {
    $("play").disabled = snap.finished;
    $("step").disabled = snap.finished || arena.playing;
  } else if (snap.mode === "replay") {
    const scrub = $("scrub");
    scrub.max = String(snap.total_steps);
    scrub.value = String(snap.step);
    $("step-count").textContent = `move ${snap.step} of ${snap.total_steps}`;
    $("first").disabled = $("back").disabled = snap.step === 0;
    $("fwd").disabled = $("last").disabled = snap.step === snap.total_steps;
    $("play").disabled = snap.step === snap.total_steps && !arena.playing;
  }
}

function showHelp(title, kind, detail) {
  const box = $("help");
  box.replaceChildren(el("b", {}, title + (kind ? ` (${kind})` : "")), document.createTextNode(detail || "no further detail"));
}

// ---- SVG drawing of a TableView -------------------------------------------------------------

const CARD_W = 118;
const CARD_H = 74;
const GAP = 8;
const PAD = 10;
const HEAD = 36;
const BOARD_W = 1000;

// A kind named after a colour ("Blue", "junk red") is drawn in that colour; any other kind gets a
// steady hue of its own, so cards of one kind (a suit, a nation) always look alike.
const NAMED_HUES = { red: 0, orange: 30, gold: 45, yellow: 55, green: 120, blue: 215, purple: 280, pink: 330 };

function cardFill(kind) {
  for (const word of String(kind || "").toLowerCase().split(/\s+/)) {
    if (word in NAMED_HUES) return `hsl(${NAMED_HUES[word]}, 65%, 84%)`;
    if (word === "white") return "hsl(40, 20%, 96%)";
    if (word === "black") return "hsl(220, 8%, 70%)";
  }
  let h = 0;
  for (const ch of kind || "") h = (h * 31 + ch.charCodeAt(0)) % 360;
  return `hsl(${h}, 55%, 85%)`;
}

function wrap(text, width, maxLines) {
  const words = String(text).split(/\s+/).filter(Boolean);
  const lines = [];
  let line = "";
  for (const w of words) {
    const next = line ? `${line} ${w}` : w;
    if (next.length <= width) line = next;
    else {
      if (line) lines.push(line);
      line = w.length > width ? w.slice(0, width - 1) + "…" : w;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = lines[maxLines - 1].slice(0, width - 1) + "…";
  }
  return lines;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function zoneSize(zone) {
  const n = Math.max(zone.cards.length, 1);
  const perRow = Math.min(n, 7);
  const rows = Math.ceil(n / perRow);
  const width = Math.min(BOARD_W, Math.max(230, perRow * (CARD_W + GAP) - GAP + 2 * PAD));
  return { perRow, width, height: HEAD + rows * (CARD_H + GAP) - GAP + PAD };
}

function drawCard(card, x, y) {
  const classes = ["card"];
  if (card.hidden) classes.push("hidden");
  if (card.highlight) classes.push("highlight");
  const g = svg("g", { class: classes.join(" "), transform: `translate(${x},${y})`, tabindex: "0" });
  const fill = card.hidden ? "" : cardFill(card.kind);
  const rect = svg("rect", { width: CARD_W, height: CARD_H, rx: 8, ry: 8 });
  if (fill) rect.setAttribute("fill", fill);
  g.append(rect);
  const tip = card.hidden ? `face down${card.kind ? " " + card.kind : ""}` : `${card.label} (${card.kind}): ${card.detail}`;
  g.append(svg("title", {}, tip));
  if (card.hidden) {
    g.append(svg("text", { x: CARD_W / 2, y: CARD_H / 2 + 5, "text-anchor": "middle" }, "?"));
    g.append(svg("text", { x: CARD_W / 2, y: CARD_H - 8, "text-anchor": "middle", class: "kind" }, card.kind || "hidden"));
  } else {
    wrap(card.label, 18, 3).forEach((line, i) => g.append(svg("text", { x: 7, y: 17 + i * 14 }, line)));
    g.append(svg("text", { x: 7, y: CARD_H - 7, class: "kind" }, card.kind));
  }
  const help = () => showHelp(card.hidden ? "Face-down card" : card.label, card.kind,
    card.hidden ? "You cannot see this card." : card.detail);
  g.addEventListener("mouseenter", help);
  g.addEventListener("focus", help);
  return g;
}

function drawBoard(view) {
  const board = $("board");
  board.replaceChildren();
  let x = 0;
  let y = 0;
  let lineHeight = 0;
  for (const zone of view.zones) {
    const size = zoneSize(zone);
    if (x > 0 && x + size.width > BOARD_W) {
      x = 0;
      y += lineHeight + GAP;
      lineHeight = 0;
    }
    const group = svg("g", { class: "zone", transform: `translate(${x},${y})` });
    const box = svg("rect", { class: "zone-box", width: size.width, height: size.height, rx: 6 });
    if (zone.owner !== null && zone.owner === view.viewer) box.classList.add("own");
    if (zone.owner !== null && zone.owner === view.current_player) box.classList.add("acting");
    group.append(box);
    group.append(svg("text", { class: "zone-title", x: PAD, y: 16 }, wrap(zone.title, 60, 1)[0] || ""));
    if (zone.note) group.append(svg("text", { class: "zone-note", x: PAD, y: 30 }, wrap(zone.note, Math.floor(size.width / 6), 1)[0]));
    if (!zone.cards.length) group.append(svg("text", { class: "empty", x: PAD, y: HEAD + 18 }, "(empty)"));
    zone.cards.forEach((card, i) => {
      const cx = PAD + (i % size.perRow) * (CARD_W + GAP);
      const cy = HEAD + Math.floor(i / size.perRow) * (CARD_H + GAP);
      group.append(drawCard(card, cx, cy));
    });
    board.append(group);
    x += size.width + GAP;
    lineHeight = Math.max(lineHeight, size.height);
  }
  const height = y + lineHeight + 2;
  board.setAttribute("viewBox", `-2 -2 ${BOARD_W + 4} ${height + 4}`);
}

// ---- moves, bots and the controls -----------------------------------------------------------

function delay() {
  return DELAYS[parseInt($("speed").value, 10)] ?? 450;
}

function stopPlaying() {
  arena.playing = false;
  if (arena.timer) clearTimeout(arena.timer);
  arena.timer = null;
  if (arena.snap) renderControls(arena.snap);
}

function scheduleBots() {
  // Play mode: bots move on their own, one at a time, so each move can be read as it happens.
  // Watch/replay mode: only while playing.
  const snap = arena.snap;
  if (!snap || arena.timer) return;
  const auto = snap.mode === "play" || arena.playing;
  if (!auto) return;
  if (snap.mode === "replay") {
    if (snap.step >= snap.total_steps) return stopPlaying();
  } else if (snap.waiting_for !== "bot") {
    if (snap.finished) stopPlaying();
    return;
  }
  const generation = arena.generation;
  arena.timer = setTimeout(async () => {
    arena.timer = null;
    if (generation !== arena.generation) return;
    if (snap.mode === "replay") await seek(arena.snap.step + 1);
    else await advance();
    if (generation === arena.generation) scheduleBots();
  }, delay());
}

async function sendAction(action) {
  await guarded(async (generation) => {
    showError("");
    const snap = await api("POST", `/api/games/${arena.snap.id}/action`, { action });
    if (generation !== arena.generation) return;
    render(snap);
  });
  scheduleBots();
}

async function advance() {
  await guarded(async (generation) => {
    const snap = await api("POST", `/api/games/${arena.snap.id}/advance`, { viewer: viewerParam() });
    if (generation !== arena.generation) return;
    render(snap);
  });
}

async function seek(step) {
  await guarded(async (generation) => {
    const params = new URLSearchParams({ viewer: String(arena.viewer), step: String(step) });
    const snap = await api("GET", `/api/games/${arena.snap.id}?${params}`);
    if (generation !== arena.generation) return;
    render(snap);
  });
}

async function changeViewer() {
  arena.viewer = $("viewer").value === "spectator" ? "spectator" : parseInt($("viewer").value, 10);
  await guarded(async (generation) => {
    const params = new URLSearchParams({ viewer: String(arena.viewer) });
    if (arena.snap.mode === "replay") params.set("step", String(arena.snap.step));
    const snap = await api("GET", `/api/games/${arena.snap.id}?${params}`);
    if (generation !== arena.generation) return;
    render(snap);
  });
}

function togglePlay() {
  if (arena.playing) {
    stopPlaying();
    return;
  }
  arena.playing = true;
  renderControls(arena.snap);
  scheduleBots();
}

async function saveReplay() {
  await guarded(async () => {
    const data = await api("POST", `/api/games/${arena.snap.id}/save`, {});
    $("saved").textContent = `saved as ${data.replay}`;
  });
}

// ---- start ----------------------------------------------------------------------------------

async function init() {
  $("game").addEventListener("change", onGameChange);
  $("players").addEventListener("change", fillSeats);
  $("setup-form").addEventListener("submit", onStart);
  $("refresh-replays").addEventListener("click", () => loadReplays().catch((e) => showError(e.message)));
  $("nav-setup").addEventListener("click", leaveTable);
  $("nav-replays").addEventListener("click", () => {
    leaveTable();
    loadReplays().catch((e) => showError(e.message));
    $("replays").scrollIntoView();
  });
  $("viewer").addEventListener("change", changeViewer);
  $("play").addEventListener("click", togglePlay);
  $("step").addEventListener("click", () => {
    stopPlaying();
    advance();
  });
  $("first").addEventListener("click", () => { stopPlaying(); seek(0); });
  $("back").addEventListener("click", () => { stopPlaying(); seek(Math.max(0, arena.snap.step - 1)); });
  $("fwd").addEventListener("click", () => { stopPlaying(); seek(arena.snap.step + 1); });
  $("last").addEventListener("click", () => { stopPlaying(); seek(arena.snap.total_steps); });
  $("scrub").addEventListener("change", () => { stopPlaying(); seek(parseInt($("scrub").value, 10)); });
  $("new-game").addEventListener("click", leaveTable);
  $("again").addEventListener("click", () => {
    const setup = { ...arena.lastSetup, seed: null };
    leaveTable();
    startGame(setup);
  });
  $("save-replay").addEventListener("click", saveReplay);
  try {
    arena.meta = await api("GET", "/api/meta");
  } catch (e) {
    showError(`cannot reach the arena server: ${e.message}`);
    return;
  }
  fillGames();
  await loadReplays().catch((e) => showError(e.message));
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", init);
