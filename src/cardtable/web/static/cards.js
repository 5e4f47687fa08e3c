// Cards as buttons or spans: "7S" -> 7♠ (red for hearts and diamonds); null is a card's back.
"use strict";

const SUIT_GLYPHS = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};

function cardParts(text) {
  if (text === "JO" || text === "R") return {rank: text === "R" ? "R" : "JO", suit: "", red: false};
  const suit = text.slice(-1);
  return {rank: text.slice(0, -1), suit, red: suit === "H" || suit === "D"};
}

// card: {"card": "7S", "id": ...} or null (face down). options: {tag, classes, attrs}.
function cardNode(card, options) {
  const opts = options || {};
  const tag = opts.tag || "span";
  if (!card) {
    return CT.el(tag, Object.assign({class: `card back ${opts.classes || ""}`,
                                     title: "face down"}, opts.attrs || {}), "\u00a0");
  }
  const parts = cardParts(card.card);
  const label = parts.suit ? `${parts.rank}${SUIT_GLYPHS[parts.suit]}` : parts.rank;
  return CT.el(tag, Object.assign({
    class: `card ${parts.red ? "red" : "black"} ${opts.classes || ""}`,
    title: card.card, dataset: card.id ? {card: card.card, id: card.id} : {card: card.card},
  }, opts.attrs || {}), label);
}

function cardRow(cards, options) {
  return CT.el("span", {class: "cards"}, (cards || []).map((card) => cardNode(card, options)));
}
