// pirate_envs arena: what every game's board drawing shares (elements, cards, symbols, clickable places),
// the registry of the per-game boards (board-*.js) and a plain drawing of the zones for a view without one.
// The boards draw `view.board` (docs/arena-board.md); they never see the game state.
"use strict";

(() => {
const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "style") setStyle(node, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

// Styles through the CSSOM (the page's content security policy refuses style attributes): "a:b;--c:d".
function setStyle(node, text) {
  for (const part of String(text).split(";")) {
    const at = part.indexOf(":");
    if (at > 0) node.style.setProperty(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
}

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === "style") setStyle(node, v);
    else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

// ---- seats: one colour each, the same on every board and in the seat list ---------------------------

const SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#a04000", "#5d6d7e", "#c2185b"];

function seatColour(seat) {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}

// A round token in the seat's colour with its number (seats are numbered from 1 on the page).
function seatToken(seat, name, extra) {
  return el("span", { class: `seat-token ${extra || ""}`, style: `--seat:${seatColour(seat)}`, title: name || "" },
    String(seat + 1));
}

// The seat's name with its token: "(2) Heuristic bot 2".
function seatLabel(ctx, seat) {
  return el("span", { class: "seat-label" }, seatToken(seat, ctx.seatName(seat)), ctx.seatName(seat));
}

// ---- symbols: small pictures drawn here (24x24), named on hover --------------------------------------

const SYMBOLS = {
  anchor: '<circle cx="12" cy="4.5" r="2.2" fill="none"/><path d="M12 6.7V21M7.5 10h9M4 13.5c0 4.2 3.6 7.5 8 7.5s8-3.3 8-7.5M4 13.5l-1.6 2M4 13.5l2 1.2M20 13.5l1.6 2M20 13.5l-2 1.2" fill="none"/>',
  cannon: '<path d="M3.5 12.5l13-5 1.6 4.2-13 5z" /><circle cx="18.6" cy="9.4" r="1.6"/><circle cx="9" cy="16.5" r="3.8" fill="none"/><circle cx="9" cy="16.5" r="1"/>',
  chest: '<path d="M3 10h18v10H3z" fill="none"/><path d="M3 10c0-5 18-5 18 0" fill="none"/><path d="M3 13h18"/><rect x="10.5" y="12" width="3" height="4" rx=".6"/>',
  key: '<circle cx="6.5" cy="12" r="3.8" fill="none"/><path d="M10.3 12H21M17.5 12v4M20.5 12v3" fill="none"/>',
  hook: '<path d="M14 2.5v2M14 6v8.5a5 5 0 1 1-10 0l2.5-2" fill="none"/><rect x="11.5" y="2" width="5" height="4" rx="1"/>',
  kraken: '<path d="M6 11.5a6 6 0 0 1 12 0v1.5H6z"/><circle cx="9.6" cy="9.6" r="1" fill="#fff" stroke="none"/><circle cx="14.4" cy="9.6" r="1" fill="#fff" stroke="none"/><path d="M7 13c-2.5 3-1.5 6 .8 7.5M10.3 13c-1 3 0 5.5 1.5 7.5M13.7 13c1 3 0 5.5-1.5 7.5M17 13c2.5 3 1.5 6-.8 7.5" fill="none"/>',
  map: '<path d="M3 6l6-2 6 2 6-2v14l-6 2-6-2-6 2z" fill="none"/><path d="M9 4v14M15 6v14" fill="none" stroke-dasharray="1.5 1.5"/><path d="M16.5 9.5l2.5 2.5M19 9.5l-2.5 2.5" fill="none"/>',
  mermaid: '<circle cx="12" cy="5" r="2.6"/><path d="M9.5 8.5h5c.5 3-1 5.5-2.2 8l3.5 4.5h-3L12 19l-.8 2h-3l3.3-4.5C10 14 9 11.5 9.5 8.5z"/>',
  oracle: '<circle cx="12" cy="10.5" r="7" fill="none"/><path d="M8.6 8.4a4 4 0 0 1 3-2.3" fill="none"/><path d="M6.5 18h11l1.5 3.5H5z"/>',
  sword: '<path d="M12 2l2 3v10.5h-4V5z"/><path d="M6.5 15.5h11v2h-11z"/><path d="M11 17.5h2v3.2h-2z"/><circle cx="12" cy="21.5" r="1.2"/>',
  swords: '<path d="M4 3l2.5.6 9.5 9.6-1.9 1.9-9.5-9.6zM20 3l-2.5.6L8 13.2l1.9 1.9 9.5-9.6z"/><path d="M5 15.5l3.5 3.5M19 15.5l-3.5 3.5M7 20l-2 2M17 20l2 2" fill="none"/>',
  lantern: '<path d="M9.5 3h5M12 3v2" fill="none"/><rect x="7.5" y="5" width="9" height="14" rx="2.5" fill="none"/><path d="M12 9c2 2.3 2 4.2 0 6-2-1.8-2-3.7 0-6z"/><path d="M7 19h10v2H7z"/>',
  kite: '<path d="M12 2l7 8-7 8-7-8z" fill="none"/><path d="M12 2v16M5 10h14" fill="none"/><path d="M12 18c-1 2 1 2.5 0 4.5" fill="none"/>',
  star: '<path d="M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5L2.5 9.4l6.6-.9z"/>',
  ship: '<path d="M2.5 15h19l-3 5.5h-13z"/><path d="M12 2.5V15" fill="none"/><path d="M12 4l6.5 9.2H12zM11 6l-5.5 7.2H11z"/>',
  coin: '<circle cx="12" cy="12" r="8.5"/><circle cx="12" cy="12" r="5.8" fill="none" stroke="#fff" stroke-opacity=".7"/>',
  gem: '<path d="M6.5 4h11l4 5.5L12 21 2.5 9.5z"/><path d="M2.5 9.5h19M9 4l3 17M15 4l-3 17" fill="none" stroke="#fff" stroke-opacity=".6"/>',
  pearl: '<circle cx="12" cy="12" r="8"/><circle cx="9.2" cy="9" r="2.2" fill="#fff" stroke="none" opacity=".85"/>',
  skull: '<path d="M12 3a7.5 7.5 0 0 0-5 13v3.5h10V16a7.5 7.5 0 0 0-5-13z"/><circle cx="9.3" cy="11" r="1.8" fill="#fff" stroke="none"/><circle cx="14.7" cy="11" r="1.8" fill="#fff" stroke="none"/><path d="M10 19.5v2M14 19.5v2" fill="none"/>',
  crown: '<path d="M3 18l-1-10 5.5 4L12 5l4.5 7L22 8l-1 10z"/><path d="M3 20h18" fill="none"/>',
  scroll: '<path d="M6 3h12v15a3 3 0 0 1-3 3H5a3 3 0 0 1 0-6h1z" fill="none"/><path d="M9 7h6M9 10.5h6M9 14h4" fill="none"/>',
  island: '<path d="M2 19c3-4 17-4 20 0z"/><path d="M12 16V7" fill="none"/><path d="M12 7c-3-2-6-1-7 1M12 7c3-2 6-1 7 1M12 7c-1-3-3-4-5-4M12 7c1-3 3-4 5-4" fill="none"/>',
  vote: '<path d="M4 10h16v11H4z" fill="none"/><path d="M9 10V3h6v7" fill="none"/><path d="M8 15h8" fill="none"/>',
  damage: '<path d="M12 2l2 6 5-3-2 6 5 1-5 3 3 5-6-2-2 5-2-5-6 2 3-5-5-3 5-1-2-6 5 3z"/>',
  arrows: '<path d="M3 8h15M14 4l4 4-4 4M21 16H6M10 12l-4 4 4 4" fill="none"/>',
  question: '<circle cx="12" cy="12" r="9" fill="none"/><path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.7.4-1 .9-1 1.7v.8" fill="none"/><circle cx="12" cy="17.3" r="1"/>',
};

// A symbol as an inline SVG element; `title` is what hovering it says.
function symbol(name, title, extraClass) {
  const key = String(name || "").toLowerCase().replace(/[^a-z]/g, "");
  const paths = SYMBOLS[key] || SYMBOLS.question;
  const node = svgEl("svg", { viewBox: "0 0 24 24", class: `sym sym-${key} ${extraClass || ""}`, role: "img",
    "aria-label": title || name || "" });
  node.innerHTML = `<g fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${paths}</g>`;
  if (title || name) node.prepend(svgEl("title", {}, title || name));
  return node;
}

// Flags, drawn as small SVG rectangles (England, France, Spain, the Dutch; "English" etc. too).
const FLAGS = {
  england: '<rect width="30" height="20" fill="#fff"/><rect x="12.5" width="5" height="20" fill="#cf142b"/><rect y="7.5" width="30" height="5" fill="#cf142b"/>',
  france: '<rect width="10" height="20" fill="#0055a4"/><rect x="10" width="10" height="20" fill="#fff"/><rect x="20" width="10" height="20" fill="#ef4135"/>',
  spain: '<rect width="30" height="20" fill="#aa151b"/><rect y="5" width="30" height="10" fill="#f1bf00"/>',
  dutch: '<rect width="30" height="7" fill="#ae1c28"/><rect y="6.7" width="30" height="6.7" fill="#fff"/><rect y="13.3" width="30" height="6.7" fill="#21468b"/>',
};
const NATION_KEYS = { english: "england", england: "england", french: "france", france: "france", spanish: "spain",
  spain: "spain", dutch: "dutch", netherlands: "dutch" };

function flag(nation) {
  const key = NATION_KEYS[String(nation || "").toLowerCase()];
  const node = svgEl("svg", { viewBox: "0 0 30 20", class: "flag", role: "img", "aria-label": nation || "unknown" });
  node.innerHTML = key ? FLAGS[key] : '<rect width="30" height="20" fill="#ddd"/><text x="15" y="15" font-size="13" text-anchor="middle" fill="#555">?</text>';
  node.prepend(svgEl("title", {}, nation || "unknown nation"));
  return node;
}

// ---- cards ------------------------------------------------------------------------------------------

// A face-down card: a card back ("deck", "pirate", "navigation", ...), never its face.
function cardBack(back, opts) {
  const o = opts || {};
  const node = el("div", { class: `card back back-${String(back || "card").replace(/[^a-z]/gi, "")} ${o.size || ""}`,
    title: `a face-down ${back || "card"}` });
  node.append(el("span", { class: "back-mark" }, symbol("skull", `face-down ${back || "card"}`)));
  if (o.count !== undefined && o.count !== null) node.append(el("span", { class: "count" }, String(o.count)));
  return node;
}

// A face-up card: `face` is {top, symbol, name, sub, colour, tone}; the card's `detail` is its hover text.
function cardFace(card, face, opts) {
  const o = opts || {};
  const classes = ["card", "face", o.size || "", face.tone || "", card.highlight ? "highlight" : ""];
  const node = el("div", { class: classes.join(" ").replace(/\s+/g, " ").trim(),
    style: face.colour ? `--card:${face.colour}` : undefined, title: [card.name, card.detail].filter(Boolean).join(": ") });
  if (face.top !== undefined && face.top !== null && face.top !== "") node.append(el("span", { class: "corner" }, String(face.top)));
  if (face.symbol) node.append(el("span", { class: "middle" }, face.symbol));
  const name = String(face.name ?? card.name ?? "");
  node.append(el("span", { class: name.split(/\s+/).some((w) => w.length > 8) ? "name long" : "name" }, name));
  if (face.sub) node.append(el("span", { class: "sub" }, face.sub));
  return node;
}

// ---- small parts ------------------------------------------------------------------------------------

function panel(title, attrs, ...children) {
  const node = el("section", { class: `panel ${(attrs && attrs.class) || ""}` });
  for (const [k, v] of Object.entries(attrs || {})) if (k !== "class") node.setAttribute(k, v);
  if (title) node.append(typeof title === "string" ? el("h4", {}, title) : title);
  for (const child of children) if (child) node.append(child);
  return node;
}

function countBadge(symbolName, count, title) {
  return el("span", { class: "count-badge", title: title || "" }, symbol(symbolName, title), String(count ?? "?"));
}

function row(cls, ...children) {
  return el("div", { class: `cards-row ${cls || ""}` }, ...children);
}

// ---- the plain drawing of zones (a view without board data) -----------------------------------------

function drawZones(view, ctx) {
  const root = el("div", { class: "zones" });
  for (const zone of view.zones || []) {
    const cls = ["zone", zone.owner !== null && zone.owner === view.viewer ? "own" : ""].join(" ");
    const box = panel(zone.title, { class: cls });
    if (zone.owner !== null && zone.owner !== undefined) box.style.setProperty("--seat", seatColour(zone.owner));
    if (zone.note) box.append(el("p", { class: "note" }, zone.note));
    const cards = row("");
    for (const card of zone.cards) {
      cards.append(card.hidden ? cardBack(card.kind, { size: "sm" })
        : cardFace({ name: card.label, detail: card.detail, highlight: card.highlight },
          { name: card.label, sub: card.kind }, { size: "sm" }));
    }
    if (!zone.cards.length) cards.append(el("span", { class: "empty" }, "nothing here"));
    box.append(cards);
    root.append(box);
  }
  return root;
}

// ---- the registry: one drawing per board kind --------------------------------------------------------

const BOARDS = {};

function registerBoard(kind, draw) {
  BOARDS[kind] = draw;
}

// Draw `view` into `root`. `ctx` carries the seat names and `mark(node, key, name)`, which makes a board
// element a control when some legal action belongs to it.
function drawBoard(root, view, ctx) {
  const board = view.board || {};
  const draw = BOARDS[board.kind];
  root.replaceChildren();
  root.dataset.board = draw ? board.kind : "zones";
  root.append(draw ? draw(board, ctx, view) : drawZones(view, ctx));
}

window.Board = { el, svgEl, setStyle, symbol, flag, cardBack, cardFace, panel, countBadge, row, seatColour, seatToken,
  seatLabel, registerBoard, drawBoard };
})();
