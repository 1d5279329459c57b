// pirate_envs arena page: plain JavaScript, no build step, no outside resources.
// Shows the snapshot the server sends for one viewer (the table view, the moves as that viewer may read
// them, the seats); never sees the game state. The boards themselves are drawn by board*.js.
"use strict";

const { el } = window.Board;
const DELAYS = [1600, 900, 450, 180, 40]; // ms between bot moves for the speed slider 0..4
const MENU_LIMIT = 10; // more plain moves than this are grouped by their first words
const TARGETS_SHOWN = 8; // more board elements to choose from than this are listed in a fold
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
  target: null, // the board element whose choices the turn panel shows
  menu: [], // the opened groups of the plain moves' menu
  resultShown: null, // the game whose result the page scrolled to
  listOpen: false, // the fold listing the board's choices
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

function gameMeta(envId) {
  return arena.meta.games.find((g) => g.env_id === envId);
}

function currentGameMeta() {
  return gameMeta($("game").value);
}

function fillGames() {
  const select = $("game");
  select.replaceChildren();
  for (const g of arena.meta.games) select.append(el("option", { value: g.env_id }, g.title));
  onGameChange();
}

function onGameChange() {
  const g = currentGameMeta();
  const players = $("players");
  players.replaceChildren();
  for (const n of g.player_counts) {
    const shipped = g.shipped_players.includes(n) ? " (the shipped agent's table)" : "";
    players.append(el("option", { value: n }, `${n}${shipped}`));
  }
  players.value = String(g.default_num_players);
  $("options").replaceChildren();
  $("advanced").replaceChildren();
  for (const o of g.options) $(o.advanced ? "advanced" : "options").append(optionInput(o));
  fillSeats();
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function optionInput(o) {
  const label = el("label", { class: "option", title: o.rule ? `${capitalised(o.help)} (rule ${o.rule})` : o.help });
  label.append(el("span", {}, o.label));
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox" });
    input.checked = !!o.default;
  } else if (o.choices && o.choices.length) {
    input = el("select");
    for (const c of o.choices) {
      const opt = el("option", { value: String(c) }, String(c).replaceAll("_", " "));
      if (c === o.default) opt.selected = true;
      input.append(opt);
    }
  } else {
    input = el("input", { type: "number", min: o.minimum ?? undefined, max: o.maximum ?? undefined,
      step: o.kind === "int" ? "1" : "any" });
    input.value = o.default;
  }
  input.dataset.option = o.name;
  label.append(input, el("small", {}, capitalised(o.help)));
  return label;
}

