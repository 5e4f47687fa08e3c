// A table: one WebSocket per page (the seat's token, or none for a spectator), and a board: the
// game's own (its page template names it: data-board) or the generic one for any other game.
// Everything shown comes from the frames of this page's own socket; moves go back as notation,
// and the server answers a refused move with the terminal's message.
"use strict";

const Boards = {};  // board name (the page's data-board) -> render(view, ctx) returning a node

// ------------------------------------------------------------------ Caravan

const DIRECTION_WORDS = {ASC: "ascending", DES: "descending", ANY: "any direction"};

Boards.caravan = function renderCaravan(view, ctx) {
  const me = view.seats.includes(ctx.seat) ? ctx.seat : null;
  const mine = me === "DEF" ? 1 : 0;
  const legal = new Set(ctx.legal || []);
  const selected = ctx.selection.hand;  // 1-based hand position or null
  const rowOf = (seatIndex) => view.caravans.slice(seatIndex * 3, seatIndex * 3 + 3);

  function caravanNode(caravan, lane) {
    const taker = view.lanes[lane];
    const classes = ["caravan"];
    if (caravan.sold) classes.push("sold");
    if (caravan.bust) classes.push("bust");
    if (taker === caravan.owner) classes.push("winning");
    const play = selected ? `P${selected}${caravan.name}` : null;
    if (play && legal.has(play)) classes.push("target");
    const marks = [caravan.bust ? "BUST" : caravan.sold ? "SOLD" : null,
                   taker === caravan.owner ? "WINNING" : null].filter(Boolean);
    const suit = caravan.suit ? SUIT_GLYPHS[caravan.suit] : "";
    const head = CT.el("div", {class: "caravan-head"},
      CT.el("b", {}, caravan.name), " ",
      CT.el("span", {class: "value", title: "value"},
            caravan.value === null ? "?" : String(caravan.value)), " ",
      CT.el("span", {class: "dir", title: DIRECTION_WORDS[caravan.direction] || ""},
            caravan.direction || ""), " ",
      CT.el("span", {class: caravan.suit === "H" || caravan.suit === "D" ? "red" : ""}, suit), " ",
      marks.map((mark) => CT.el("span", {class: `mark ${mark.toLowerCase()}`}, mark)));
    const slots = caravan.cards.map((slot, index) => {
      const place = `P${selected}${caravan.name}${index + 1}`;
      const target = selected && legal.has(place);
      return CT.el("div", {class: `slot${target ? " target" : ""}`,
                           dataset: {caravan: caravan.name, slot: index + 1}},
        cardNode(slot.numeral, {tag: ctx.interactive ? "button" : "span",
          attrs: {type: "button", "aria-label": `${caravan.name} slot ${index + 1}`,
                  onclick: ctx.interactive ? (event) => {
                    event.stopPropagation();
                    if (selected) ctx.send(`P${selected}${caravan.name}${index + 1}`);
                  } : null}}),
        slot.faces.map((face) => cardNode(face, {classes: "face"})));
    });
    return CT.el("div", {class: classes.join(" "), dataset: {caravan: caravan.name},
                         role: ctx.interactive ? "button" : null,
                         "aria-label": `caravan ${caravan.name}`,
                         onclick: ctx.interactive ? () => {
                           if (selected) ctx.send(`P${selected}${caravan.name}`);
                         } : null},
      head, CT.el("div", {class: "slots"}, slots.length ? slots : CT.el("span", {class: "empty"}, "empty")));
  }

  // Clearing a caravan throws its cards away: it is a control of its own, away from the
  // caravans a click plays on, and it asks to be confirmed ("Confirm clear A" or "Cancel").
  function clearMove(name) {
    const plain = `C${name}`;
    const restart = selected ? `C${name}${selected}` : null;
    return legal.has(plain) ? plain : restart && legal.has(restart) ? restart : null;
  }

  function clearControls() {
    if (!ctx.interactive || !me) return null;
    const names = rowOf(mine).map((caravan) => caravan.name).filter(clearMove);
    const asked = ctx.selection.clear;
    if (asked && !names.includes(asked)) ctx.selection.clear = null;
    if (!names.length) return null;
    const buttons = ctx.selection.clear
      ? [CT.el("button", {type: "button", class: "danger", id: "confirm-clear",
                          onclick: () => { const move = clearMove(asked); ctx.selection.clear = null;
                                           if (move) ctx.send(move); }},
               `Confirm clear ${asked}`),
         CT.el("button", {type: "button", id: "cancel-clear",
                          onclick: () => { ctx.selection.clear = null; ctx.redraw(); }}, "Cancel"),
         CT.el("span", {class: "hint small"}, `Every card on caravan ${asked} leaves the table.`)]
      : names.map((name) => CT.el("button", {type: "button", class: "small-button clear",
                                             dataset: {clear: name},
                                             onclick: () => { ctx.selection.clear = name; ctx.redraw(); }},
                                  `Clear ${name}…`));
    return CT.el("div", {class: "row clear-controls", role: "group",
                         "aria-label": "clear one of your caravans"},
                 CT.el("span", {class: "small"}, "Clear a caravan:"), buttons);
  }

  function seatBox(seatIndex) {
    const seat = view.seats[seatIndex];
    const pile = view.discards[seat] || [];
    const top = pile.length ? pile[pile.length - 1] : null;
    const rules = view.rules && view.rules[seat];
    const showPile = !rules || rules.deck_exhaustion === "reshuffle_discards" || pile.length;
    return CT.el("div", {class: `seat-box${view.to_move === seat ? " to-move" : ""}`,
                         dataset: {seat}},
      CT.el("b", {}, seat + (seat === me ? " (you)" : "")),
      ` deck ${view.deck_sizes[seat]} · hand ${view.hand_sizes[seat]}`,
      showPile ? CT.el("span", {class: "pile"}, ` · discards ${pile.length} `,
                       top ? cardNode(top, {classes: "mini"}) : null) : null,
      view.to_move === seat ? CT.el("span", {class: "mark turn"}, "to move") : null);
  }

  const other = 1 - mine;
  const hand = view.hand
    ? CT.el("div", {class: "hand", "aria-label": "your hand"},
        CT.el("h2", {}, "Your hand"),
        CT.el("div", {class: "cards"}, view.hand.map((card, index) => cardNode(card, {
          tag: ctx.interactive ? "button" : "span",
          classes: selected === index + 1 ? "selected" : "",
          attrs: {type: "button", dataset: {index: index + 1},
                  "aria-pressed": selected === index + 1 ? "true" : "false",
                  onclick: ctx.interactive ? () => {
                    ctx.selection.hand = selected === index + 1 ? null : index + 1;
                    ctx.redraw();
                  } : null}}))),
        ctx.interactive ? CT.el("div", {class: "row"},
          CT.el("button", {type: "button", id: "discard",
                           disabled: !(selected && legal.has(`D${selected}`)),
                           onclick: () => ctx.send(`D${selected}`)}, "Discard selected"),
          CT.el("span", {class: "hint small"},
                "Click a card, then a caravan (a numeral) or a card in one (a face card)."))
          : null)
    : null;
  return CT.el("div", {class: "caravan-board"},
    seatBox(other),
    CT.el("div", {class: "caravan-row"}, rowOf(other).map((c, i) => caravanNode(c, i))),
    CT.el("div", {class: "caravan-row"}, rowOf(mine).map((c, i) => caravanNode(c, i))),
    seatBox(mine),
    hand,
    clearControls());
};

