// The leaderboard: choose a name (kept by a cookie), ratings per game with games played.
"use strict";

const gameSelect = document.getElementById("board-game");

async function showBoard() {
  const body = document.querySelector("#leaderboard tbody");
  try {
    const board = await CT.api("GET", `/api/leaderboard/${encodeURIComponent(gameSelect.value)}`);
    const players = board.players || [];
    CT.replace(body, players.length ? players.map((player, index) => CT.el("tr", {},
      CT.el("td", {}, String(index + 1)), CT.el("td", {}, player.name),
      CT.el("td", {title: `mu ${player.mu}, sigma ${player.sigma}`}, String(player.rating)),
      CT.el("td", {}, String(player.games))))
      : CT.el("tr", {}, CT.el("td", {colspan: 4, class: "hint"},
                              "No rated games yet: finished games between named players count.")));
  } catch (error) {
    CT.replace(body, CT.el("tr", {}, CT.el("td", {colspan: 4, class: "error"}, error.message)));
  }
}

document.getElementById("name-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("name-error");
  error.textContent = "";
  try {
    const answer = await CT.api("POST", "/api/players",
                                {name: document.getElementById("name-input").value});
    CT.replace(document.getElementById("me"), "Playing as ", CT.el("b", {}, answer.name));
  } catch (failure) {
    error.textContent = failure.message;
  }
});

gameSelect.addEventListener("change", showBoard);
(async () => {
  const me = await CT.whoami();
  if (me && me.name) document.getElementById("name-input").value = me.name;
})();
showBoard();
