// Madame Ching: the sea grid with its numbered spaces, the two lines and Hong Kong, each junk on its space;
// the display, the missions, the skills and each player's hand (board kind "madame_ching", docs/arena-board.md).
"use strict";

(() => {
  const { el, svgEl, symbol, cardBack, cardFace, panel, row, seatLabel, countBadge } = Board;

  const CELL = 52;
  const LEFT = 8;
  const TOP = 26;
  const BOTTOM = 40; // room for the lines' names under the grid
  const COLOURS = { White: "#f7f5ee", Blue: "#cfe0f7", Green: "#d3efd3", Yellow: "#fbf1b0", Red: "#f6c8c3", Purple: "#e2d0f2" };
  const JUNK_COLOURS = { red: "#c0392b", yellow: "#d4ac0d", blue: "#2471a3", white: "#f4f6f7", green: "#1e8449",
    black: "#273746", purple: "#7d3c98" };
  const ICONS = { Map: "map", Lantern: "lantern", Swords: "swords", Kite: "kite" };
  const SKILLS = { Cartography: "map", "Night Sailing": "lantern", Combat: "swords", Weather: "kite", Elite: "star" };
  const ENCOUNTERS = { Thief: "hook", Spy: "oracle", Negotiator: "scroll", Salvager: "anchor", Oracle: "oracle",
    Siren: "mermaid", "Madame Ching": "crown" };

  function navCard(card, opts) {
    if (!card) return el("div", { class: "card empty-slot" });
    if (card.hidden) return cardBack(card.back || "navigation", opts);
    return cardFace(card, { top: card.number, symbol: card.icon ? symbol(ICONS[card.icon] || "question", card.icon) : null,
      name: card.colour || card.name, sub: card.icon || "no icon", colour: COLOURS[card.colour] || "#fff" }, opts);
  }

  function encounterCard(card, opts) {
    if (card.hidden) return cardBack(card.back || "encounter", opts);
    const kind = card.encounter || card.name;
    const sym = String(kind).startsWith("Treasure") ? "chest" : ENCOUNTERS[kind] || "question";
    return cardFace(card, { symbol: symbol(sym, kind), name: card.name, sub: card.points ? `${card.points} points` : "",
      colour: "#e8f3ec" }, opts);
  }

  const x = (column) => LEFT + column * CELL;
  const y = (rowNumber, rows) => TOP + (rows - rowNumber) * CELL;

  function junkShape(junk, ctx, cx, cy) {
    const colour = JUNK_COLOURS[String(junk.colour).toLowerCase()] || "#888";
    const g = svgEl("g", { class: `junk ${junk.active ? "active" : ""} ${junk.done ? "done" : ""}`, transform: `translate(${cx},${cy})` },
      svgEl("title", {}, `${junk.name} (${ctx.seatName(junk.seat)})${junk.done ? ", done this round" : ""}`),
      svgEl("circle", { class: "hit", r: 14, fill: "transparent", stroke: "transparent" }),
      svgEl("path", { d: "M-13 2h26l-5 8h-16z", fill: colour, stroke: "#1b2631", "stroke-width": 1.2 }),
      svgEl("path", { d: "M-1 2v-15M0 -13l9 5-9 4zM-2 -11l-8 10h8z", fill: colour, stroke: "#1b2631", "stroke-width": 1 }));
    return ctx.mark(g, junk.key || `junk:${junk.boat}`, junk.name);
  }

  function drawSea(board, ctx) {
    const columns = board.columns || 8;
    const rows = board.rows || 7;
    const width = LEFT * 2 + (columns + 1) * CELL;
    const height = TOP + rows * CELL + BOTTOM;
    const sea = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, class: "mch-sea", role: "img", "aria-label": "the sea" });
    sea.append(svgEl("rect", { x: 0, y: 0, width, height, rx: 12, fill: "#a3c9e2" }));
    // the start box, left of the first space
    sea.append(svgEl("rect", { x: x(0) + 3, y: y(1, rows) + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: "#fdf2e9",
      stroke: "#a04000", "stroke-width": 1.5 }));
    sea.append(svgEl("text", { x: x(0) + CELL / 2, y: y(1, rows) + CELL - 8, "text-anchor": "middle", class: "cell-note" }, "start"));
    const hk = new Set(((board.hong_kong || {}).spaces || []).map(([c, r]) => `${c},${r}`));
    for (const space of board.spaces || []) {
      const isHk = space.hong_kong || hk.has(`${space.column},${space.row}`);
      sea.append(svgEl("rect", { x: x(space.column) + 2, y: y(space.row, rows) + 2, width: CELL - 4, height: CELL - 4, rx: 6,
        fill: isHk ? "#f9e79f" : space.world_end ? "#d6dbdf" : "#eaf2f8", stroke: isHk ? "#b7950b" : "#7fb3d5", "stroke-width": 1.5 },
      svgEl("title", {}, `space ${space.number}${isHk ? " (Hong Kong)" : ""}`)));
      sea.append(svgEl("text", { x: x(space.column) + CELL - 7, y: y(space.row, rows) + 17, "text-anchor": "end",
        class: "cell-number" }, String(space.number)));
    }
    if (hk.size) {
      const cells = [...hk].map((k) => k.split(",").map(Number));
      const minC = Math.min(...cells.map(([c]) => c));
      const maxC = Math.max(...cells.map(([c]) => c));
      const top = Math.max(...cells.map(([, r]) => r));
      const owner = (board.hong_kong || {}).owner;
      sea.append(svgEl("text", { x: (x(minC) + x(maxC + 1)) / 2, y: y(top, rows) - 6, "text-anchor": "middle", class: "hk-label" },
        `Hong Kong${owner !== null && owner !== undefined ? ` · ${ctx.seatName(owner)}` : ""}`));
    }
    for (const line of board.lines || []) {
      const lx = x(line.after_column + 1);
      const number = String(line.name || "").replace(/\D/g, "") || "";
      const bottom = TOP + rows * CELL;
      sea.append(svgEl("line", { x1: lx, y1: TOP + (rows - line.after_column - 1) * CELL, x2: lx, y2: bottom + 4,
        stroke: "#922b21", "stroke-width": 3, "stroke-dasharray": "7 5" },
      svgEl("title", {}, `Crossing line ${number} draws ${line.encounters} encounter card${line.encounters === 1 ? "" : "s"}`)));
      sea.append(svgEl("text", { x: lx, y: bottom + 18, "text-anchor": "middle", class: "line-label" }, `line ${number}`));
      sea.append(svgEl("text", { x: lx, y: bottom + 32, "text-anchor": "middle", class: "line-note" },
        `+${line.encounters} encounter${line.encounters === 1 ? "" : "s"}`));
    }
    // junks: up to four share a space, each in a corner of it
    const crowd = new Map();
    for (const junk of board.junks || []) {
      const where = junk.in_start_box ? "start" : `${junk.column},${junk.row}`;
      const index = crowd.get(where) || 0;
      crowd.set(where, index + 1);
      const column = junk.in_start_box ? 0 : junk.column;
      const rowNumber = junk.in_start_box ? 1 : junk.row;
      const cx = x(column) + 15 + (index % 2) * 22;
      const cy = y(rowNumber, rows) + 30 + Math.floor(index / 2) * 13;
      sea.append(junkShape(junk, ctx, cx, cy));
    }
    return sea;
  }

  function playerPanel(player, board, ctx) {
    const head = el("h4", {}, seatLabel(ctx, player.seat), countBadge("star", player.score, "points so far"));
    if (player.score_secret_part) head.append(el("span", { class: "muted", title: "secret Sacred Treasures not counted" }, "+ secret"));
    if (player.team !== null && player.team !== undefined) head.append(el("span", { class: "tag" }, `team ${player.team + 1}`));
    if (player.hong_kong) head.append(el("span", { class: "tag good" }, "Hong Kong"));
    if (player.china_pearl) head.append(el("span", { class: "tag good" }, symbol("pearl"), "China pearl"));
    const box = panel(head, { class: `player ${player.seat === ctx.viewer ? "own" : ""} ${player.seat === ctx.current ? "current-seat" : ""}` });
    const hand = row("hand");
    for (const card of player.hand || []) hand.append(ctx.mark(navCard(card), card.key, card.name));
    for (const card of player.encounters || []) hand.append(ctx.mark(encounterCard(card, { size: "sm" }), card.key, card.name));
    box.append(hand);
    const gems = player.gems || {};
    const goods = el("div", { class: "goods" }, countBadge("coin", player.gold, "gold"));
    for (const [colour, count] of Object.entries(gems)) {
      const badge = countBadge("gem", count, `${colour} gems`);
      badge.classList.add(`gem-${colour}`);
      goods.append(badge);
    }
    for (const skill of player.skills || []) {
      goods.append(el("span", { class: `skill ${skill.used ? "used" : ""}`, title: skill.detail || skill.skill },
        symbol(SKILLS[skill.skill] || "star", skill.skill), skill.skill));
    }
    box.append(goods);
    for (const junk of (board.junks || []).filter((j) => j.seat === player.seat)) {
      const exp = row("expedition");
      for (const card of junk.expedition || []) exp.append(navCard(card, { size: "sm" }));
      const pick = junk.pick || junk.revealed_pick;
      if (pick) {
        const card = navCard(pick, { size: "sm" });
        card.classList.add("highlight");
        card.title = `this round's pick${card.title ? ": " + card.title : ""}`;
        exp.append(card);
      }
      const where = junk.in_start_box ? "in the start box" : `on space ${junk.number}`;
      box.append(el("div", { class: "junk-line" }, el("span", { class: "muted" }, `${junk.name} ${where}:`), exp));
    }
    return ctx.mark(box, player.key || `seat:${player.seat}`, ctx.seatName(player.seat));
  }

  function drawMch(board, ctx) {
    const root = el("div", { class: "board mch" });
    const seaBox = panel(el("h4", {}, "The sea", el("span", { class: "muted" },
      `round ${board.round} of ${board.round_limit}${board.end_triggered ? " · last round" : ""}`)), { class: "wide sea-panel" });
    seaBox.append(drawSea(board, ctx));
    root.append(seaBox);

    const display = panel("Display", { class: "display" });
    const slots = row("");
    for (const slot of board.display || []) slots.append(ctx.mark(navCard(slot.card), slot.key, `display card ${slot.slot + 1}`));
    const decks = board.decks || {};
    slots.append(cardBack("navigation", { count: decks.navigation }));
    const discarded = board.discard || [];
    if (discarded.length) {
      const top = navCard(discarded[discarded.length - 1], { size: "sm" });
      top.title = `discard pile (${discarded.length}): ${discarded.map((c) => c.name).join(", ")}`;
      slots.append(top);
    }
    display.append(slots, el("p", { class: "note" },
      `${decks.navigation ?? "?"} navigation cards left · ${decks.navigation_discard ?? 0} discarded · ${decks.encounter ?? "?"} encounter cards`));
    root.append(display);

    if (board.pending && board.pending.length) {
      const pending = panel("To decide", { class: "pending own" });
      const cards = row("");
      for (const card of board.pending) cards.append(encounterCard(card));
      pending.append(cards);
      root.append(pending);
    }

    const missions = panel("Missions", { class: "missions" });
    const tiles = row("");
    for (const m of board.missions || []) {
      const tile = el("div", { class: "tile", title: `Mission ${m.number}: ${m.reward}${m.detail ? ". " + m.detail : ""}` },
        el("span", { class: "tile-number" }, String(m.number)), el("span", { class: "tile-reward" }, m.reward));
      tiles.append(ctx.mark(tile, m.key, `mission ${m.number}`));
    }
    missions.append(tiles);
    if (board.missions_set_aside && board.missions_set_aside.length) {
      missions.append(el("p", { class: "note" }, `Set aside: ${board.missions_set_aside.map((m) => `${m.number} (${m.reward})`).join(", ")}`));
    }
    root.append(missions);

    const skills = panel("Skills", { class: "skills" });
    const stacks = row("");
    for (const st of board.skill_stacks || []) {
      stacks.append(ctx.mark(cardFace({ name: st.skill, detail: st.detail }, { top: st.count, symbol: symbol(SKILLS[st.skill] || "star", st.skill),
        name: st.skill, colour: "#eaf2f8" }, { size: "sm" }), st.key, st.skill));
    }
    skills.append(stacks);
    const supply = board.supply || {};
    const goods = el("div", { class: "goods" });
    for (const [name, count] of Object.entries(supply)) {
      const badge = countBadge(name === "gold" ? "coin" : "gem", count, `${name} in the supply`);
      badge.classList.add(`gem-${name.split(" ")[0]}`);
      goods.append(badge);
    }
    skills.append(el("p", { class: "note" }, "Supply:"), goods);
    root.append(skills);

    for (const player of board.players || []) root.append(playerPanel(player, board, ctx));
    return root;
  }

  Board.registerBoard("madame_ching", drawMch);
})();