Boards.caravan.historyLine = (entry) => {
  if (entry.move === null) return `${entry.seat} shows a hand without enough numerals`;
  const cards = (entry.cards || []).filter(Boolean).map((card) => card.card).join(" ");
  return `${entry.seat}: ${entry.move}${cards ? " (" + cards + ")" : ""}`;
};

// ------------------------------------------------------------------ Obsession

function cardId(card) { return card ? Number(String(card.id).replace(/^o/, "")) : -1; }

Boards.obsession = function renderObsession(view, ctx) {
  const me = view.players.find((player) => player.seat === ctx.seat) || null;
  const legal = ctx.legal || [];
  const myTurn = ctx.interactive && me && view.to_move === me.seat && legal.length > 0;
  const chosen = ctx.selection.cards;  // set of card ids
  const hand = view.hand || [];
  const swap = view.phase === "swap";
  const pool = !me ? [] : swap
    ? [...hand, ...me.visible].sort((a, b) => cardId(a) - cardId(b))
    : hand.length ? hand : me.visible;
  const source = !me ? null : hand.length ? "hand" : me.visible.length ? "visible" : "hidden";

  function choosable(card, where) {
    // At the deal the choice is made in the pool (hand and visible row together).
    if (!myTurn) return false;
    return swap ? where === "pool" : where === source;
  }

  // Cards named by some legal play (or swap): outlined, so a player sees what may go down.
  const playable = new Set(legal.flatMap((move) => move.split(" ").slice(1))
    .map((word) => word.split("#")[0]));

  function pick(card, where) {
    const classes = [chosen.has(cardId(card)) ? "selected" : "",
                     choosable(card, where) && !swap && playable.has(card.card) ? "target" : ""];
    return cardNode(card, {
      tag: choosable(card, where) ? "button" : "span",
      classes: classes.join(" "),
      attrs: {type: "button", "aria-pressed": chosen.has(cardId(card)) ? "true" : "false",
              onclick: choosable(card, where) ? () => {
                const id = cardId(card);
                if (chosen.has(id)) chosen.delete(id); else chosen.add(id);
                ctx.redraw();
              } : null}});
  }

  function playerBox(player) {
    const place = view.placings.indexOf(player.seat);
    const isMe = me && player.seat === me.seat;
    const hidden = [];
    for (let k = 1; k <= player.hidden_count; k++) {
      const blind = isMe && myTurn && source === "hidden" && !swap;
      hidden.push(cardNode(null, {tag: blind ? "button" : "span", attrs: {
        type: "button", "aria-label": `hidden card ${k}`,
        onclick: blind ? () => ctx.send(`blind ${k}`) : null}}));
    }
    return CT.el("div", {class: `player${view.to_move === player.seat ? " to-move" : ""}`
                                + `${player.out ? " out" : ""}`, dataset: {seat: player.seat}},
      CT.el("div", {class: "player-head"},
        CT.el("b", {}, player.seat + (isMe ? " (you)" : "")),
        ` hand ${player.hand_count}`,
        place >= 0 ? CT.el("span", {class: "mark sold"}, `placed ${place + 1}`) : null,
        view.to_move === player.seat ? CT.el("span", {class: "mark turn"}, "to move") : null),
      CT.el("div", {class: "rows"},
        CT.el("span", {class: "label small"}, "visible"),
        CT.el("span", {class: "cards"}, player.visible.map((card) => isMe ? pick(card, "visible")
                                                            : cardNode(card))),
        CT.el("span", {class: "label small"}, "hidden"),
        CT.el("span", {class: "cards"}, hidden)));
  }

  function send() {
    const positions = [];
    pool.forEach((card, index) => { if (chosen.has(cardId(card))) positions.push(index + 1); });
    if (positions.length) ctx.send(positions.join(" "));
  }

  const pile = view.pile || [];
  const center = CT.el("div", {class: "centre"},
    CT.el("div", {class: "pile-box"}, CT.el("span", {class: "label small"}, `pile ${pile.length}`),
      pile.length ? CT.el("span", {class: "cards stacked"},
                          pile.slice(0, 4).reverse().map((c) => cardNode(c)))
                  : CT.el("span", {class: "empty"}, "empty")),
    CT.el("div", {class: "pile-box"}, CT.el("span", {class: "label small"},
      `draw pile ${view.draw_count}`), view.draw_count ? cardNode(null) : null),
    CT.el("div", {class: "small"},
      view.active_face ? `on ${view.active_face}` : "empty pile: anything goes",
      view.run > 1 ? ` · run of ${view.run}` : "",
      ` · direction ${view.direction > 0 ? "\u2192 forward" : "\u2190 reverse"}`,
      ` · play ${view.plays}`,
      view.placings.length ? ` · placings ${view.placings.join(", ")}` : ""));
  const others = view.players.filter((p) => !me || p.seat !== me.seat);
  const mine = me ? CT.el("div", {class: "mine"},
    playerBox(me),
    CT.el("div", {class: "hand"}, CT.el("h2", {}, swap ? "Your cards: choose 3 to lie face up"
                                                      : "Your hand"),
      CT.el("div", {class: "cards"}, swap ? pool.map((card) => pick(card, "pool"))
                                          : hand.map((card) => pick(card, "hand")))),
    ctx.interactive ? CT.el("div", {class: "row"},
      CT.el("button", {type: "button", id: "play-selected", disabled: !myTurn || !chosen.size,
                       onclick: send}, swap ? "Lay these face up" : "Play selected"),
      myTurn && source === "hidden" && !swap
        ? CT.el("span", {class: "hint small"}, "Pick a hidden card blind.") : null)
      : null) : null;
  return CT.el("div", {class: "obsession-board"},
    CT.el("div", {class: "players"}, others.map(playerBox)), center, mine);
};

