// The lobby: open tables a page at a time (the current page refreshed every few seconds),
// quick match, create a table.
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

// ------------------------------------------------------------------ open tables, by page

const PAGE_SIZE = 20;
// The cursor of each page seen so far (null: the first page); the current one is the last.
// The server pages forwards only, so going back pops the stack.
const paging = {cursors: [null], next: null, game: ""};

function tablesPath() {
  const query = new URLSearchParams({limit: String(PAGE_SIZE)});
  if (paging.game) query.set("game", paging.game);
  const cursor = paging.cursors[paging.cursors.length - 1];
  if (cursor) query.set("cursor", cursor);
  return `/api/tables?${query}`;
}

function showPaging() {
  const page = paging.cursors.length;
  document.getElementById("tables-page").textContent = `Page ${page}`;
  document.getElementById("tables-previous").disabled = page === 1;
  document.getElementById("tables-next").disabled = !paging.next;
}

function turnPage(change) {
  if (change > 0 && paging.next) paging.cursors.push(paging.next);
  else if (change < 0 && paging.cursors.length > 1) paging.cursors.pop();
  else return;
  paging.next = null;
  showPaging();
  refreshTables();
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
  const path = tablesPath();
  let answer;
  try {
    answer = await CT.api("GET", path);
  } catch (error) {
    CT.replace(body, CT.el("tr", {}, CT.el("td", {colspan: 6, class: "error"}, error.message)));
    return;
  }
  if (path !== tablesPath()) return;  // the page or the filter changed meanwhile
  const tables = listOf(answer);
  paging.next = (answer && answer.next) || null;
  showPaging();
  if (!tables.length) {
    CT.replace(body, CT.el("tr", {}, CT.el("td", {colspan: 6, class: "hint"},
      paging.cursors.length > 1 ? "No more open tables: go back to the previous page."
        : paging.game ? "No open table of this game: create one below, or press Quick match."
          : "No open table: create one below, or press Quick match.")));
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

// ------------------------------------------------------------------ a guest's name

// A guest is asked for a name before sitting down (a table made with a seat for them, a
// seat taken, a quick match): the others see it at the table instead of "a person".
async function ensureName(errorId) {
  const me = await CT.whoami();
  if (me && me.name) return true;
  const input = document.getElementById("lobby-name");
  const name = input.value.trim();
  if (!name) {
    document.getElementById("name-row").hidden = false;
    showError(errorId, "Choose your name first (at the top of the page): the others see it " +
                       "at the table.");
    input.focus();
    return false;
  }
  await CT.api("POST", "/api/players", {name});
  const named = await CT.whoami();
  CT.showMe(named);
  document.getElementById("name-row").hidden = true;
  return true;
}

async function joinTable(table, seat) {
  showError("lobby-error", null);
  try {
    if (!(await ensureName("lobby-error"))) return;
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
  const pace = form.elements.bot_delay.value;
  if (pace) body.bot_delay = Number(pace);
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
    const body = createBody();
    if (body.claim && !(await ensureName("create-error"))) return;
    await createTable(body);
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
    if (!(await ensureName("lobby-error"))) return;
    const answer = await CT.api("POST", "/api/quick", {game});
    CT.saveSeat(answer.table, answer.seat, answer.token);
    location.href = `/tables/${encodeURIComponent(answer.table)}`;
  } catch (error) {
    showError("lobby-error", error);
  }
});

document.getElementById("tables-previous").addEventListener("click", () => turnPage(-1));
document.getElementById("tables-next").addEventListener("click", () => turnPage(1));
document.getElementById("tables-game").addEventListener("change", (event) => {
  paging.game = event.target.value;
  paging.cursors = [null];
  paging.next = null;
  showPaging();
  refreshTables();
});

CT.whoami().then((me) => { document.getElementById("name-row").hidden = Boolean(me && me.name); });
paging.game = document.getElementById("tables-game").value;  // (a browser may restore it)
showGameFields();
refreshTables();
setInterval(refreshTables, 4000);
