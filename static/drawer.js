// The card drawer: a card opens beside the board (click or Enter) and the
// URL names it (?card=id), so it can be linked and the back button closes
// it. Its forms post to the console and swap in the drawer the server
// answers with; a refused change shows the server's message.
(function () {
  "use strict";
  const board = document.getElementById("board");
  const drawer = document.getElementById("drawer");
  if (!board || !drawer) return;
  const base = "/app/accounts/" + board.dataset.account;
  let opener = null; // the card the drawer was opened from, focused again on close
  // drawn counts the drawers shown, so a live read knows when another was
  // drawn while it waited (see the board:change listener).
  let drawn = 0;

  function urlWithCard(id) {
    const u = new URL(location.href);
    if (id) u.searchParams.set("card", id); else u.searchParams.delete("card");
    return u.pathname + u.search;
  }

  async function errorOf(res) {
    const body = await res.json().catch(() => ({}));
    return body.error || "The change was refused (" + res.status + ").";
  }

  function showError(msg) {
    const p = drawer.querySelector("[data-testid=drawer-error]");
    if (p) { p.textContent = msg; p.hidden = false; } else alert(msg);
  }

  // A control of the drawer is known again, in the drawer the server
  // answers, by its data-testid or its id (the heading has only an id).
  function focusKey(el) {
    if (!el) return null;
    if (el.dataset.testid) return { testid: el.dataset.testid, action: el.form ? el.form.getAttribute("action") : null };
    return el.id ? { id: el.id } : {};
  }

  // landing is where the focus goes in a drawer just swapped in: the
  // control that had it; else, when the form it was in is still there,
  // that form's first button (Mark won's form answers with Reopen in its
  // place); else the field asking for it, or the drawer's heading. Never
  // <body>: a keyboard or screen-reader user would be thrown out. Several
  // rows share a testid (each checklist item's toggle): the one in the
  // form of the same action is that row's.
  function landing(key) {
    const form = key && key.action && drawer.querySelector('form[action="' + CSS.escape(key.action) + '"]');
    const testid = key && key.testid && '[data-testid="' + CSS.escape(key.testid) + '"]';
    const same = testid ? (form && form.querySelector(testid)) || drawer.querySelector(testid)
      : key && key.id && drawer.querySelector("#" + CSS.escape(key.id));
    return same || (form && form.querySelector("button")) || drawer.querySelector("[autofocus]") || drawer.querySelector("#drawer-title");
  }

  function show(html, key) {
    drawn++;
    drawer.innerHTML = html;
    drawer.setAttribute("aria-labelledby", "drawer-title");
    drawer.hidden = false;
    document.body.classList.add("drawer-open");
    landing(key).focus();
  }

  async function load(url) {
    const res = await consoleSession.fetch(url);
    if (!res.ok) { alert(await errorOf(res)); return false; }
    show(await res.text());
    return true;
  }

  async function openCard(id, push) {
    if (await load(base + "/kanban_items/" + id + "/drawer") && push) history.pushState({ card: id }, "", urlWithCard(id));
  }

  function close(push) {
    drawer.hidden = true;
    drawer.innerHTML = "";
    drawer.removeAttribute("aria-labelledby"); // its title is gone
    document.body.classList.remove("drawer-open");
    if (push) history.pushState({}, "", urlWithCard(null));
    const card = opener && board.querySelector('[data-card="' + opener + '"]');
    if (card) card.focus();
  }

  function cardOf(e) {
    const card = e.target.closest(".kcard");
    // Shift-click selects (bulk.js); controls inside a card are their own.
    return card && !e.shiftKey && !e.target.closest("input, button, a") ? card : null;
  }

  // mayLeave asks before what the agent typed in the drawer and did not
  // send is thrown away (unsent.js).
  function mayLeave() { return consoleUnsent.mayDiscard(drawer); }

  board.addEventListener("click", (e) => {
    const add = e.target.closest("[data-new-card]");
    if (add) { e.preventDefault(); if (mayLeave()) { opener = null; load(add.href); } return; }
    const card = cardOf(e);
    if (card && mayLeave()) { opener = card.dataset.card; openCard(card.dataset.card, true); }
  });
  board.addEventListener("keydown", (e) => {
    const card = cardOf(e);
    if (e.key === "Enter" && card && !board.dataset.carrying) {
      e.preventDefault();
      if (!mayLeave()) return;
      opener = card.dataset.card;
      openCard(card.dataset.card, true);
    }
  });
  drawer.addEventListener("click", (e) => {
    if (e.target.closest("[data-drawer-close]") && mayLeave()) close(true);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !drawer.hidden && !board.dataset.carrying && mayLeave()) close(true);
  });
  // The back button: kept on the drawer (its address pushed again) when the
  // agent keeps what they typed.
  window.addEventListener("popstate", () => {
    const id = new URL(location.href).searchParams.get("card");
    const shown = shownCard();
    if (id !== null && id === shown) return;
    if (!mayLeave()) { history.pushState(shown ? { card: shown } : {}, "", urlWithCard(shown)); return; }
    if (id) openCard(id, false); else close(false);
  });

  // dirty says the agent is typing in the drawer (a field changed and not
  // sent, or an edit form open): a live change must not wipe it out.
  function dirty() {
    if (drawer.querySelector("details.edit-part[open]")) return true;
    return consoleUnsent.any(drawer); // unsent.js
  }

  // shownCard is the id of the card the drawer is open on (null: none).
  function shownCard() {
    const open = drawer.querySelector("[data-testid=drawer-card]");
    return !drawer.hidden && open !== null ? open.dataset.card : null;
  }

  // Another viewer's change of the open card shows in its drawer at once,
  // unless the agent is typing there; a deleted card's drawer closes.
  document.addEventListener("board:change", async (e) => {
    const card = String(e.detail.item_id);
    if (shownCard() !== card) return;
    if (e.detail.kind === "deleted") { opener = null; close(true); return; }
    if (dirty()) return; // what they send answers with the drawer as it then is
    // A drawer drawn while this read waited (a form's answer) may be newer
    // than what it read: drawing the read over it lost a checklist item just
    // added. A read begun after that drawer is at least as new, so read again.
    for (let tries = 0; tries < 3; tries++) {
      const before = drawn;
      const res = await consoleSession.fetch(base + "/kanban_items/" + card + "/drawer");
      if (!res.ok) return;
      const html = await res.text();
      // Checked after the last wait: typing during the body's read must
      // not be replaced either.
      if (dirty() || shownCard() !== card) return;
      if (drawn !== before) continue;
      const key = drawer.contains(document.activeElement) ? focusKey(document.activeElement) : null;
      drawn++;
      drawer.innerHTML = html;
      if (key) landing(key).focus();
      return;
    }
  });

  // typeAgain opens the edit parts holding what the agent had changed and
  // not sent, put back into the drawer the server answered.
  function typeAgain(kept) {
    for (const f of consoleUnsent.restore(drawer, kept)) {
      const part = f.closest("details");
      if (part) part.open = true;
    }
  }

  drawer.addEventListener("submit", async (e) => {
    const form = e.target;
    e.preventDefault();
    if (form.dataset.confirm && !confirm(form.dataset.confirm)) return;
    const sent = new FormData(form, e.submitter);
    // getAttribute: a control named "action" shadows form.action.
    const res = await consoleSession.fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(sent),
    });
    if (!res.ok) { showError(await errorOf(res)); return; }
    document.dispatchEvent(new Event("board:changed"));
    if ("closes" in form.dataset) { opener = null; close(true); return; }
    const key = focusKey(e.submitter || form.querySelector("button"));
    const html = await res.text();
    // What the agent changed since, there or elsewhere in the drawer (an
    // answer can come after they went on typing).
    const kept = consoleUnsent.changed(drawer, { action: form.getAttribute("action"), data: sent });
    show(html, key);
    typeAgain(kept);
    const id = res.headers.get("X-Card-Id");
    if ("opensCard" in form.dataset && id) { opener = id; history.pushState({ card: id }, "", urlWithCard(id)); }
  });
})();
