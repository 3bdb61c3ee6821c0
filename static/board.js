// The kanban board: drag a card to a stage and place (HTML drag and drop),
// the move goes to the server, and every viewer's board follows the
// server's changes over a websocket (this one's included).
(function () {
  "use strict";
  const board = document.getElementById("board");
  if (!board) return;
  const base = "/app/accounts/" + board.dataset.account;
  const funnel = board.dataset.funnel;
  let dragged = null;

  // refresh replaces the columns with the server's current board, keeping
  // the focus on the card that had it.
  async function refresh() {
    // The URL's filter (all but the open card) applies to the columns too.
    const query = new URLSearchParams(location.search);
    query.delete("card");
    query.set("fragment", "1");
    const res = await fetch(base + "/funnels/" + funnel + "/board?" + query, { credentials: "same-origin" });
    if (!res.ok) return;
    const focused = document.activeElement && board.contains(document.activeElement) && document.activeElement.dataset.card;
    board.innerHTML = await res.text();
    const again = focused && board.querySelector('[data-card="' + focused + '"]');
    if (again) again.focus();
    document.dispatchEvent(new Event("board:refreshed"));
  }
  document.addEventListener("board:changed", () => refresh());

  // positionAt is where in list a card dropped at clientY lands.
  function positionAt(list, clientY) {
    const cards = [...list.querySelectorAll(".kcard:not(.dragging)")];
    const i = cards.findIndex((c) => {
      const r = c.getBoundingClientRect();
      return clientY < r.top + r.height / 2;
    });
    return i === -1 ? cards.length : i;
  }

  async function move(cardID, stage, position) {
    const res = await fetch(base + "/kanban_items/" + cardID + "/move", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ funnel_stage: stage, position: position }),
    });
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      alert(body.error || "The card could not be moved.");
    }
    await refresh();
  }

  board.addEventListener("dragstart", (e) => {
    const card = e.target.closest(".kcard");
    if (!card) return;
    dragged = card;
    card.classList.add("dragging");
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", card.dataset.card);
  });
  board.addEventListener("dragend", () => {
    if (dragged) dragged.classList.remove("dragging");
    board.querySelectorAll(".column.over").forEach((c) => c.classList.remove("over"));
    dragged = null;
  });
  board.addEventListener("dragover", (e) => {
    const column = e.target.closest(".column");
    if (!column) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
    board.querySelectorAll(".column.over").forEach((c) => c !== column && c.classList.remove("over"));
    column.classList.add("over");
  });
  board.addEventListener("drop", (e) => {
    const column = e.target.closest(".column");
    if (!column) return;
    e.preventDefault();
    const cardID = e.dataTransfer.getData("text/plain") || (dragged && dragged.dataset.card);
    if (!cardID) return;
    move(cardID, column.dataset.stage, positionAt(column.querySelector(".cards"), e.clientY));
  });

  // live follows the board's changes; on a drop it reconnects after a pause
  // and refetches, since changes may have been missed meanwhile.
  function live(delay) {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + base + "/funnels/" + funnel + "/live");
    // data-live says whether the board follows changes (styles and tests
    // read it): the server subscribes before the handshake ends, so "open"
    // means no change is missed from here on.
    ws.onopen = () => { board.dataset.live = "open"; if (delay) refresh(); delay = 0; };
    ws.onmessage = () => refresh();
    ws.onclose = () => {
      board.dataset.live = "closed";
      setTimeout(() => live(Math.min((delay || 500) * 2, 10000)), delay || 500);
    };
  }
  live(0);
})();
