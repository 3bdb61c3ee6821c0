// Moving cards without a mouse. Keyboard: focus a card, Space picks it up,
// the arrow keys carry it across and within columns, Space or Enter drops
// it, Escape puts it back; a live region says where it is. Touch and pen:
// drag a card by its grip (pointer events). Drops go through board.js's
// place: shown at once, rolled back with a message if refused.
(function () {
  "use strict";
  const board = document.getElementById("board");
  const api = window.switchboardBoard;
  if (!board || !api) return;
  const announcer = document.getElementById("board-announce");
  let carried = null; // {card, column, index}: what is carried, from where

  function announce(text) { announcer.textContent = text; }
  function titleOf(card) { return card.querySelector(".kc-title").textContent; }
  function cardsIn(column) { return [...column.querySelectorAll(".kcard")]; }

  function where(card) {
    const column = card.closest(".column");
    const cards = cardsIn(column);
    return column.querySelector("h2").textContent + ", position " + (cards.indexOf(card) + 1) + " of " + cards.length;
  }

  function pickUp(card) {
    const column = card.closest(".column");
    carried = { card: card, column: column, index: cardsIn(column).indexOf(card) };
    api.carry(card);
    card.classList.add("carrying");
    announce("Picked up " + titleOf(card) + ": " + where(card) + ". Arrow keys move it, Space drops it, Escape cancels.");
  }

  // shift carries the card one column across (dx) or one place along (dy).
  function shift(dx, dy) {
    const card = carried.card;
    const list = card.closest(".cards");
    const cards = [...list.querySelectorAll(".kcard")];
    const i = cards.indexOf(card);
    if (dx) {
      const columns = [...board.querySelectorAll(".column")];
      const next = columns[columns.indexOf(card.closest(".column")) + dx];
      if (!next) return;
      const to = next.querySelector(".cards");
      to.insertBefore(card, [...to.querySelectorAll(".kcard")][i] || null);
      next.scrollIntoView({ block: "nearest", inline: "nearest" });
    } else {
      const j = i + dy;
      if (j < 0 || j >= cards.length) return;
      list.insertBefore(card, dy < 0 ? cards[j] : cards[j].nextSibling);
    }
    card.focus(); // moving a node in the document blurs it
    announce(titleOf(card) + ": " + where(card));
  }

  // putBack returns a carried card (c: what carried held) to where it was
  // picked up.
  function putBack(c) {
    const list = c.column.querySelector(".cards");
    list.insertBefore(c.card, cardsIn(c.column).filter((x) => x !== c.card)[c.index] || null);
  }

  async function drop() {
    const c = carried;
    const card = c.card;
    const id = card.dataset.card;
    const column = card.closest(".column");
    const title = titleOf(card);
    carried = null;
    card.classList.remove("carrying");
    announce("Dropped " + title + ": " + where(card) + ".");
    const ok = await api.place(card, column, cardsIn(column).indexOf(card));
    // The board's refresh puts a refused card back too, unless it is
    // refused as well (the session ended): back by hand then.
    if (!ok && document.contains(card)) putBack(c);
    api.carry(null);
    if (!ok) announce("The move of " + title + " was refused; it is back where it was.");
    const again = board.querySelector('[data-card="' + id + '"]');
    if (again) again.focus();
  }

  function cancel() {
    const c = carried;
    carried = null;
    putBack(c);
    c.card.classList.remove("carrying");
    c.card.focus();
    api.carry(null);
    announce("Move cancelled: " + titleOf(c.card) + " is back at " + where(c.card) + ".");
  }

  const keys = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  board.addEventListener("keydown", (e) => {
    const card = e.target.closest(".kcard");
    if (!card || e.target !== card) return;
    if (!carried) {
      if (e.key === " ") { e.preventDefault(); pickUp(card); }
      return;
    }
    if (keys[e.key]) shift(keys[e.key][0], keys[e.key][1]);
    else if (e.key === " " || e.key === "Enter") drop();
    else if (e.key === "Escape") cancel();
    else return;
    e.preventDefault();
    e.stopPropagation(); // Enter and Escape are the drawer's otherwise
  });

  // ---- touch and pen, by the card's grip ----
  let touch = null; // {card, pointer}
  const strip = () => board.querySelector(".columns");

  function columnAt(x, y) {
    const el = document.elementFromPoint(x, y);
    return el && board.contains(el) ? el.closest(".column") : null;
  }
  function mark(column) {
    board.querySelectorAll(".column.over").forEach((c) => c !== column && c.classList.remove("over"));
    if (column) column.classList.add("over");
  }

  board.addEventListener("pointerdown", (e) => {
    const grip = e.target.closest("[data-grip]");
    if (!grip || e.pointerType === "mouse" || carried) return;
    e.preventDefault();
    touch = { card: grip.closest(".kcard"), pointer: e.pointerId };
    touch.card.classList.add("dragging");
    api.carry(touch.card);
  });
  window.addEventListener("pointermove", (e) => {
    if (!touch || e.pointerId !== touch.pointer) return;
    e.preventDefault();
    mark(columnAt(e.clientX, e.clientY));
    // Near the window's edges the columns scroll, to reach those off screen.
    const s = strip();
    if (s && e.clientX < 40) s.scrollLeft -= 24;
    if (s && e.clientX > window.innerWidth - 40) s.scrollLeft += 24;
  }, { passive: false });
  window.addEventListener("pointerup", async (e) => {
    if (!touch || e.pointerId !== touch.pointer) return;
    const card = touch.card;
    touch = null;
    card.classList.remove("dragging");
    const column = columnAt(e.clientX, e.clientY);
    mark(null);
    if (column) await api.place(card, column, api.indexAt(column.querySelector(".cards"), e.clientY, card));
    api.carry(null);
  });
  window.addEventListener("pointercancel", (e) => {
    if (!touch || e.pointerId !== touch.pointer) return;
    touch.card.classList.remove("dragging");
    touch = null;
    mark(null);
    api.carry(null);
  });
})();