Boards.obsession.historyLine = (line) => {
  const who = typeof line.seat === "number" ? `P${line.seat}` : line.seat || "";
  const cards = (line.cards || []).join(" ");
  if (line.t === "play") {
    const effects = (line.effects || []).length ? ` (${line.effects.join(", ")})` : "";
    return `${who} plays ${cards} from ${line.from}${effects}`;
  }
  if (line.t === "swap") return `${who} lays ${cards || "cards"} face up`;
  return `${who} ${line.t}${cards ? " " + cards : ""}`;
};

// ------------------------------------------------------------------ Austerity

const COLOUR_NAMES = {P: "Purple", B: "Brown", Y: "Yellow", R: "Red", W: "Wild"};

Boards.austerity = function renderAusterity(view, ctx) {
  const legal = ctx.legal || [];
  const myTurn = ctx.interactive && view.to_move === ctx.seat && legal.length > 0;
  const colours = view.colours;  // "PBYR"
  const chip = (colour, count) => CT.el("span", {class: `chip c-${colour}`,
                                                 title: COLOUR_NAMES[colour]}, `${colour} ${count}`);
  const market = view.market.map((card, index) => {
    const buy = legal.find((move) => move.startsWith(`purchase${index}:`));
    return CT.el(myTurn && buy ? "button" : "div", {
      class: `market-card c-${card.colour}${buy ? " target" : ""}`, type: "button",
      dataset: {index}, onclick: myTurn && buy ? () => ctx.send(buy) : null},
      CT.el("b", {}, `${card.points} pt`), " ", COLOUR_NAMES[card.colour],
      CT.el("span", {class: "small"}, " cost ",
            card.cost.map((n, c) => n ? `${n}${colours[c]}` : "").filter(Boolean).join(" ") || "free"));
  });
  const takes = myTurn ? legal.filter((m) => m.startsWith("take") || m === "wild").map((move) =>
    CT.el("button", {type: "button", class: "take", onclick: () => ctx.send(move)},
          move === "wild" ? "Take a wild" : "Take " + move.slice(4).split(",")
            .map((n, c) => n !== "0" ? colours[c] : "").join(""))) : [];
  const players = CT.el("table", {class: "list"},
    CT.el("thead", {}, CT.el("tr", {}, ["Seat", "Points", "Tokens", "Wilds", "Discounts"]
      .map((h) => CT.el("th", {}, h)))),
    CT.el("tbody", {}, view.players.map((p) => CT.el("tr", {
      class: view.to_move === p.seat ? "to-move" : "", dataset: {seat: p.seat}},
      CT.el("td", {}, p.seat + (p.seat === ctx.seat ? " (you)" : "")),
      CT.el("td", {}, String(p.points)),
      CT.el("td", {}, p.tokens.map((n, c) => chip(colours[c], n))),
      CT.el("td", {}, String(p.wilds)),
      CT.el("td", {}, p.discounts.map((n, c) => chip(colours[c], n)))))));
  return CT.el("div", {class: "austerity-board"},
    CT.el("div", {class: "row"}, CT.el("b", {}, "Tokens "), view.piles.map((n, c) => chip(colours[c], n)),
          CT.el("span", {class: "small"}, ` · target ${view.target} points`)),
    CT.el("h2", {}, "Market"), CT.el("div", {class: "market"}, market),
    takes.length ? CT.el("div", {class: "row"}, takes) : null,
    players);
};

