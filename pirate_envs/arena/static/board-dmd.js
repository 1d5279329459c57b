// Dead Man's Draw: the draw pile, the row of this turn's cards, the discard pile and each seat's bank of
// suit stacks (board kind "dead_mans_draw", docs/arena-board.md).
"use strict";

(() => {
  const { el, symbol, cardBack, cardFace, panel, row, seatLabel, countBadge } = Board;

  // suit -> [card colour, symbol]
  const SUITS = {
    Anchor: ["#dfe6ea", "anchor"],
    Cannon: ["#d9dde3", "cannon"],
    Chest: ["#f7e3a1", "chest"],
    Key: ["#f3eac2", "key"],
    Hook: ["#ecd6c6", "hook"],
    Kraken: ["#e2d2ec", "kraken"],
    Map: ["#efe0c8", "map"],
    Mermaid: ["#cdeee6", "mermaid"],
    Oracle: ["#d3e6f5", "oracle"],
    Sword: ["#f3d0cc", "sword"],
    Marker: ["#ffffff", "anchor"],
  };

  function suitCard(card, opts) {
    if (!card) return el("div", { class: "card empty-slot" });
    if (card.hidden) return cardBack(card.back || "card", opts);
    const [colour, sym] = SUITS[card.suit] || ["#fff", "question"];
    const node = cardFace(card, { top: card.value || "", symbol: symbol(sym, card.suit), name: card.suit || card.name,
      colour }, opts);
    if (card.safe) node.append(el("span", { class: "tag good", title: "safe from a bust (left of an Anchor)" }, "safe"));
    if (card.last) node.classList.add("highlight");
    return node;
  }

  function abilityCard(card, opts) {
    if (!card) return null;
    if (card.hidden) return cardBack(card.back || "ability", opts);
    return cardFace(card, { symbol: symbol("crown", "ability"), name: card.name, colour: "#fbefc9",
      sub: card.secret ? "secret" : "" }, opts);
  }

  function stack(st, ctx) {
    const node = el("div", { class: "stack", title: `${st.suit}: ${st.cards.map((c) => c.value).join(", ")} (the top card scores)` });
    st.cards.forEach((card, i) => {
      const c = suitCard(card, { size: "sm" });
      if (i < st.cards.length - 1) c.classList.add("under");
      node.append(c);
    });
    return ctx.mark(node, st.key, `${st.suit} stack`);
  }

  function drawDmd(board, ctx) {
    const root = el("div", { class: "board dmd" });

    const deck = board.deck || {};
    const deckBox = panel(el("h4", {}, "Draw pile"), { class: "deck" });
    const deckCard = cardBack("deck", { count: deck.count });
    ctx.mark(deckCard, deck.key, "the draw pile");
    deckBox.append(deckCard);
    if (deck.forced_draws) deckBox.append(el("p", { class: "note warn" }, `must draw ${deck.forced_draws} more`));
    for (const peek of deck.peeks || []) {
      deckBox.append(el("p", { class: "note" }, `card ${peek.depth} from the top:`), suitCard(peek.card, { size: "sm" }));
    }
    root.append(deckBox);

    const rowData = board.row || { cards: [] };
    const active = board.active;
    const rowBox = panel(el("h4", {}, "The row", active !== null && active !== undefined ? el("span", { class: "muted" },
      `${ctx.seatName(active)} ${ctx.seatName(active) === "You" ? "are" : "is"} drawing`) : null), { class: "row-panel" });
    const cards = row("the-row");
    for (const card of rowData.cards || []) cards.append(suitCard(card));
    if (!(rowData.cards || []).length) cards.append(el("span", { class: "empty" }, "no cards drawn yet"));
    rowBox.append(cards);
    root.append(ctx.mark(rowBox, rowData.key, "the row"));

    const discard = board.discard || { count: 0, cards: [] };
    const discardBox = panel(el("h4", {}, "Discard pile"), { class: "discard" });
    const top = discard.cards && discard.cards.length ? discard.cards[discard.cards.length - 1] : null;
    discardBox.append(top ? suitCard(top, { size: "sm" }) : el("div", { class: "card sm empty-slot" }),
      el("p", { class: "note", title: (discard.cards || []).map((c) => c.name).join(", ") }, `${discard.count} cards`));
    root.append(discardBox);

    for (const bank of board.banks || []) {
      const head = el("h4", {}, seatLabel(ctx, bank.seat), countBadge("coin", bank.score, "points: the top card of each suit"));
      if (bank.eliminated) head.append(el("span", { class: "tag bad" }, "out"));
      if (bank.locker_target) head.append(el("span", { class: "tag" }, "Locker"));
      const box = panel(head, { class: `bank ${bank.seat === ctx.viewer ? "own" : ""} ${bank.playing ? "current-seat" : ""}` });
      const stacks = row("stacks");
      for (const st of bank.stacks || []) stacks.append(stack(st, ctx));
      if (!(bank.stacks || []).length) stacks.append(el("span", { class: "empty" }, "no cards banked yet"));
      const ability = abilityCard(bank.ability, { size: "sm" });
      if (ability) stacks.append(ability);
      box.append(stacks);
      root.append(ctx.mark(box, bank.key, ctx.seatName(bank.seat)));
    }

    if (board.dealt && board.dealt.length) {
      const choosing = board.dealt.some((card) => card.key);
      const dealt = panel(choosing ? "Your ability cards: keep one" : "Your dealt ability cards", { class: "dealt own" });
      const cards2 = row("");
      for (const card of board.dealt) cards2.append(ctx.mark(abilityCard(card), card.key, card.name));
      dealt.append(cards2);
      root.append(dealt);
    }
    if (board.offer) {
      const offer = panel(board.offer.title || "Offer", { class: "offer" });
      const cards3 = row("");
      for (const card of board.offer.cards || []) cards3.append(ctx.mark(suitCard(card), card.key, card.name));
      offer.append(cards3);
      root.append(ctx.mark(offer, "offer", board.offer.title || "the offer"));
    }
    if (board.last_turn) {
      const last = board.last_turn;
      const box = panel(el("h4", {}, "Last turn:", seatLabel(ctx, last.seat), el("span", { class: last.busted ? "tag bad" : "tag good" },
        last.busted ? "busted" : "banked")), { class: "last-turn" });
      const cards4 = row("");
      for (const card of last.cards || []) cards4.append(suitCard(card, { size: "sm" }));
      box.append(cards4);
      root.append(box);
    }
    if (board.variant && board.variant.name && board.variant.name !== "No variant") {
      root.append(panel("Rule card", { class: "variant" }, el("p", { class: "note", title: board.variant.detail },
        `${board.variant.name}: ${board.variant.detail}`)));
    }
    return root;
  }

  Board.registerBoard("dead_mans_draw", drawDmd);
})();