function readOptions() {
  const options = {};
  const g = currentGameMeta();
  for (const input of document.querySelectorAll("#setup-form [data-option]")) {
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

// The seat kinds the chosen game and player count can seat: the shipped agent and trained agents only
// where their network fits.
function seatKinds(g, n) {
  return arena.meta.policies.filter((p) => {
    if (p.kind === "shipped") return g.shipped_players.includes(n);
    if (p.kind === "checkpoint") return fittingCheckpoints(g.env_id, n).length > 0;
    return true;
  });
}

function fittingCheckpoints(envId, n) {
  return arena.meta.checkpoints.filter((c) => c.fits.some(([e, k]) => e === envId && k === n));
}

function fillSeats(kinds) {
  const g = currentGameMeta();
  const n = parseInt($("players").value, 10);
  const box = $("seats");
  box.replaceChildren();
  const offered = seatKinds(g, n);
  const botDefault = offered.some((p) => p.kind === "shipped") ? "shipped" : "heuristic";
  for (let seat = 0; seat < n; seat++) {
    const row = el("div", { class: "seat", "data-seat": seat });
    row.append(Board.seatToken(seat, `Seat ${seat + 1}`), el("span", { class: "name" }, `Seat ${seat + 1}`));
    const kind = el("select", { class: "kind", "aria-label": `who plays seat ${seat + 1}` });
    const wanted = kinds && kinds[seat] ? kinds[seat] : seat === 0 ? "me" : botDefault;
    for (const p of offered) {
      const opt = el("option", { value: p.kind }, p.label);
      if (p.kind === wanted) opt.selected = true;
      kind.append(opt);
    }
    const params = el("span", { class: "params" });
    kind.addEventListener("change", () => {
      fillSeatParams(kind.value, params);
      updateShareLink();
    });
    row.append(kind, params);
    box.append(row);
    fillSeatParams(kind.value, params);
  }
  updateShareLink();
}

function fillSeatParams(kind, box) {
  box.replaceChildren();
  const spec = arena.meta.policies.find((p) => p.kind === kind);
  if (kind === "checkpoint") {
    const select = el("select", { class: "checkpoint", "aria-label": "which trained agent" });
    for (const c of fittingCheckpoints($("game").value, parseInt($("players").value, 10))) {
      select.append(el("option", { value: JSON.stringify({ root: c.root, path: c.path }) }, c.path));
    }
    box.append(select);
    return;
  }
  for (const f of (spec && spec.params) || []) {
    const label = el("label", {}, f.label + " ");
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

function readSetup() {
  const seed = $("seed").value;
  return {
    env_id: $("game").value,
    num_players: parseInt($("players").value, 10),
    options: readOptions(),
    seats: readSeats(),
    seed: seed === "" ? null : parseInt(seed, 10),
  };
}

// ---- the setup as an address: /?game=<env_id>&players=<n>&seats=me,shipped,heuristic&seed=<k> ------------

const URL_KINDS = ["me", "random", "heuristic", "ismcts", "flatmc", "shipped"];

function setupUrl(setup) {
  const params = [["game", setup.env_id], ["players", setup.num_players]];
  params.push(["seats", setup.seats.map((s) => (URL_KINDS.includes(s.kind) ? s.kind : "heuristic")).join(",")]);
  if (setup.seed !== null && setup.seed !== undefined) params.push(["seed", setup.seed]);
  for (const [name, value] of Object.entries(setup.options || {})) params.push([`option.${name}`, value]);
  // commas stay commas, so the address reads as written: seats=me,shipped,heuristic
  return "/?" + params.map(([k, v]) => `${k}=${encodeURIComponent(String(v)).replaceAll("%2C", ",")}`).join("&");
}

function updateShareLink() {
  if (!arena.meta) return;
  $("share").href = setupUrl(readSetup());
}

// The setup an address asks for, or null when it asks for none; an Error saying what is wrong otherwise.
function setupFromUrl(search) {
  const params = new URLSearchParams(search);
  if (!params.has("game")) return null;
  const g = gameMeta(params.get("game"));
  if (!g) throw new Error(`no game "${params.get("game")}" here; games: ${arena.meta.games.map((x) => x.env_id).join(", ")}`);
  const n = params.has("players") ? parseInt(params.get("players"), 10) : g.default_num_players;
  if (!g.player_counts.includes(n)) {
    throw new Error(`${g.title} is played by ${g.player_counts.join(", ")} players, not ${params.get("players")}`);
  }
  const offered = seatKinds(g, n).map((p) => p.kind);
  const botDefault = offered.includes("shipped") ? "shipped" : "heuristic";
  const asked = params.has("seats") ? params.get("seats").split(",").map((s) => s.trim()) : [];
  const seats = [];
  for (let seat = 0; seat < n; seat++) {
    const kind = asked[seat] || (seat === 0 && !params.has("seats") ? "me" : botDefault);
    if (!URL_KINDS.includes(kind)) throw new Error(`seat ${seat + 1}: "${kind}" is not one of ${URL_KINDS.join(", ")}`);
    if (!offered.includes(kind)) throw new Error(`seat ${seat + 1}: the shipped agent of ${g.title} does not play with ${n} players`);
    seats.push({ kind });
  }
  if (asked.length > n) throw new Error(`${asked.length} seats given for ${n} players`);
  const options = {};
  for (const [key, raw] of params.entries()) {
    if (!key.startsWith("option.")) continue;
    const spec = g.options.find((o) => o.name === key.slice(7));
    if (!spec) throw new Error(`${g.title} has no option "${key.slice(7)}"`);
    options[spec.name] = spec.kind === "bool" ? raw === "true" : spec.kind === "int" || spec.kind === "float" ? Number(raw) : raw;
  }
  const seed = params.has("seed") ? parseInt(params.get("seed"), 10) : null;
  if (params.has("seed") && !(seed >= 0)) throw new Error(`seed must be a whole number; got "${params.get("seed")}"`);
  return { env_id: g.env_id, num_players: n, options, seats, seed };
}

// Fill the form from a setup (so the address's setup is what "New game" shows).
function showSetupInForm(setup) {
  $("game").value = setup.env_id;
  onGameChange();
  $("players").value = String(setup.num_players);
  fillSeats(setup.seats.map((s) => s.kind));
  $("seed").value = setup.seed === null || setup.seed === undefined ? "" : String(setup.seed);
}

async function startGame(setup) {
  await guarded(async () => {
    showError("");
    const snap = await api("POST", "/api/games", setup);
    arena.lastSetup = setup;
    history.replaceState(null, "", setupUrl({ ...setup, seed: snap.seed }));
    enterTable(snap);
  });
}

function onStart(event) {
  event.preventDefault();
  startGame(readSetup());
}

// ---- replays ----------------------------------------------------------------------------------

function showReplays(replays) {
  const list = $("replay-list");
  list.replaceChildren();
  if (!replays.length) list.append(el("li", { class: "hint" }, "No saved games yet."));
  for (const r of replays) {
    const item = el("li", { class: "replay-item" });
    const button = el("button", { type: "button", class: "replay", "data-path": r.path, title: r.path },
      el("b", {}, r.title), r.num_players ? ` · ${r.num_players} players` : "");
    button.addEventListener("click", () => openReplay(r.path));
    const about = r.problem
      ? el("span", { class: "hint" }, `cannot be read: ${r.problem}`)
      : el("span", { class: "about" }, [r.date, r.players.join(", "), r.result, r.moves ? `${r.moves} moves` : ""]
        .filter(Boolean).join(" · "));
    item.append(button, about);
    list.append(item);
  }
}

async function loadReplays() {
  const data = await api("GET", "/api/replays");
  showReplays(data.replays);
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
  history.replaceState(null, "", "/");
  updateShareLink();
}

function seatName(snap, seat) {
  const s = snap.seats[seat];
  return s ? s.name : `Seat ${seat + 1}`;
}

function enterTable(snap) {
  arena.generation += 1;
  arena.viewer = snap.viewer === null ? "spectator" : snap.viewer;
  arena.playing = false;
  arena.target = null;
  arena.menu = [];
  arena.resultShown = null;
  $("setup").hidden = true;
  $("table").hidden = false;
  $("saved").textContent = "";
  hideHelp();
  const viewer = $("viewer");
  viewer.replaceChildren();
  for (const v of snap.viewers) {
    viewer.append(el("option", { value: String(v) }, v === "spectator" ? "Spectator (what everyone sees)" : seatName(snap, v)));
  }
  viewer.value = String(arena.viewer);
  $("viewer-box").hidden = snap.mode === "play";
  $("watch-controls").hidden = snap.mode === "play";
  $("replay-controls").hidden = snap.mode !== "replay";
  $("step").hidden = snap.mode === "replay";
  $("speed-box").hidden = false;
  $("save-replay").hidden = snap.mode === "replay" || !arena.meta.replays_dir;
  $("again").hidden = snap.mode === "replay";
  window.scrollTo(0, 0);
  render(snap);
  if (snap.mode === "play") scheduleBots();
}

function modeLine(snap) {
  const bots = snap.seats.filter((s) => !s.human).length;
  const who = snap.viewer === null ? "what everyone sees" : `what ${seatName(snap, snap.viewer)} sees`;
  if (snap.mode === "play") return `You play against ${bots} ${bots === 1 ? "bot" : "bots"} · game ${snap.seed}`;
  if (snap.mode === "watch") return `Watching bots play · ${who}`;
  return `Replay of a saved game · ${who}`;
}

function render(snap) {
  const previous = arena.snap;
  arena.snap = snap;
  if (!previous || previous.id !== snap.id || previous.step !== snap.step) {
    arena.target = null;
    arena.menu = [];
  }
  const view = snap.view;
  const table = $("table");
  table.dataset.finished = String(snap.finished);
  table.dataset.waiting = snap.waiting_for;
  table.dataset.mode = snap.mode;
  table.dataset.step = String(snap.step);
  // a finished game's result takes the turn panel's place (a replay keeps its controls)
  $("turn-panel").hidden = snap.finished && snap.mode === "play";
  $("title").textContent = snap.title;
  $("mode").textContent = modeLine(snap);
  if (snap.error) showError(snap.error);
  renderSeats(snap);
  renderBoard(snap);
  renderTurn(snap);
  renderLog(snap);
  renderGlossary(view);
  renderResult(snap);
  renderControls(snap);
}

function renderSeats(snap) {
  const strip = $("seat-strip");
  strip.replaceChildren();
  snap.view.players.forEach((line, seat) => {
    const name = seatName(snap, seat);
    const standing = line.startsWith(name) ? line.slice(name.length).replace(/^\s*(\(you\))?\s*:?\s*/, "") : line;
    const item = el("li", { "data-seat": seat, title: standing },
      Board.seatToken(seat, name), el("b", {}, name), standing ? el("span", {}, standing) : null);
    if (seat === snap.current_player) item.classList.add("current");
    if (seat === snap.viewer) item.classList.add("viewer");
    strip.append(item);
  });
}

// The legal actions grouped by the board element they belong to ("" for plain buttons).
function actionsByTarget(view) {
  const groups = new Map();
  for (const a of view.legal || []) {
    const key = a.target || "";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  return groups;
}

function renderBoard(snap) {
  const view = snap.view;
  const mine = snap.mode === "play" && !snap.finished && snap.waiting_for === "you";
  const groups = mine ? actionsByTarget(view) : new Map();
  const ctx = {
    view,
    snap,
    viewer: snap.viewer,
    current: snap.current_player,
    seatName: (seat) => seatName(snap, seat),
    // Make `node` the control of the board element `key`: a click shows its moves in the turn panel (a
    // second click on it plays its only move), so a stray click never plays anything.
    mark(node, key, name) {
      if (!key) return node;
      node.dataset.key = key;
      const actions = groups.get(key);
      if (!actions || !actions.length) return node;
      node.classList.add("actable");
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.dataset.name = name || key;
      node.dataset.target = key;
      if (arena.target === key) node.classList.add("selected");
      const what = actions.length === 1 ? actions[0].label : `${actions.length} moves`;
      node.setAttribute("aria-label", `${name || key}: ${what}`);
      const activate = (event) => {
        event.stopPropagation();
        if (arena.target === key && actions.length === 1) sendAction(actions[0].action);
        else chooseTarget(key);
      };
      node.addEventListener("click", activate);
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          activate(event);
        }
      });
      return node;
    },
  };
  Board.drawBoard($("board"), view, ctx);
  for (const node of $("board").querySelectorAll("[title]")) {
    node.addEventListener("mouseenter", () => showHelp(node.getAttribute("title")));
  }
}

function chooseTarget(key) {
  arena.target = arena.target === key ? null : key;
  renderBoard(arena.snap);
  renderTurn(arena.snap);
  const panel = $("turn-panel");
  if (panel.getBoundingClientRect().top > window.innerHeight) panel.scrollIntoView({ block: "nearest" });
}

function actionButton(a, text) {
  const button = el("button", { type: "button", class: "action", "data-action": a.action, title: a.detail || a.label },
    text || a.choice || a.label);
  button.addEventListener("click", () => sendAction(a.action));
  button.addEventListener("mouseenter", () => showHelp(`${a.label}${a.detail ? ": " + a.detail : ""}`));
  button.addEventListener("focus", () => showHelp(`${a.label}${a.detail ? ": " + a.detail : ""}`));
  return button;
}

// Many plain moves are offered as a menu: moves sharing their first words ("Accuse Heuristic bot 2 of ...")
// sit behind one button, opened a word group at a time, so a turn is a handful of controls.
function menuLevel(actions, depth) {
  const words = (a) => a.label.split(/\s+/);
  const groups = new Map();
  for (const a of actions) {
    const key = words(a).slice(0, depth + 1).join(" ");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  return groups;
}

function menuButtons(actions, box) {
  let shown = actions;
  let depth = 0;
  for (const opened of arena.menu) {
    shown = shown.filter((a) => a.label.split(/\s+/).slice(0, opened.depth + 1).join(" ") === opened.key);
    depth = opened.depth + 1;
  }
  if (arena.menu.length) {
    const back = el("button", { type: "button", class: "back-button" }, "‹ Back");
    back.addEventListener("click", () => {
      arena.menu.pop();
      renderTurn(arena.snap);
    });
    box.append(back);
  }
  // go deeper while one group holds everything (the shared words say nothing yet)
  let groups = menuLevel(shown, depth);
  while (groups.size === 1 && shown.length > 1 && depth < 12) {
    depth += 1;
    groups = menuLevel(shown, depth);
  }
  for (const [key, members] of groups) {
    if (members.length === 1 || shown.length <= MENU_LIMIT) {
      for (const a of members) box.append(actionButton(a, a.label));
      continue;
    }
    const open = el("button", { type: "button", class: "group", "data-group": key }, `${key} … (${members.length})`);
    open.addEventListener("click", () => {
      arena.menu.push({ key, depth });
      renderTurn(arena.snap);
    });
    box.append(open);
  }
}

function renderTurn(snap) {
  const view = snap.view;
  const status = $("status");
  const decision = $("decision");
  const box = $("actions");
  box.replaceChildren();
  decision.textContent = "";
  if (snap.error) {
    status.textContent = "The game was stopped by an error.";
    return;
  }
  if (snap.finished) {
    status.textContent = "Game over.";
    return;
  }
  const current = snap.current_player;
  const mine = snap.mode === "play" && snap.waiting_for === "you";
  status.textContent = view.status || "";
  status.classList.toggle("yours", mine);
  if (!mine) {
    if (snap.mode === "play") box.append(el("span", { class: "waiting" }, `${seatName(snap, current)} is thinking…`));
    return;
  }
  decision.textContent = view.decision_help || "";
  const groups = actionsByTarget(view);
  const plain = groups.get("") || [];
  groups.delete("");
  if (arena.target && groups.has(arena.target)) {
    const node = $("board").querySelector(`[data-key="${CSS.escape(arena.target)}"]`);
    const name = node ? node.dataset.name : arena.target;
    box.append(el("div", { class: "choosing" }, `${name}:`));
    for (const a of groups.get(arena.target)) box.append(actionButton(a));
    const cancel = el("button", { type: "button", class: "back-button" }, "‹ Back");
    cancel.addEventListener("click", () => chooseTarget(arena.target));
    box.append(cancel);
    return;
  }
  if (groups.size) {
    box.append(el("div", { class: "hint" }, "Click a glowing card, ship or player on the table."));
    for (const a of plain) box.append(actionButton(a, a.label));
    // the board's choices as a list too: shown while short, folded away when long
    const list = groups.size <= TARGETS_SHOWN ? box : el("div", { class: "target-list" });
    for (const [key, actions] of groups) {
      const node = $("board").querySelector(`[data-key="${CSS.escape(key)}"]`);
      const name = node ? node.dataset.name : key;
      if (actions.length === 1) {
        const a = actions[0];
        list.append(actionButton(a, a.choice && node ? `${capitalised(name)}: ${a.choice.toLowerCase()}` : a.label));
      } else {
        const open = el("button", { type: "button", class: "group", "data-target": key }, `${name} … (${actions.length})`);
        open.addEventListener("click", () => chooseTarget(key));
        list.append(open);
      }
    }
    if (list !== box) {
      const fold = el("details", { class: "more-moves" }, el("summary", {}, `Or pick from a list (${groups.size})`), list);
      fold.open = arena.listOpen;
      fold.addEventListener("toggle", () => { arena.listOpen = fold.open; });
      box.append(fold);
    }
    return;
  }
  menuButtons(plain, box);
}

function renderLog(snap) {
  const log = $("log");
  log.replaceChildren();
  for (const line of snap.log) {
    const item = el("li", { value: line.step, "data-seat": line.seat });
    item.append(Board.seatToken(line.seat, seatName(snap, line.seat)), el("span", {}, line.text));
    if (line.outcome && line.outcome.length) {
      const more = el("ul", { class: "outcome" });
      for (const sentence of line.outcome) more.append(el("li", {}, sentence));
      item.append(more);
    }
    if (line.seat === snap.viewer) item.classList.add("mine");
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function renderGlossary(view) {
  const box = $("glossary");
  box.replaceChildren();
  for (const [term, meaning] of view.glossary || []) {
    box.append(el("dt", {}, term), el("dd", {}, meaning));
  }
  $("glossary-box").hidden = !(view.glossary || []).length;
}

function fmt(value) {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}

const VERDICTS = { won: "Won", lost: "Lost", tied: "Shared the win", exiled: "Exiled", eliminated: "Out" };

function renderResult(snap) {
  const box = $("result");
  const done = snap.finished && (snap.mode !== "replay" || snap.step === snap.total_steps);
  box.hidden = !done;
  if (!done) return;
  const ending = snap.view.ending || {};
  const seats = $("result-seats");
  seats.replaceChildren();
  if (snap.error) {
    $("result-headline").textContent = "The game was stopped.";
    $("result-why").textContent = snap.error;
  } else if (ending.headline) {
    $("result-headline").textContent = ending.headline;
    $("result-why").textContent = ending.why || "";
    const scoreName = ending.score_name || "points";
    const ordered = [...ending.seats].sort((a, b) => b.score - a.score);
    for (const s of ordered) {
      const card = el("div", { class: `result-seat verdict-${s.verdict}`, "data-seat": s.seat });
      card.append(el("div", { class: "result-head" }, Board.seatToken(s.seat, seatName(snap, s.seat)),
        el("b", {}, seatName(snap, s.seat)), el("span", { class: "verdict" }, VERDICTS[s.verdict] || s.verdict),
        el("span", { class: "score" }, `${fmt(s.score)} ${scoreName}`)));
      if (s.note) card.append(el("div", { class: "note" }, capitalised(s.note)));
      if (s.breakdown && s.breakdown.length) {
        const list = el("ul", { class: "breakdown" });
        for (const item of s.breakdown) list.append(el("li", {}, el("span", {}, item.item), el("span", {}, fmt(item.points))));
        card.append(list);
      }
      seats.append(card);
    }
  } else {
    // a view without an ending: its one result line and the scores
    $("result-headline").textContent = (snap.result && snap.result.line) || "Game over.";
    $("result-why").textContent = "";
    if (snap.result) {
      snap.seats.forEach((s, i) => {
        const won = snap.result.winners.includes(i);
        seats.append(el("div", { class: `result-seat verdict-${won ? "won" : "lost"}` },
          el("div", { class: "result-head" }, Board.seatToken(i, s.name), el("b", {}, s.name),
            el("span", { class: "verdict" }, won ? "Won" : ""), el("span", { class: "score" }, fmt(snap.result.scores[i])))));
      });
    }
  }
  if (arena.resultShown !== `${snap.id}:${snap.step}`) {
    arena.resultShown = `${snap.id}:${snap.step}`;
    box.scrollIntoView({ block: "start", behavior: "smooth" });
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

// The help panel shows what is pointed at, in words: rule ids ("(PSM-505)") stay in the hover text only.
const RULE_IDS = /\s*\((?:see )?[A-Z]{2,4}-\d{3,4}(?:[,/ ]+[A-Z]{2,4}-\d{3,4})*\)|\s*\b[A-Z]{2,4}-\d{3,4}\b:?/g;

function showHelp(text) {
  const box = $("help");
  box.textContent = (text || "").replace(RULE_IDS, "");
  box.hidden = !text;
}

function hideHelp() {
  showHelp("");
}

// ---- moves, bots and the controls -----------------------------------------------------------

function delay() {
  return DELAYS[parseInt($("speed").value, 10)] ?? 450;
}

function stopPlaying() {
  arena.playing = false;
  if (arena.timer) clearTimeout(arena.timer);
  arena.timer = null;
  if (arena.snap) $("play").textContent = "Play";
  if (arena.snap && arena.snap.mode === "watch") $("step").disabled = arena.snap.finished;
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
    $("saved").textContent = `Saved as ${data.replay}`;
    $("saved").dataset.replay = data.replay;
    showReplays(data.replays);
  });
}

// ---- start ----------------------------------------------------------------------------------

function seekTo(step) {
  // read where to go before anything redraws the controls
  stopPlaying();
  seek(step);
}

async function init() {
  $("game").addEventListener("change", () => {
    onGameChange();
  });
  $("players").addEventListener("change", () => fillSeats());
  $("setup-form").addEventListener("change", updateShareLink);
  $("setup-form").addEventListener("submit", onStart);
  $("refresh-replays").addEventListener("click", () => loadReplays().catch((e) => showError(e.message)));
  $("nav-setup").addEventListener("click", leaveTable);
  $("nav-replays").addEventListener("click", () => {
    leaveTable();
    loadReplays().catch((e) => showError(e.message));
    $("replays").scrollIntoView();
  });
  $("viewer").addEventListener("change", changeViewer);
  $("decision").addEventListener("click", () => $("decision").classList.toggle("open"));
  $("play").addEventListener("click", togglePlay);
  $("step").addEventListener("click", () => {
    stopPlaying();
    advance();
  });
  $("first").addEventListener("click", () => seekTo(0));
  $("back").addEventListener("click", () => seekTo(Math.max(0, arena.snap.step - 1)));
  $("fwd").addEventListener("click", () => seekTo(arena.snap.step + 1));
  $("last").addEventListener("click", () => seekTo(arena.snap.total_steps));
  $("scrub").addEventListener("input", () => {
    $("step-count").textContent = `move ${$("scrub").value} of ${arena.snap.total_steps}`;
  });
  $("scrub").addEventListener("change", () => seekTo(parseInt($("scrub").value, 10)));
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
  showReplays(arena.meta.replays);
  document.body.dataset.ready = "true";
  let fromUrl = null;
  try {
    fromUrl = setupFromUrl(location.search);
  } catch (e) {
    showError(`This link does not start a game: ${e.message}`);
  }
  if (fromUrl) {
    showSetupInForm(fromUrl);
    await startGame(fromUrl);
  }
}

document.addEventListener("DOMContentLoaded", init);
