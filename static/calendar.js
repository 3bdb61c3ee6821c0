// The schedule calendar: times in the browser's zone (or UTC, by choice),
// entries open in a drawer beside it, a day or hour's + opens a new
// schedule there, and the grid follows the server's changes live.
(function () {
  "use strict";
  const cal = document.getElementById("calendar");
  const grid = document.getElementById("calendar-grid");
  const drawer = document.getElementById("drawer");
  if (!cal || !grid || !drawer) return;
  const base = "/app/accounts/" + cal.dataset.account;
  const tz = cal.dataset.tz;

  // The server shows UTC unless told a zone: the first visit names ours.
  const here = new URL(location.href);
  if (!here.searchParams.has("tz")) {
    const mine = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (mine && mine !== tz) {
      here.searchParams.set("tz", mine);
      location.replace(here);
      return;
    }
  }
  const pick = cal.querySelector("[data-tz-select]");
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (browserZone && ![...pick.options].some((o) => o.value === browserZone)) pick.add(new Option(browserZone, browserZone));
  pick.addEventListener("change", (e) => {
    const u = new URL(location.href);
    u.searchParams.set("tz", e.target.value);
    location.href = u;
  });

  let opener = null;

  async function errorOf(res) {
    const body = await res.json().catch(() => ({}));
    return body.error || "The change was refused (" + res.status + ").";
  }

  function showError(msg) {
    const p = drawer.querySelector("[data-testid=drawer-error]");
    if (p) { p.textContent = msg; p.hidden = false; p.focus(); } else alert(msg);
  }

  // The WhatsApp template's fields apply to a WhatsApp inbox only; a
  // conversation number may name one, so they stay offered then.
  function syncTemplate() {
    const fs = drawer.querySelector("[data-template]");
    const inbox = drawer.querySelector("select[name=inbox_id]");
    if (!fs || !inbox) return; // an edit: the server knows its inbox
    const ids = fs.dataset.whatsappInboxes.split(" ");
    const conv = drawer.querySelector("input[name=conversation_id]");
    const on = ids.includes(inbox.value) || (!inbox.value && conv && conv.value !== "");
    fs.disabled = !on;
    fs.hidden = !on;
  }
  drawer.addEventListener("change", syncTemplate);
  drawer.addEventListener("input", (e) => { if (e.target.name === "conversation_id") syncTemplate(); });

  function show(html) {
    drawer.innerHTML = html;
    syncTemplate();
    drawer.hidden = false;
    document.body.classList.add("drawer-open");
    const first = drawer.querySelector(".field-error") || drawer.querySelector("#drawer-title");
    if (first) {
      const field = first.closest("label, .picker");
      const input = field && field.querySelector("input, select, textarea");
      (input || first).focus();
    }
  }

  function close() {
    drawer.hidden = true;
    drawer.innerHTML = "";
    document.body.classList.remove("drawer-open");
    if (opener && document.contains(opener)) opener.focus();
  }

  async function load(url) {
    const res = await consoleSession.fetch(url);
    if (!res.ok) { alert(await errorOf(res)); return; }
    show(await res.text());
  }

  // gridKey names a control of the grid so the refetched grid's same
  // control can be found: an entry by its schedule (and which of its
  // occurrences), a + by the time it proposes, a day's link by its day.
  function gridKey(el) {
    if (!el || !grid.contains(el)) return null;
    if (el.dataset.schedule) {
      const same = [...grid.querySelectorAll('[data-schedule="' + el.dataset.schedule + '"]')];
      return { sel: '[data-schedule="' + el.dataset.schedule + '"]', nth: same.indexOf(el) };
    }
    if (el.dataset.new) return { sel: '[data-new="' + CSS.escape(el.dataset.new) + '"]', nth: 0 };
    const day = el.matches("a.day") && el.closest("[data-testid]");
    return day ? { sel: '[data-testid="' + CSS.escape(day.dataset.testid) + '"] a.day', nth: 0 } : null;
  }
  function findKey(key) {
    return key && grid.querySelectorAll(key.sel)[key.nth];
  }

  // refresh refetches the grid; the control that had the focus (or was to
  // get it back when the drawer closes) is that of the new grid, so the
  // focus is not dropped on <body> by a live change.
  async function refresh() {
    const u = new URL(location.href);
    u.searchParams.set("fragment", "1");
    const res = await consoleSession.fetch(u);
    if (!res.ok) return;
    const html = await res.text();
    const focused = gridKey(document.activeElement);
    const back = gridKey(opener);
    grid.innerHTML = html;
    const again = findKey(focused);
    if (again) again.focus();
    if (back) opener = findKey(back) || opener;
  }

  // afterDelete is where the focus goes once a deleted schedule's drawer
  // closes: its entry is gone, so the + of the day (or hour) it was in, or
  // where a phone's month hides the +, the day's link; else the page's own
  // New button. A hidden control cannot take the focus.
  function afterDelete(entry) {
    const cell = entry && grid.contains(entry) && entry.closest("td, li");
    const shown = (el) => el && el.getClientRects().length > 0 ? el : null;
    return (cell && (shown(cell.querySelector("[data-new]")) || shown(cell.querySelector("a.day")))) ||
      cal.querySelector("[data-testid=new-schedule]");
  }

  // mayLeave asks before what the agent typed in the drawer and did not
  // send is thrown away (unsent.js).
  function mayLeave() { return consoleUnsent.mayDiscard(drawer); }

  cal.addEventListener("click", (e) => {
    const entry = e.target.closest("[data-schedule]");
    if (entry && entry.classList.contains("entry")) {
      if (!mayLeave()) return;
      opener = entry;
      load(base + "/schedules/" + entry.dataset.schedule + "/drawer?tz=" + encodeURIComponent(tz));
      return;
    }
    const add = e.target.closest("[data-new]");
    if (add && mayLeave()) {
      opener = add;
      load(base + "/schedules/new?at=" + encodeURIComponent(add.dataset.new) + "&tz=" + encodeURIComponent(tz));
    }
  });
  drawer.addEventListener("click", (e) => { if (e.target.closest("[data-drawer-close]") && mayLeave()) close(); });

  // A link to one schedule (a contact's page has them) opens its drawer.
  const linked = here.searchParams.get("schedule");
  if (/^\d+$/.test(linked || "")) load(base + "/schedules/" + linked + "/drawer?tz=" + encodeURIComponent(tz));
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !drawer.hidden && mayLeave()) close(); });

  drawer.addEventListener("submit", async (e) => {
    const form = e.target;
    e.preventDefault();
    if (form.dataset.confirm && !confirm(form.dataset.confirm)) return;
    const res = await consoleSession.fetch(form.getAttribute("action"), {
      method: "POST", body: new FormData(form, e.submitter),
    });
    const html = (res.headers.get("Content-Type") || "").startsWith("text/html");
    if (!res.ok && !html) { showError(await errorOf(res)); return; }
    if ("closes" in form.dataset) opener = afterDelete(opener);
    if (res.ok) refresh();
    if ("closes" in form.dataset) { close(); return; }
    show(await res.text());
  });

  // Live: any schedule change refetches the grid; a dropped socket
  // refetches (changes may have been missed) and reconnects, unless the
  // refetch found the session ended.
  let wait = 500;
  function follow() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + base + "/schedules/live");
    ws.onopen = () => { grid.dataset.live = "open"; wait = 500; };
    ws.onmessage = () => refresh();
    ws.onclose = () => {
      grid.dataset.live = "closed";
      setTimeout(async () => {
        await refresh();
        if (consoleSession.ended()) grid.dataset.live = "ended"; else follow();
      }, wait);
      wait = Math.min(wait * 2, 15000);
    };
  }
  follow();
})();
