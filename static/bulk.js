// Bulk selection on the board: tick cards (or shift-click them), then move,
// assign, set the priority of or delete them all at once. The server does
// all or nothing; a refusal is shown and nothing changed.
(function () {
  "use strict";
  const board = document.getElementById("board");
  const bar = document.getElementById("bulk");
  if (!board || !bar) return;
  const selected = new Set();
  const count = bar.querySelector(".bulk-count");

  // paint shows the selection on the cards and the bar; cards no longer
  // on the board (moved away, filtered out, deleted) leave the selection.
  function paint() {
    const present = new Set([...board.querySelectorAll(".kcard")].map((c) => c.dataset.card));
    [...selected].forEach((id) => { if (!present.has(id)) selected.delete(id); });
    board.querySelectorAll(".kcard").forEach((card) => {
      const on = selected.has(card.dataset.card);
      card.classList.toggle("selected", on);
      const box = card.querySelector(".pick");
      if (box) box.checked = on;
    });
    bar.hidden = selected.size === 0;
    count.textContent = selected.size === 1 ? "1 card selected" : selected.size + " cards selected";
  }

  function toggle(id, on) {
    if (on) selected.add(id); else selected.delete(id);
    paint();
  }

  board.addEventListener("change", (e) => {
    if (!e.target.classList.contains("pick")) return;
    toggle(e.target.closest(".kcard").dataset.card, e.target.checked);
  });
  board.addEventListener("click", (e) => {
    const card = e.target.closest(".kcard");
    if (!card || !e.shiftKey || e.target.closest("input")) return;
    e.preventDefault();
    toggle(card.dataset.card, !selected.has(card.dataset.card));
  });
  document.addEventListener("board:refreshed", paint);
  bar.addEventListener("click", (e) => {
    if (e.target.closest("[data-bulk-clear]")) { selected.clear(); paint(); }
  });

  bar.addEventListener("submit", async (e) => {
    e.preventDefault();
    const action = e.submitter && e.submitter.value;
    if (action === "delete" && !confirm("Delete " + selected.size + " cards for good?")) return;
    const body = new URLSearchParams(new FormData(bar, e.submitter));
    selected.forEach((id) => body.append("ids", id));
    const res = await consoleSession.fetch(bar.getAttribute("action"), { method: "POST", body: body });
    if (!res.ok) {
      const out = await res.json().catch(() => ({}));
      alert(out.error || "Nothing changed: the server refused (" + res.status + ").");
      return;
    }
    selected.clear();
    paint();
    document.dispatchEvent(new Event("board:changed"));
  });
})();
