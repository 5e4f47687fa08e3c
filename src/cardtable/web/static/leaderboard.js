// The leaderboard: accounts' ratings per game with games played (each name a link to the
// person's page), and a guest's name for this browser (kept by a cookie, unrated).
"use strict";

const gameSelect = document.getElementById("board-game");

let asked = 0;  // the latest board asked for: an earlier answer that comes later is dropped

async function showBoard() {
  const body = document.querySelector("#leaderboard tbody");
  const mine = ++asked;
  try {
    const board = await CT.api("GET", `/api/leaderboard/${encodeURIComponent(gameSelect.value)}`);
    if (mine !== asked) return;
    const players = board.players || [];
    CT.replace(body, players.length ? players.map((player, index) => CT.el("tr", {},
      CT.el("td", {}, String(index + 1)),
      CT.el("td", {}, CT.el("a", {href: `/people/${encodeURIComponent(player.name)}`},
                            player.name)),
      CT.el("td", {title: `mu ${player.mu}, sigma ${player.sigma}`}, String(player.rating)),
      CT.el("td", {}, String(player.games))))
      : CT.el("tr", {}, CT.el("td", {colspan: 4, class: "hint"},
                              "No rated games yet: finished games between accounts count.")));
  } catch (error) {
    if (mine !== asked) return;
    CT.replace(body, CT.el("tr", {}, CT.el("td", {colspan: 4, class: "error"}, error.message)));
  }
}

document.getElementById("name-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("name-error");
  error.textContent = "";
  try {
    CT.showMe(await CT.api("POST", "/api/players",
                           {name: document.getElementById("name-input").value}));
  } catch (failure) {
    error.textContent = failure.message;
  }
});

gameSelect.addEventListener("change", showBoard);
(async () => {
  const me = await CT.whoami();
  // Signed in, the browser plays as the account: no guest's name to choose.
  if (me && me.account) document.getElementById("name-form").hidden = true;
  else if (me && me.name) document.getElementById("name-input").value = me.name;
})();
showBoard();
