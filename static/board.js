// The kanban board: drag a card to a stage and place (HTML drag and drop
// here, keyboard and touch in drag.js). A drop shows at once; the move goes
// to the server and, refused, is rolled back with the server's message.
// Every viewer's board follows the server's changes over a websocket.
(function () {
  "use strict";
  const board = document.getElementById("board");
  if (!board) return;
  const base = "/app/accounts/" + board.dataset.account;
  const funnel = board.dataset.funnel;
  const message = document.getElementById("board-message");
  let dragged = null;
  let stale = false; // a change arrived while a card was being carried

  // refresh replaces the columns with the server's current board, keeping
  // the focus on the card that had it; while a card is carried it waits.
  // It answers the fetch's status (0 when it waited).
  async function refresh() {
    if (board.dataset.carrying) { stale = true; return 0; }
    // The URL's filter (all but the open card) applies to the columns too.
    const query = new URLSearchParams(location.search);
    query.delete("card");
    query.set("fragment", "1");
    const res = await consoleSession.fetch(base + "/funnels/" + funnel + "/board?" + query);
    if (!res.ok || board.dataset.carrying) return res.status;
    const focused = document.activeElement && board.contains(document.activeElement) && document.activeElement.dataset.card;
    board.innerHTML = await res.text();
    const again = focused && board.querySelector('[data-card="' + focused + '"]');
    if (again) again.focus();
    document.dispatchEvent(new Event("board:refreshed"));
    return res.status;
  }
  document.addEventListener("board:changed", () => refresh());

  function say(text) {
    if (!message) return;
    message.textContent = text;
    message.hidden = !text;
  }

  // serverPosition is the position in the stage for a card shown at index
  // of list: the board may be filtered, so it counts from the neighbours'
  // server positions (data-pos), not from what is shown.
  function serverPosition(list, index, card) {
    const others = [...list.querySelectorAll(".kcard")].filter((c) => c !== card);
    const sameStage = card.dataset.stage === list.closest(".column").dataset.stage;
    const from = Number(card.dataset.pos);
    const at = (c, after) => {
      const p = Number(c.dataset.pos) + (after ? 1 : 0);
      return sameStage && from < p ? p - 1 : p;
    };
    if (index < others.length) return at(others[index], false);
    if (others.length > 0) return at(others[others.length - 1], true);
    return undefined; // an empty column: last, wherever hidden cards are
  }

  // place shows card at index of the column at once and asks the server;
  // it reports whether the move was accepted.
  async function place(card, column, index) {
    const list = column.querySelector(".cards");
    const position = serverPosition(list, index, card);
    const others = [...list.querySelectorAll(".kcard")].filter((c) => c !== card);
    const from = card.parentNode, next = card.nextSibling;
    list.insertBefore(card, others[index] || null);
    say("");
    const res = await consoleSession.fetch(base + "/kanban_items/" + card.dataset.card + "/move", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ funnel_stage: column.dataset.stage, position: position }),
    });
    if (!res.ok) {
      // Put back here, not only by the refresh below: with the session
      // ended, the refresh is refused too.
      from.insertBefore(card, next && next.parentNode === from ? next : null);
      const body = await res.json().catch(() => ({}));
      say("The card was put back: " + (body.error || "the server refused the move (" + res.status + ")."));
    }
    await refresh();
    return res.ok;
  }

  // carry marks a card as being moved by keyboard or touch: live changes
  // wait until it is dropped.
  function carry(card) {
    if (card) { board.dataset.carrying = card.dataset.card; return; }
    delete board.dataset.carrying;
    if (stale) { stale = false; refresh(); }
  }
  window.switchboardBoard = { place: place, refresh: refresh, carry: carry };

  // indexAt is where in list a card dropped at clientY lands.
  function indexAt(list, clientY, card) {
    const cards = [...list.querySelectorAll(".kcard")].filter((c) => c !== card);
    const i = cards.findIndex((c) => {
      const r = c.getBoundingClientRect();
      return clientY < r.top + r.height / 2;
    });
    return i === -1 ? cards.length : i;
  }
  window.switchboardBoard.indexAt = indexAt;

  // An administrator drags a column by its header's grip to move the stage
  // (the stages screen's Left and Right do it by keyboard).
  let draggedStage = null;
  board.addEventListener("dragstart", (e) => {
    const grip = e.target.closest && e.target.closest("[data-stage-drag]");
    if (!grip) return;
    draggedStage = grip.closest(".column");
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("application/x-stage", draggedStage.dataset.stage);
  }, true);
  async function moveStage(column) {
    const columns = [...board.querySelectorAll(".column")];
    const by = columns.indexOf(column) - columns.indexOf(draggedStage);
    const slug = draggedStage.dataset.stage;
    draggedStage = null;
    if (by === 0) return;
    say("");
    const res = await consoleSession.fetch(base + "/funnels/" + funnel + "/stages/" + encodeURIComponent(slug) + "/move", {
      method: "POST",
      body: new URLSearchParams({ by: String(by) }),
    });
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      say("The stage stayed where it was: " + (body.error || "the server refused the move (" + res.status + ")."));
    }
    refresh();
  }

  board.addEventListener("dragstart", (e) => {
    if (draggedStage) return;
    const card = e.target.closest(".kcard");
    if (!card) return;
    dragged = card;
    card.classList.add("dragging");
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", card.dataset.card);
  });
  board.addEventListener("dragend", () => {
    draggedStage = null;
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
    if (draggedStage) { column.classList.remove("over"); moveStage(column); return; }
    const id = e.dataTransfer.getData("text/plain") || (dragged && dragged.dataset.card);
    const card = id && board.querySelector('[data-card="' + id + '"]');
    if (!card) return;
    column.classList.remove("over");
    place(card, column, indexAt(column.querySelector(".cards"), e.clientY, card));
  });

  // live follows the board's changes; on a drop it reconnects after a pause
  // and refetches, since changes may have been missed meanwhile. A refetch
  // that finds the session ended stops it (the upgrade's refusal, a
  // redirect to sign in, is not told to the page).
  function live(delay) {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + base + "/funnels/" + funnel + "/live");
    // data-live says whether the board follows changes (styles and tests
    // read it): the server subscribes before the handshake ends, so "open"
    // means no change is missed from here on.
    ws.onopen = () => { board.dataset.live = "open"; if (delay) refresh(); delay = 0; };
    ws.onmessage = (e) => {
      refresh();
      // The open drawer follows its card (drawer.js).
      let change = {};
      try { change = JSON.parse(e.data); } catch (err) { /* a change all the same */ }
      document.dispatchEvent(new CustomEvent("board:change", { detail: change }));
    };
    // A board that is gone (deleted, or out of the agent's reach) is said
    // so, instead of being retried for ever.
    ws.onclose = () => {
      board.dataset.live = "closed";
      setTimeout(async () => {
        const status = await refresh();
        if (consoleSession.ended()) { board.dataset.live = "ended"; return; }
        if (status === 403 || status === 404) {
          board.dataset.live = "gone";
          say("This board is no longer there for you: it was deleted, or you lost access to it. Reload to see where you are.");
          return;
        }
        live(Math.min((delay || 500) * 2, 10000));
      }, delay || 500);
    };
  }
  live(0);
})();
