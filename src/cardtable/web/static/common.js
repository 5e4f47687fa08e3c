// Shared by every page: DOM helpers (text only, never HTML from data), the API, seat tokens.
"use strict";

const CT = {
  // el("div", {class: "x", onclick: f}, child, "text", ...): children are nodes or text.
  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  replace(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  },

  async api(method, path, body) {
    const init = {method, headers: {}, credentials: "same-origin"};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    let data = null;
    try { data = await response.json(); } catch (error) { data = null; }
    if (!response.ok) {
      const message = data && (data.error || data.message || data.detail);
      throw new Error(typeof message === "string" ? message
                      : `The server refused (${response.status}).`);
    }
    return data;
  },

  // A seat's token lives in this browser only (localStorage), keyed by table.
  saveSeat(table, seat, token) {
    localStorage.setItem(`cardtable.seat.${table}`, JSON.stringify({seat, token}));
  },
  loadSeat(table) {
    try { return JSON.parse(localStorage.getItem(`cardtable.seat.${table}`)); }
    catch (error) { return null; }
  },
  forgetSeat(table) { localStorage.removeItem(`cardtable.seat.${table}`); },

  async whoami() {
    try { return await CT.api("GET", "/api/players/me"); } catch (error) { return null; }
  },

  // The header's line: an account's name (a link to its page) or a guest's name.
  showMe(player) {
    const me = document.getElementById("me");
    if (!me) return;
    if (player && player.name && player.account) {
      const page = `/people/${encodeURIComponent(player.name)}`;
      CT.replace(me, "Signed in as ", CT.el("a", {href: page}, CT.el("b", {}, player.name)));
    } else if (player && player.name) {
      CT.replace(me, "Playing as ", CT.el("b", {}, player.name), " (guest)");
    } else {
      CT.replace(me);
    }
  },
};

window.addEventListener("DOMContentLoaded", async () => {
  const me = document.getElementById("me");
  if (!me) return;
  CT.showMe(await CT.whoami());
});