// ------------------------------------------------------------------ any other game

// The generic board draws a view as it comes: keys and values, lists, cards as their text.
function words(key) { return String(key).replace(/_/g, " "); }

function isCard(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && typeof value.card === "string";
}

// A value in one short line of text (a history entry, a list of cards).
function plainText(value) {
  if (value === null || value === undefined) return "\u2014";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value !== "object") return String(value);
  if (isCard(value)) return value.card;
  if (Array.isArray(value)) return value.map(plainText).join(" ");
  return Object.entries(value).map(([key, item]) => `${words(key)} ${plainText(item)}`).join(", ");
}

function valueNode(value, depth) {
  if (value === null || value === undefined) return CT.el("span", {class: "none"}, "\u2014");
  if (typeof value !== "object") return CT.el("span", {}, plainText(value));
  if (isCard(value)) return CT.el("span", {class: "card-text", title: "card"}, value.card);
  if (depth > 8) return CT.el("span", {}, plainText(value));
  if (Array.isArray(value)) {
    if (!value.length) return CT.el("span", {class: "none"}, "none");
    if (value.every((item) => item === null || typeof item !== "object" || isCard(item))) {
      return CT.el("span", {class: "inline-list"},
                   value.flatMap((item, index) => [index ? " " : "", valueNode(item, depth + 1)]));
    }
    return CT.el("ol", {class: "view-list"},
                 value.map((item) => CT.el("li", {}, valueNode(item, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return CT.el("span", {class: "none"}, "nothing");
  return CT.el("dl", {class: "view"}, entries.flatMap(([key, item]) => [
    CT.el("dt", {}, words(key)), CT.el("dd", {dataset: {key}}, valueNode(item, depth + 1))]));
}

Boards.generic = function renderGeneric(view, ctx) {
  const legal = ctx.legal || [];
  const myTurn = ctx.interactive && legal.length > 0;
  const turn = ctx.result ? "The game is over."
    : ctx.toMove ? `${ctx.toMove}${ctx.toMove === ctx.seat ? " (you)" : ""} to move.` : "";
  // The history is in the Last moves panel; everything else the view holds is drawn here.
  const shown = Object.assign({}, view);
  delete shown.history;
  return CT.el("div", {class: "generic-board"},
    CT.el("p", {class: "turn"}, turn),
    myTurn ? CT.el("div", {class: "row legal-moves", role: "group", "aria-label": "your moves"},
      CT.el("b", {}, "Your moves:"),
      legal.map((move) => CT.el("button", {type: "button", class: "move", dataset: {move},
                                           onclick: () => ctx.send(move)}, move))) : null,
    valueNode(shown, 0));
};

Boards.generic.historyLine = (entry) => {
  if (entry && typeof entry === "object" && !Array.isArray(entry) && "seat" in entry
      && "move" in entry) return `${entry.seat}: ${plainText(entry.move)}`;
  return plainText(entry);
};

function boardOf(root) {
  const board = root.querySelector("#board");
  const name = board && board.dataset.board;
  return Boards[name] || Boards.generic;
}

// ------------------------------------------------------------------ the last move

// The history in words: the view's own (the server writes it, "DEF played K♥ on your 9♣
// in A"), else each entry as the board's historyLine writes it.
function historyLines(view, render) {
  if (Array.isArray(view.history_text)) return view.history_text.slice(-12);
  const line = (render && render.historyLine) || Boards.generic.historyLine;
  return Array.isArray(view.history) ? view.history.slice(-12).map(line) : [];
}

// The latest move: a line in words above the board, and on the board the cards it moved
// (by their ids) and the seat that moved marked. A new move also gets a short animation
// (the class "fresh"; style.css leaves it still under prefers-reduced-motion).
function showLastMove(view, render, fresh) {
  const box = document.getElementById("last-move");
  if (!box) return;
  const last = view.last_move || null;
  const lines = last ? [last.text] : historyLines(view, render).slice(-1);
  box.hidden = !lines.length;
  box.classList.remove("fresh");
  CT.replace(box, lines.length ? [CT.el("span", {class: "label small"}, "Last move: "),
                                  CT.el("span", {class: "words"}, lines[0])] : []);
  const board = document.getElementById("board");
  const marked = [];
  if (last) {
    for (const id of last.cards || []) {
      board.querySelectorAll(`[data-id="${CSS.escape(String(id))}"]`)
        .forEach((node) => marked.push(node));
    }
    if (last.seat) {
      board.querySelectorAll(`[data-seat="${CSS.escape(String(last.seat))}"]`)
        .forEach((node) => node.classList.add("last-mover"));
    }
    if (typeof last.market === "number") {
      board.querySelectorAll(`.market-card[data-index="${last.market}"]`)
        .forEach((node) => marked.push(node));
    }
  }
  marked.forEach((node) => node.classList.add("last-moved"));
  if (fresh && lines.length) {
    void box.offsetWidth;  // restart the animation for a move that follows another at once
    box.classList.add("fresh");
    marked.forEach((node) => node.classList.add("fresh"));
  }
}

// ------------------------------------------------------------------ the page

function resultText(view, result) {
  if (!result) return null;
  const winners = result.winners || [];
  if (result.reason === "abandoned") {
    // The server closed a table its people had left (docs/web.md): say why.
    const why = (result.details || {}).why;
    return `Game over: abandoned${why ? ` (${why})` : ""}.`;
  }
  if (view && view.result_text && result.reason !== "forfeit") {
    // Places in words ("1st P2, 2nd P1, 3rd P3"), where the game gives them.
    return `Game over: ${view.result_text} (${result.reason}).`;
  }
  const who = winners.length ? `${winners.join(", ")} ${winners.length > 1 ? "win" : "wins"}`
                             : "no winner";
  const details = result.details || {};
  if (result.reason === "forfeit" && details.seat) {
    // A program broke the protocol or its clock: say which seat and why (docs/bots.md).
    return `Game over: ${details.seat} forfeits (${details.why}); ${who} (forfeit).`;
  }
  return `Game over: ${who} (${result.reason}).`;
}

const TablePage = {
  table: null, ws: null, frame: null, seat: null, token: null, retry: 500, closed: false,
  ctx: null, timerEnd: null, game: null, title: null, presets: [], render: null,

  start(root) {
    this.table = root.dataset.table;
    this.game = root.dataset.game;
    this.title = root.dataset.title || this.game;
    this.presets = (root.dataset.presets || "").split(" ").filter(Boolean);
    this.render = boardOf(root);
    document.getElementById("move-input").placeholder =
      document.getElementById("board").dataset.placeholder || "";
    const stored = CT.loadSeat(this.table);
    if (stored && stored.token) { this.seat = stored.seat; this.token = stored.token; }
    this.ctx = {seat: this.seat, legal: [], interactive: !!this.token,
                selection: {hand: null, clear: null, cards: new Set()},
                send: (move) => this.send(move), redraw: () => this.draw()};
    document.getElementById("invite-link").value =
      `${location.origin}/tables/${encodeURIComponent(this.table)}`;
    document.getElementById("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = document.getElementById("move-input");
      if (input.value.trim()) this.send(input.value.trim());
      input.value = "";
    });
    document.getElementById("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = document.getElementById("chat-input");
      const text = input.value.trim();
      if (text && this.ws && this.ws.readyState === WebSocket.OPEN) {
        this.ws.send(JSON.stringify({type: "chat", text}));
      }
      input.value = "";
    });
    this.refreshInfo();
    this.connect();
    setInterval(() => this.tick(), 1000);
  },

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // The seat's token goes in the first message, never in the URL (URLs end up in logs).
    const ws = new WebSocket(
      `${scheme}//${location.host}/api/tables/${encodeURIComponent(this.table)}/ws?hello`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 500;
      ws.send(JSON.stringify(this.token ? {type: "hello", token: this.token} : {type: "hello"}));
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (error) { return; }
      this.receive(frame);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      if (event.code === 4401) {
        // This browser's token is not (or no longer) a seat of the table: watch instead.
        CT.forgetSeat(this.table);
        this.token = null; this.seat = null;
        this.ctx.seat = null; this.ctx.interactive = false;
        this.ctx.legal = [];
      } else if (event.code === 4403 || event.code === 4404) {
        // No such table, or no spectators: nothing to reconnect to (a free seat may be taken).
        this.setStatus(this.lastError || "This table cannot be watched.");
        this.refreshInfo();
        return;
      } else {
        this.setStatus("Connection lost: reconnecting…");
      }
      // Back off (0.5 s, 1 s, 2 s, then every 2.5 s), with a little jitter so that the
      // pages of a restarted server do not all come back in the same instant.
      setTimeout(() => this.connect(), this.retry + Math.random() * 300);
      this.retry = Math.min(this.retry * 2, 2500);
    });
  },

  async refreshInfo() {
    try {
      this.info = await CT.api("GET", `/api/tables/${encodeURIComponent(this.table)}`);
    } catch (error) {
      return;
    }
    this.drawHead();
  },

  send(move) {
    document.getElementById("move-error").textContent = "";
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      document.getElementById("move-error").textContent = "Not connected: try again in a moment.";
      return;
    }
    this.ws.send(JSON.stringify({type: "move", move}));
  },

  receive(frame) {
    if (frame.type === "state") {
      const before = this.frame;
      this.frame = frame;
      if (frame.seat && this.token) { this.seat = frame.seat; this.ctx.seat = frame.seat; }
      this.ctx.legal = frame.legal || [];
      this.ctx.toMove = frame.to_move;
      this.ctx.result = frame.result || frame.observation.result || null;
      if (!before || before.ply !== frame.ply || before.to_move !== frame.to_move) {
        // A move was made (or the turn passed): a half-made selection no longer applies.
        this.ctx.selection.hand = null;
        this.ctx.selection.clear = null;
        this.ctx.selection.cards.clear();
        document.getElementById("move-error").textContent = "";
      }
      if ("deadline" in frame) this.timerEnd = frame.deadline ? frame.deadline * 1000 : null;
      if (frame.result && (!before || !before.result)) this.refreshInfo();
      this.draw();
    } else if (frame.type === "error") {
      this.lastError = frame.message;
      document.getElementById("move-error").textContent = frame.message;
    } else if (frame.type === "chat") {
      this.addChat(frame);
    } else if (frame.type === "chat_history") {
      CT.replace(document.getElementById("chat-lines"));
      (frame.lines || []).forEach((line) => this.addChat(line));
    } else if (frame.type === "table") {
      this.info = frame;
      this.drawHead();
    } else if (frame.type === "rematch") {
      this.info = Object.assign({}, this.info, {rematch: frame.table});
      this.drawHead();
    }
  },

  addChat(line) {
    const list = document.getElementById("chat-lines");
    list.append(CT.el("li", {}, CT.el("b", {}, `${line.name || line.seat || "spectator"}: `),
                      String(line.text)));
    while (list.children.length > 100) list.firstChild.remove();
    list.scrollTop = list.scrollHeight;
  },

  setStatus(text) { document.getElementById("status").textContent = text; },

  draw() {
    const frame = this.frame;
    if (!frame) return;
    const view = frame.observation;
    const render = this.render;
    CT.replace(document.getElementById("board"), render(view, this.ctx));
    const result = resultText(view, frame.result || view.result);
    const mine = !result && this.token && frame.to_move === this.seat;
    document.title = `${mine ? "\u25cf Your move \u00b7 " : ""}${this.title} \u00b7 cardtable`;
    if (result) this.setStatus(result);
    else if (frame.status === "open") this.setStatus("Waiting for players to sit down.");
    else if (frame.to_move === this.seat && this.token) this.setStatus("Your move.");
    else this.setStatus(`${frame.to_move} to move.`);
    document.getElementById("table-page").dataset.toMove = frame.to_move || "";
    document.getElementById("table-page").dataset.ply = String(frame.ply ?? "");
    document.getElementById("table-page").dataset.over = result ? "yes" : "no";
    document.getElementById("legal").textContent = (frame.legal || []).join("  ") || "none now";
    const moves = document.getElementById("last-moves");
    const lines = historyLines(view, render);
    CT.replace(moves, lines.length ? lines.map((text) => CT.el("li", {}, text))
      : CT.el("li", {class: "hint"}, view.history || view.history_text
        ? "No move yet." : "The table above is the whole story in this game."));
    // A move made while the page is open is animated; the one found on opening is not.
    showLastMove(view, render, this.shownPly !== undefined && frame.ply !== this.shownPly);
    this.shownPly = frame.ply;
    const over = !!result;
    document.getElementById("move-panel").hidden = !this.token || over;
    if (over) document.getElementById("invite").hidden = true;
    this.drawHead();
  },

  drawHead() {
    const info = this.info || {};
    const game = this.game || info.game || "";
    document.getElementById("table-title").textContent = `${this.title} · table ${this.table}`;
    document.getElementById("seat-line").textContent = this.token
      ? `You are ${this.seat}.` : "You are watching.";
    // The rules in play: the preset the table names (parameter "rules"), else the default.
    const named = info.params && info.params.rules;
    const preset = this.presets.length
      ? (this.presets.includes(named) ? named : this.presets[0]) : null;
    document.getElementById("howto-link").href = game
      ? `/howto/${encodeURIComponent(game)}${preset ? "/" + encodeURIComponent(preset) : ""}`
      : "/howto";
    CT.replace(document.getElementById("players-line"), (info.seats || []).map((seat, index) =>
      CT.el("span", {class: "player-name", dataset: {seat: seat.seat}}, index ? " · " : "",
            CT.el("b", {}, seat.seat), " ",
            seat.kind === "human" ? (seat.name || (seat.taken ? "a person" : "free seat"))
                                  : `bot ${seat.kind.slice(4)}`,
            seat.kind === "human" && seat.taken
              ? CT.el("span", {class: seat.connected ? "online" : "offline",
                               title: seat.connected ? "connected" : "not connected"},
                      seat.connected ? " \u25cf" : " \u25cb") : null)));
    const watching = info.spectators || {};
    document.getElementById("watching").textContent = watching.allowed === false
      ? " · no spectators" : ` · ${watching.count || 0} watching`;
    document.getElementById("chat-form").hidden = !this.token;
    if (this.token && info.status === "open" && !this.invited) {
      document.getElementById("invite").open = true;  // someone has still to sit down
      this.invited = true;
    }
    const offer = document.getElementById("seat-offer");
    const free = info.free_seats || [];
    const over = this.frame && (this.frame.result || this.frame.observation.result);
    if (!this.naming) {
      CT.replace(offer, !this.token && !over ? free.map((seat) => CT.el("button", {
        type: "button", class: "take-seat", onclick: () => this.join(seat)}, `Take seat ${seat}`))
        : []);
    }
    if (over) document.getElementById("invite").hidden = true;
    const after = document.getElementById("after-game");
    CT.replace(after, over ? [
      CT.el("a", {class: "button", href: `/replay/${encodeURIComponent(this.table)}`}, "Replay"),
      CT.el("a", {class: "button", id: "new-game", href: "/#create-form"}, "New game"),
      CT.el("a", {class: "button", href: `/api/tables/${encodeURIComponent(this.table)}/record`},
            "Download record"),
      this.token ? CT.el("button", {type: "button", id: "rematch",
                                    onclick: () => this.rematch()}, "Rematch") : null,
      info.rematch ? CT.el("a", {class: "button", href: `/tables/${encodeURIComponent(info.rematch)}`},
                           "Go to the rematch") : null,
    ] : []);
  },

  // A guest who sits down is asked for a name first (it becomes this browser's player name,
  // POST /api/players), so that the table shows a name instead of "a person".
  async join(seat, named) {
    if (!named) {
      const me = await CT.whoami();
      if (!me || !me.name) { this.askName(seat); return; }
    }
    try {
      const answer = await CT.api("POST", `/api/tables/${encodeURIComponent(this.table)}/join`,
                                  {seat});
      CT.saveSeat(this.table, answer.seat || seat, answer.token);
      location.reload();
    } catch (error) {
      this.setStatus(error.message);
    }
  },

  askName(seat) {
    this.naming = true;
    const offer = document.getElementById("seat-offer");
    const input = CT.el("input", {id: "seat-name", maxlength: "20", required: true,
                                  autocomplete: "nickname", "aria-describedby": "seat-name-error"});
    const error = CT.el("span", {id: "seat-name-error", class: "error", role: "alert"});
    const form = CT.el("form", {id: "seat-name-form", class: "row", autocomplete: "off",
      onsubmit: async (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name) { error.textContent = "A name is needed."; return; }
        try {
          await CT.api("POST", "/api/players", {name});
        } catch (failure) {
          error.textContent = failure.message;
          return;
        }
        this.naming = false;
        this.join(seat, true);
      }},
      CT.el("label", {}, `Your name, to sit at ${seat}: `, input),
      CT.el("button", {type: "submit", id: "seat-name-sit"}, "Sit down"),
      CT.el("button", {type: "button", onclick: () => { this.naming = false; this.drawHead(); }},
            "Cancel"),
      error);
    CT.replace(offer, form);
    input.focus();
  },

  async rematch() {
    try {
      const answer = await CT.api("POST", `/api/tables/${encodeURIComponent(this.table)}/rematch`,
                                  {token: this.token});
      CT.saveSeat(answer.table, answer.seat, answer.token);
      location.href = `/tables/${encodeURIComponent(answer.table)}`;
    } catch (error) {
      this.setStatus(error.message);
    }
  },

  tick() {
    const timer = document.getElementById("timer");
    if (!this.timerEnd || (this.frame && this.frame.result)) { timer.hidden = true; return; }
    const left = Math.max(0, Math.round((this.timerEnd - Date.now()) / 1000));
    timer.hidden = false;
    timer.textContent = ` · ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
  },
};

const tableRoot = document.getElementById("table-page");
if (tableRoot) TablePage.start(tableRoot);
