// Pirates of the Spanish Main: the adventure row, the ship line front to back, the move cards and each
// seat's pirates (board kind "potsm", docs/arena-board.md).
"use strict";

(() => {
  const { el, symbol, flag, cardBack, cardFace, panel, countBadge, row, seatToken, seatLabel } = Board;

  const NATION_COLOURS = { English: "#f6d5d1", Spanish: "#f8eab0", Dutch: "#fde0c2", French: "#d6e4f5" };

  function adventureCard(card) {
    const node = cardFace(card, { symbol: symbol("scroll", "adventure"), name: card.name, sub: card.detail,
      colour: card.current ? "#fff1c1" : "#fbf6e6" }, { size: "wide" });
    if (card.current) node.classList.add("current-adventure");
    return node;
  }

  function shipTile(ship, ctx) {
    const classes = ["ship", ship.damaged ? "damaged" : "", ship.mine ? "mine" : ""].join(" ");
    const node = el("div", { class: classes, title: ship.detail || ship.ship,
      style: `--nation:${NATION_COLOURS[ship.nation] || "#eee"}` });
    node.append(el("span", { class: "position", title: `position ${ship.position} from the front` }, String(ship.position)));
    node.append(el("div", { class: "ship-head" }, flag(ship.nation), symbol("ship", `${ship.nation} ship`)));
    node.append(el("div", { class: "ship-name" }, ship.ship));
    node.append(el("div", { class: "fame", title: `fame ${ship.fame}` }, symbol("star", "fame"), String(ship.fame)));
    if (ship.damaged) node.append(el("div", { class: "damage-mark", title: "damaged" }, symbol("damage", "damaged"), "damaged"));
    const owner = el("div", { class: "owner" });
    if (ship.owner !== null && ship.owner !== undefined) {
      owner.append(seatToken(ship.owner, ctx.seatName(ship.owner)), el("span", {}, ship.pirate || ""));
    } else if (ship.owner_known === "nobody") {
      owner.append(el("span", { class: "muted" }, "no pirate aboard"));
    } else {
      owner.append(el("span", { class: "muted", title: "whose pirate sails this ship is secret" }, "owner secret"));
    }
    node.append(owner);
    if (ship.not_owners && ship.not_owners.length && (ship.owner === null || ship.owner === undefined)) {
      const not = el("div", { class: "not-owners", title: "known not to own this ship" }, "not ");
      for (const seat of ship.not_owners) not.append(seatToken(seat, ctx.seatName(seat), "crossed"));
      node.append(not);
    }
    return ctx.mark(node, ship.key, ship.ship);
  }

  function moveCard(card, ctx) {
    const node = cardFace(card, { symbol: symbol("arrows", "move card"), name: card.name, sub: card.effect || "",
      colour: "#eef4fb" });
    return ctx.mark(node, card.key, card.name);
  }

  function pirateCard(card) {
    if (card.hidden) return cardBack(card.back || "pirate");
    const node = cardFace({ name: card.name, detail: card.ship ? `sails ${card.ship}` : "" },
      { symbol: symbol("skull", "pirate"), name: card.name, sub: card.ship || "", colour: card.revealed ? "#f3e3e3" : "#fff" });
    if (card.revealed) node.append(el("span", { class: "tag" }, "revealed"));
    return node;
  }

  function drawPotsm(board, ctx) {
    const root = el("div", { class: "board potsm" });

    const adventures = panel(el("h4", {}, symbol("scroll"), "Adventures"), { class: "adventures" });
    const advRow = row("");
    for (const card of board.adventures || []) advRow.append(adventureCard(card));
    advRow.append(cardBack("adventure", { count: board.adventure_deck }));
    adventures.append(advRow, el("p", { class: "note" },
      `Turn ${board.turn} · ${board.adventure_deck} adventures left · ${board.adventures_discarded} resolved`));
    root.append(adventures);

    const line = panel(el("h4", {}, "The line", el("span", { class: "muted" }, "front → back")), { class: "wide line-panel" });
    const ships = el("div", { class: "ship-line" });
    for (const ship of board.line || []) ships.append(shipTile(ship, ctx));
    line.append(ships);
    root.append(ctx.mark(line, "line", "the whole line"));

    const moves = board.moves || {};
    const movePanel = panel(el("h4", {}, "Move cards"), { class: "moves" });
    const moveRow = row("");
    for (const card of moves.row || []) moveRow.append(moveCard(card, ctx));
    moveRow.append(cardBack("move", { count: moves.deck }));
    movePanel.append(moveRow);
    for (const hand of moves.hands || []) {
      const handRow = row("hand");
      if (hand.cards && hand.cards.length) for (const card of hand.cards) handRow.append(moveCard(card, ctx));
      else for (let i = 0; i < hand.count; i++) handRow.append(cardBack("move", { size: "sm" }));
      movePanel.append(el("div", { class: "hand-line" }, seatLabel(ctx, hand.seat), handRow));
    }
    if (moves.discard && moves.discard.length) {
      const last = moves.discard[moves.discard.length - 1];
      movePanel.append(el("p", { class: "note", title: moves.discard.map((c) => c.name).join(", ") },
        `Discarded: ${moves.discard.length} (last: ${last.name})`));
    }
    root.append(movePanel);

    for (const seat of board.pirates || []) {
      const box = panel(el("h4", {}, seatLabel(ctx, seat.seat)), { class: `pirates ${seat.seat === ctx.viewer ? "own" : ""}` });
      if (seat.seat === ctx.current) box.classList.add("current-seat");
      box.append(el("p", { class: "note" }, countBadge("star", seat.known_fame ?? seat.claimed, "fame known to you"),
        ` known fame${seat.claimed ? ` · ${seat.claimed} claimed` : ""}`));
      const cards = row("");
      for (const card of seat.cards || []) cards.append(pirateCard(card));
      box.append(cards);
      root.append(ctx.mark(box, seat.key, ctx.seatName(seat.seat)));
    }

    if (board.record && board.record.length) {
      const record = panel("Last turns", { class: "record" });
      const list = el("ul", {});
      for (const line of board.record) list.append(el("li", {}, line));
      record.append(list);
      root.append(record);
    }
    return root;
  }

  Board.registerBoard("potsm", drawPotsm);
})();
