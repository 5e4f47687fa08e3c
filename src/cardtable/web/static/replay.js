// The replay page: every frame of a finished game is in the page; steps forward and back.
"use strict";

(async function replayPage() {
  const root = document.getElementById("replay-page");
  if (!root) return;
  let frames = [];
  let moves = [];
  try {
    const replay = await CT.api("GET",
      `/replay/${encodeURIComponent(root.dataset.table)}/steps`);
    moves = replay.moves;
    frames = replay.frames.map((view, index) => ({view, seat: index ? moves[index - 1].seat : null,
                                                  move: index ? moves[index - 1].move : null}));
  } catch (error) {
    document.getElementById("replay-error").textContent = error.message;
    return;
  }
  const slider = document.getElementById("replay-slider");
  let position = 0;
  let timer = null;
  slider.max = String(Math.max(frames.length - 1, 0));
  const ctx = {seat: null, legal: [], interactive: false,
               selection: {hand: null, cards: new Set()}, send: () => {}, redraw: () => {}};

  function draw() {
    const frame = frames[position];
    if (!frame) return;
    const view = frame.view;
    CT.replace(document.getElementById("board"), Boards[view.game](view, ctx));
    const hands = view.hands || {};
    CT.replace(document.getElementById("hands"), Object.keys(hands).length
      ? Object.entries(hands).map(([seat, cards]) => CT.el("div", {class: "row", dataset: {seat}},
          CT.el("b", {}, seat), cards.length ? cardRow(cards, {classes: "mini"}) : "no cards"))
      : CT.el("p", {}, "Nothing is hidden in this game: the table shows it all."));
    const total = frames.length - 1;
    const result = view.result ? ` · ${resultText(view, view.result)}` : "";
    document.getElementById("replay-position").textContent = position === 0
      ? `The deal (${total} moves)` + result
      : `Move ${position} of ${total}: ${frame.seat ? frame.seat + " " : ""}${frame.move}` + result;
    root.dataset.position = String(position);
    slider.value = String(position);
    CT.replace(document.getElementById("replay-moves"), frames.slice(1, position + 1)
      .slice(-20).map((f) => CT.el("li", {}, `${f.seat ? f.seat + ": " : ""}${f.move}`)));
  }

  function go(to) {
    position = Math.max(0, Math.min(frames.length - 1, to));
    draw();
  }

  function toggle() {
    const button = document.getElementById("replay-play");
    if (timer) { clearInterval(timer); timer = null; button.textContent = "Play"; return; }
    button.textContent = "Pause";
    timer = setInterval(() => {
      if (position >= frames.length - 1) { toggle(); return; }
      go(position + 1);
    }, 800);
  }

  document.getElementById("replay-first").addEventListener("click", () => go(0));
  document.getElementById("replay-back").addEventListener("click", () => go(position - 1));
  document.getElementById("replay-forward").addEventListener("click", () => go(position + 1));
  document.getElementById("replay-last").addEventListener("click", () => go(frames.length - 1));
  document.getElementById("replay-play").addEventListener("click", toggle);
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target !== slider) return;
    if (event.key === "ArrowRight") go(position + 1);
    else if (event.key === "ArrowLeft") go(position - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(frames.length - 1);
    else if (event.key === " ") { event.preventDefault(); toggle(); }
    else return;
    event.preventDefault();
  });
  draw();
})();
