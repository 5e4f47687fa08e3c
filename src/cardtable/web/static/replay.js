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
  const ctx = {seat: null, legal: [], interactive: false, toMove: null, result: null,
               selection: {hand: null, cards: new Set()}, send: () => {}, redraw: () => {}};
  const render = boardOf(root);

  // Each seat's hand (a game's own board), or each seat's whole view (the generic board).
  function seatsNode(view) {
    const hands = view.hands || {};
    if (Object.keys(hands).length) {
      return Object.entries(hands).map(([seat, cards]) => CT.el("div", {class: "row", dataset: {seat}},
        CT.el("b", {}, seat), cards.length ? cardRow(cards, {classes: "mini"}) : "no cards"));
    }
    const views = view.views || {};
    if (Object.keys(views).length) {
      document.getElementById("hands-title").textContent = "Every seat's view";
      return Object.entries(views).map(([seat, seen]) => CT.el("div", {class: "seat-view", dataset: {seat}},
        CT.el("b", {}, seat), valueNode(seen, 0)));
    }
    return CT.el("p", {}, "Nothing is hidden in this game: the table shows it all.");
  }

  function draw() {
    const frame = frames[position];
    if (!frame) return;
    const view = frame.view;
    ctx.toMove = position + 1 < frames.length ? frames[position + 1].seat : null;
    ctx.result = view.result || null;
    const shown = Object.assign({}, view);
    delete shown.views;
    CT.replace(document.getElementById("board"), render(render === Boards.generic ? shown : view, ctx));
    CT.replace(document.getElementById("hands"), seatsNode(view));
    const total = frames.length - 1;
    const result = view.result ? ` · ${resultText(view, view.result)}` : "";
    document.getElementById("replay-position").textContent = position === 0
      ? `The deal (${total} moves)` + result
      : `Move ${position} of ${total}: ${said(frame)}` + result;
    root.dataset.position = String(position);
    slider.value = String(position);
    CT.replace(document.getElementById("replay-moves"), frames.slice(1, position + 1)
      .slice(-20).map((f) => CT.el("li", {}, said(f))));
    showLastMove(position ? view : {}, render, position !== shownPosition);
    shownPosition = position;
  }

  // A step in words where the game's views give them (the move after which the view was
  // taken), else as the record writes it: seat and notation.
  function said(frame) {
    const last = frame.view.last_move;
    return last && last.text ? last.text : `${frame.seat ? frame.seat + ": " : ""}${frame.move}`;
  }
  let shownPosition = -1;

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
