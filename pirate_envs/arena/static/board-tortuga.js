// Tortuga 1667: the map (Tortuga island, the ships with their crews by rank, the lanes, the Spanish
// galleon), each player's chest, the vote and the event (board kind "tortuga", docs/arena-board.md).
"use strict";

(() => {
  const { el, svgEl, symbol, flag, cardBack, cardFace, panel, row, seatColour, seatLabel, countBadge } = Board;

  // Where each of the eight places sits on the drawn map (0 Tortuga, 1-3 the ships, 4 the galleon, 5-7 the lanes).
  const SPOTS = [[95, 200], [400, 70], [400, 200], [400, 330], [568, 200], [250, 70], [250, 200], [250, 330]];
  const NATION_HULLS = { England: "#b03a2e", France: "#1f4e96", Spain: "#b7950b" };

  function pawns(place, ctx, cx, cy, radius) {
    const group = svgEl("g", { class: "pawns" });
    const seats = place.kind === "ship" && place.crew ? place.crew : place.seats || [];
    const perRow = place.kind === "island" ? 4 : 3;
    seats.forEach((seat, i) => {
      const x = cx - ((Math.min(seats.length, perRow) - 1) * 26) / 2 + (i % perRow) * 26;
      const y = cy + radius + Math.floor(i / perRow) * 26;
      const pawn = svgEl("g", { class: "pawn", transform: `translate(${x},${y})` },
        svgEl("title", {}, ctx.seatName(seat)),
        svgEl("circle", { r: 11.5, fill: seatColour(seat), stroke: "#fff", "stroke-width": 2.5 }),
        svgEl("text", { y: 4.5, "text-anchor": "middle", class: "pawn-number" }, String(seat + 1)));
      if (place.captain === seat && place.kind === "ship") {
        pawn.append(svgEl("path", { d: "M-8 -12l3-6 5 4 5-4 3 6z", fill: "#f1c40f", stroke: "#7d6608", "stroke-width": 1 }));
      }
      group.append(pawn);
    });
    return group;
  }

  function placeNode(place, ctx) {
    const [cx, cy] = SPOTS[place.node] || [0, 0];
    const g = svgEl("g", { class: `place place-${place.kind}` });
    g.append(svgEl("title", {}, place.place));
    if (place.kind === "island") {
      g.append(svgEl("ellipse", { class: "hit", cx, cy, rx: 78, ry: 52, fill: "#ecd9a0", stroke: "#b39b5a", "stroke-width": 2 }));
      g.append(svgEl("path", { d: `M${cx - 8} ${cy - 6}v-26M${cx - 8} ${cy - 32}c-10-7-22-4-26 3M${cx - 8} ${cy - 32}c10-7 22-4 26 3`,
        fill: "none", stroke: "#1e8449", "stroke-width": 4, "stroke-linecap": "round" }));
      g.append(svgEl("text", { x: cx, y: cy + 16, "text-anchor": "middle", class: "place-name" }, "Tortuga"));
    } else if (place.kind === "lane") {
      g.append(svgEl("circle", { class: "hit", cx, cy, r: 22, fill: "#d6eaf8", stroke: "#5d8aa8", "stroke-width": 2,
        "stroke-dasharray": "5 4" }));
    } else {
      const galleon = place.kind === "galleon";
      const hull = galleon ? "#7e5109" : NATION_HULLS[place.nation] || "#555";
      const w = galleon ? 62 : 54;
      g.append(svgEl("rect", { class: "hit", x: cx - w - 6, y: cy - 50, width: 2 * w + 12, height: 76, rx: 12,
        fill: "rgba(255,255,255,.35)", stroke: "transparent", "stroke-width": 2 }));
      g.append(svgEl("path", { d: `M${cx - w} ${cy}h${2 * w}l-14 22h-${2 * w - 28}z`, fill: hull }));
      g.append(svgEl("path", { d: `M${cx} ${cy}v-46`, stroke: "#4a3520", "stroke-width": 3 }));
      g.append(svgEl("path", { d: `M${cx + 2} ${cy - 42}l30 30h-30z M${cx - 2} ${cy - 36}l-26 26h26z`, fill: "#fdfefe",
        stroke: "#aab7b8" }));
      if (galleon) {
        g.append(svgEl("text", { x: cx, y: cy - 58, "text-anchor": "middle", class: "place-name" }, "Galleon"));
        g.append(svgEl("text", { x: cx, y: cy + 42, "text-anchor": "middle", class: "place-note" },
          `${place.treasure ?? "?"} treasure`));
      } else {
        g.append(svgEl("text", { x: cx, y: cy + 40, "text-anchor": "middle", class: "place-name" }, place.place));
      }
    }
    g.append(pawns(place, ctx, cx, cy + (place.kind === "lane" ? 0 : 30), place.kind === "island" ? 30 : place.kind === "lane" ? 0 : 22));
    return ctx.mark(g, place.key, place.place);
  }

  function drawMap(board, ctx) {
    const map = svgEl("svg", { viewBox: "0 0 640 430", class: "tortuga-map", role: "img", "aria-label": "the map of the sea" });
    map.append(svgEl("rect", { x: 0, y: 0, width: 640, height: 430, rx: 14, fill: "#a9cce3" }));
    for (const [a, b] of board.links || []) {
      const [x1, y1] = SPOTS[a] || [0, 0];
      const [x2, y2] = SPOTS[b] || [0, 0];
      map.append(svgEl("line", { x1, y1, x2, y2, stroke: "#5d8aa8", "stroke-width": 3, "stroke-dasharray": "8 6" }));
    }
    (board.places || []).forEach((place, node) => map.append(placeNode({ node, ...place }, ctx)));
    return map;
  }

  function crewPanel(place, ctx) {
    const head = el("h4", {}, place.nation ? flag(place.nation) : symbol("ship"), place.place);
    const box = panel(head, { class: "crew" });
    const list = el("ol", { class: "ranks" });
    for (const seat of place.crew || []) {
      const rank = seat === place.captain ? "Captain" : seat === place.first_mate ? "First mate" : "Sailor";
      list.append(el("li", {}, el("span", { class: "rank" }, rank), seatLabel(ctx, seat)));
    }
    if (!(place.crew || []).length) list.append(el("li", { class: "empty" }, "no crew aboard"));
    box.append(list);
    return box;
  }

  function chest(player, ctx) {
    const head = el("h4", {}, seatLabel(ctx, player.seat));
    if (player.exiled) head.append(el("span", { class: "tag bad" }, "exiled"));
    const box = panel(head, { class: `player ${player.seat === ctx.viewer ? "own" : ""} ${player.seat === ctx.current ? "current-seat" : ""}` });
    box.append(el("p", { class: "note" }, player.role || ""));
    const c = player.chest || {};
    const known = c.treasure !== null && c.treasure !== undefined;
    const line = el("div", { class: "chest-line" },
      el("span", { class: "nation", title: player.nation ? `loyal to ${player.nation}` : "loyalty secret" },
        player.nation ? flag(player.nation) : symbol("question", "loyalty secret")),
      countBadge("chest", known ? c.treasure : "?", known ? "treasure in the chest" : "treasure in the chest: secret"),
      countBadge("map", c.maps ?? "?", "treasure maps"));
    if (c.public_treasure) line.append(el("span", { class: "muted", title: "treasure everyone saw go in" }, `(${c.public_treasure} seen)`));
    if (c.steals) line.append(el("span", { class: "muted" }, `${c.steals} stolen`));
    box.append(line);
    return ctx.mark(box, player.key || `seat:${player.seat}`, ctx.seatName(player.seat));
  }

  const VOTE_COLOURS = { Yes: "#d5f5e3", No: "#fadbd8", Wild: "#fcf3cf" };

  // A vote: what it is about and each voter's card, face down until the reveal (the viewer's own at once).
  function votePanel(vote, ctx, title) {
    const box = panel(el("h4", {}, symbol("vote"), title), { class: "vote wide" });
    box.append(el("p", { class: "about" }, capitalise(vote.about || "")));
    const cards = row("");
    for (const voter of vote.voters || []) {
      const counted = voter.counted && voter.counted !== voter.card ? `counts as ${voter.counted}` : "";
      const declared = voter.declared ? `as ${voter.declared}` : "";
      const card = voter.card
        ? cardFace({ name: voter.card }, { name: voter.card, sub: counted || declared, colour: VOTE_COLOURS[voter.card] || "#fff" },
          { size: "sm" })
        : cardBack("vote", { size: "sm" });
      cards.append(el("div", { class: "voter" }, card, seatLabel(ctx, voter.seat)));
    }
    box.append(cards);
    if (vote.yes !== undefined) {
      const outcome = `${vote.yes} yes, ${vote.no} no${vote.neutral_die ? `, the neutral die says ${vote.neutral_die}` : ""}: `
        + (vote.passed ? "passed" : "failed");
      box.append(el("p", { class: "note" }, outcome));
    }
    return ctx.mark(box, vote.key || "vote", "the vote");
  }

  function capitalise(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : "";
  }

  function drawTortuga(board, ctx) {
    const root = el("div", { class: "board tortuga" });
    const mapBox = panel(el("h4", {}, "The sea", el("span", { class: "muted" },
      `round ${board.round} of ${board.max_rounds}`)), { class: "wide map-panel" });
    mapBox.append(drawMap(board, ctx));
    root.append(mapBox);
    if (board.vote) root.append(votePanel(board.vote, ctx, "Vote"));
    else if (board.last_vote) root.append(votePanel(board.last_vote, ctx, "Last vote"));
    for (const place of board.places || []) if (place.kind === "ship") root.append(crewPanel(place, ctx));
    const deck = panel("Events", { class: "events" });
    const cards = row("");
    const eventDeck = board.event_deck || {};
    const back = cardBack("event", { count: eventDeck.count });
    cards.append(ctx.mark(back, eventDeck.key || "event_deck", "the event deck"));
    if (board.event) cards.append(cardFace(board.event, { symbol: symbol("scroll"), name: board.event.name, colour: "#ece4f7" }));
    deck.append(cards, el("p", { class: "note" }, `${board.supply ?? "?"} treasure left in the supply`));
    const told = (board.log || []).filter((entry) => !entry.restates_move).slice(-4);
    if (told.length) {
      const list = el("ul", { class: "table-news" });
      for (const entry of told) list.append(el("li", {}, entry.text));
      deck.append(list);
    }
    root.append(deck);
    if (board.loot) {
      const loot = board.loot;
      const box = panel(el("h4", {}, "Sharing the loot:", seatLabel(ctx, loot.captain)), { class: "loot" });
      box.append(el("p", { class: "note" }, `${loot.left} treasure left to give`));
      for (const given of loot.given || []) box.append(el("div", {}, seatLabel(ctx, given.seat), ` +${given.treasure}`));
      root.append(box);
    }
    for (const player of board.players || []) root.append(chest(player, ctx));
    return root;
  }

  Board.registerBoard("tortuga", drawTortuga);
})();
