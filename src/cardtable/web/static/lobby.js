// The lobby: open tables (refreshed every few seconds), quick match, create a table.
"use strict";

// Every game the server offers (GET /api/games): title, seats and their names, bots, params.
const GAMES = JSON.parse(document.getElementById("games-data").textContent);
const form = document.getElementById("create-form");

function showError(id, error) {
  document.getElementById(id).textContent = error ? String(error.message || error) : "";
}

function listOf(data) {
  if (Array.isArray(data)) return data;
  return (data && data.tables) || [];
}

function freeSeats(table) {
  return table.free_seats || [];
}

function rulesText(table) {
  const params = Object.assign({}, table.params || {});
  const game = GAMES[table.game] || {};
  if (game.players) delete params[game.players.name];  // the seats say it
  const players = table.seats ? `${table.seats.length} seats: ` + table.seats.map((seat) =>
    seat.kind === "human" ? (seat.name || "person") : seat.kind.slice(4)).join(", ") : "";
  const rules = Object.entries(params).map(([key, value]) => `${key}=${value}`).join(", ");
  const presets = game.presets || [];
  return [rules || (presets.length ? `rules=${presets[0]}` : "default options"), players]
    .filter(Boolean).join(" · ");
}

async function refreshTables() {
  const body = document.querySelector("#open-tables tbody");
  let tables;
  try {
    tables = listOf(await CT.api("GET", "/api/tables"));
  } catch (error) {
    CT.replace(body, CT.el("tr", {}, CT.el("td", {colspan: 6, class: "error"}, error.message)));
    return;
  }
  if (!tables.length) {
    CT.replace(body, CT.el("tr", {}, CT.el("td", {colspan: 6, class: "hint"},
      "No open table: create one below, or press Quick match.")));
    return;
  }
  CT.replace(body, tables.map((table) => {
    const free = freeSeats(table);
    const id = table.table;
    const watching = table.spectators || {};
    return CT.el("tr", {dataset: {table: id}},
      CT.el("td", {}, CT.el("a", {href: `/tables/${encodeURIComponent(id)}`}, id)),
      CT.el("td", {}, (GAMES[table.game] || {}).title || table.game),
      CT.el("td", {class: "small"}, rulesText(table)),
      CT.el("td", {}, free.length ? free.join(" ") : "none"),
      CT.el("td", {}, watching.allowed === false ? "off" : String(watching.count || 0)),
      CT.el("td", {}, free.length
        ? CT.el("button", {type: "button", class: "join",
                           onclick: () => joinTable(id, free[0])}, `Sit at ${free[0]}`)
        : CT.el("a", {href: `/tables/${encodeURIComponent(id)}`}, "Watch")));
  }));
}

async function joinTable(table, seat) {
  showError("lobby-error", null);
  try {
    const answer = await CT.api("POST", `/api/tables/${encodeURIComponent(table)}/join`,
                                {seat: seat});
    CT.saveSeat(table, answer.seat || seat, answer.token);
    location.href = `/tables/${encodeURIComponent(table)}`;
  } catch (error) {
    showError("lobby-error", error);
  }
}

// ------------------------------------------------------------------ create a table

function seatNames(game) {
  const entry = GAMES[game];
  const [low, high] = entry.seats;
  let count = low;
  if (entry.players) {
    const input = form.querySelector(
      `fieldset[data-game="${game}"] [name="${CSS.escape(entry.players.name)}"]`);
    count = Math.min(Math.max(Number(input && input.value) || low, low), high);
  }
  return entry.seat_names[String(count)];
}

function drawSeatChoices() {
  const game = form.elements.game.value;
  const box = document.getElementById("seat-choices");
  const previous = {};
  for (const select of box.querySelectorAll("select")) previous[select.name] = select.value;
  const names = seatNames(game);
  CT.replace(box, names.map((seat, index) => {
    const name = `seat-${seat}`;
    const select = CT.el("select", {name, "aria-label": `Seat ${seat}`},
      CT.el("option", {value: "human"}, index === 0 ? "me" : "a person"),
      GAMES[game].bots.map((bot) => CT.el("option", {value: `bot:${bot}`}, `bot: ${bot}`)));
    // A table of a fixed size: people by default; one of a chosen size: me and bots.
    const bots = GAMES[game].bots;
    const fallback = !GAMES[game].players || index === 0 || !bots.length
      ? "human" : `bot:${bots[0]}`;
    select.value = previous[name] || fallback;
    return CT.el("label", {class: "seat-choice"}, `${seat} `, select);
  }));
}

function showGameFields() {
  const game = form.elements.game.value;
  for (const fieldset of form.querySelectorAll("fieldset[data-game]")) {
    fieldset.hidden = fieldset.dataset.game !== game;
  }
  drawSeatChoices();
}

function createBody() {
  const game = form.elements.game.value;
  const params = {};
  const fieldset = form.querySelector(`fieldset[data-game="${game}"]`);
  // A parameter left at the game's default is not sent: the table's rules list what differs.
  const defaults = {};
  for (const param of GAMES[game].params) {
    if (param.default !== null && param.default !== undefined) {
      defaults[param.name] = String(param.default);
    }
  }
  for (const input of fieldset.querySelectorAll("input, select")) {
    const value = input.value.trim();
    if (value === "" || defaults[input.name] === value) continue;
    const number = input.type === "number" ? Number(value) : null;
    params[input.name] = number !== null && Number.isFinite(number) ? number : value;
  }
  const seats = [...document.querySelectorAll("#seat-choices select")].map((s) => s.value);
  const names = seatNames(game);
  const mine = seats.indexOf("human");
  const body = {game, params, seats, spectators: form.elements.spectators.checked,
                private: form.elements.private.checked};
  if (mine >= 0) body.claim = [names[mine]];
  const timer = form.elements.turn_timer.value;
  if (timer) body.turn_seconds = Number(timer);
  return body;
}

async function createTable(body) {
  const answer = await CT.api("POST", "/api/tables", body);
  const tokens = answer.tokens || {};
  const first = Object.keys(tokens)[0];
  if (first) CT.saveSeat(answer.table, first, tokens[first]);
  location.href = `/tables/${encodeURIComponent(answer.table)}`;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("create-error", null);
  try {
    await createTable(createBody());
  } catch (error) {
    showError("create-error", error);
  }
});
form.elements.game.addEventListener("change", showGameFields);
for (const [game, entry] of Object.entries(GAMES)) {
  if (!entry.players) continue;
  const input = form.querySelector(
    `fieldset[data-game="${game}"] [name="${CSS.escape(entry.players.name)}"]`);
  if (input) input.addEventListener("change", drawSeatChoices);
}

// ------------------------------------------------------------------ quick match

document.getElementById("quick-match").addEventListener("click", async () => {
  const game = document.getElementById("quick-game").value;
  showError("lobby-error", null);
  try {
    const answer = await CT.api("POST", "/api/quick", {game});
    CT.saveSeat(answer.table, answer.seat, answer.token);
    location.href = `/tables/${encodeURIComponent(answer.table)}`;
  } catch (error) {
    showError("lobby-error", error);
  }
});

showGameFields();
refreshTables();
setInterval(refreshTables, 4000);
