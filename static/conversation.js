// A conversation: replies and notes, status, assignee and labels post to
// the console and swap in the part the server answers with; the thread,
// the side panel and the visitor's typing follow the server live.
(function () {
  "use strict";
  const page = document.getElementById("conversation");
  if (!page) return;
  const base = "/app/accounts/" + page.dataset.account + "/conversations/" + page.dataset.conversation;
  const thread = document.getElementById("thread");
  const side = document.getElementById("conv-side");
  const typing = document.getElementById("typing");
  const older = new URL(location.href).searchParams.has("before"); // an older page stays as it is

  function zone() {
    for (const input of page.querySelectorAll("[data-tz]")) input.value = Intl.DateTimeFormat().resolvedOptions().timeZone;
  }
  zone();

  function toEnd() {
    const last = thread.querySelector("li:last-child");
    if (last) last.scrollIntoView({ block: "nearest" });
  }
  toEnd();

  async function errorOf(res) {
    const body = await res.json().catch(() => ({}));
    return body.error || "The change was refused (" + res.status + ").";
  }

  // redrawSide swaps in a side panel the server drew, keeping what the
  // agent chose there and has not sent (unsent.js; sent: a form just sent,
  // whose fields the answer draws as they now are) and the focus, on the
  // same control of the new panel.
  function redrawSide(html, sent) {
    const kept = consoleUnsent.changed(side, sent);
    const focused = side.contains(document.activeElement) && document.activeElement.dataset.testid;
    side.innerHTML = html;
    zone();
    consoleUnsent.restore(side, kept);
    const again = focused && side.querySelector('[data-testid="' + CSS.escape(focused) + '"]');
    if (again) again.focus();
  }

  // refetch redraws a part of the page; it answers the fetch's status.
  async function refetch(part, into) {
    const res = await consoleSession.fetch(base + "/" + part);
    if (!res.ok) return res.status;
    const html = await res.text();
    if (into === side) { redrawSide(html); return res.status; }
    into.innerHTML = html;
    toEnd();
    return res.status;
  }

  page.addEventListener("submit", async (e) => {
    const form = e.target;
    e.preventDefault();
    const isReply = form.id === "reply";
    const say = (isReply ? form : side).querySelector("[role=alert]");
    const sent = new FormData(form, e.submitter);
    const res = await consoleSession.fetch(form.getAttribute("action"), { method: "POST", body: sent });
    if (!res.ok) { say.textContent = await errorOf(res); say.hidden = false; return; }
    say.hidden = true;
    if (isReply) {
      if (!older) { thread.innerHTML = await res.text(); toEnd(); }
      form.reset();
      form.querySelector("textarea").focus();
    } else {
      redrawSide(await res.text(), { action: form.getAttribute("action"), data: sent });
    }
  });

  // Ctrl/Cmd+Enter sends the reply.
  page.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && e.target.matches("#reply textarea")) {
      e.preventDefault();
      e.target.form.requestSubmit();
    }
  });

  let typingTimer = null;
  function showTyping(on) {
    typing.hidden = !on;
    clearTimeout(typingTimer);
    // A visitor who leaves without saying so stops "typing" after a while.
    if (on) typingTimer = setTimeout(() => { typing.hidden = true; }, 30000);
  }

  let wait = 500;
  function follow() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + base + "/live");
    ws.onopen = () => { thread.dataset.live = "open"; wait = 500; };
    ws.onmessage = (m) => {
      const e = JSON.parse(m.data);
      if (e.kind === "message" && !older) { showTyping(false); refetch("thread", thread); }
      if (e.kind === "conversation") refetch("side", side);
      if (e.kind === "typing_on") showTyping(true);
      if (e.kind === "typing_off") showTyping(false);
    };
    // A dropped socket refetches (changes may have been missed) and
    // reconnects, unless the refetch found the session ended or the
    // conversation out of reach (deleted, or its inbox no longer the
    // agent's): the page says so instead of retrying for ever.
    ws.onclose = () => {
      thread.dataset.live = "closed";
      setTimeout(async () => {
        const statuses = await Promise.all([older ? 200 : refetch("thread", thread), refetch("side", side)]);
        if (consoleSession.ended()) { thread.dataset.live = "ended"; return; }
        if (statuses.some((s) => s === 403 || s === 404)) {
          thread.dataset.live = "gone";
          document.getElementById("conversation-gone").hidden = false;
          return;
        }
        follow();
      }, wait);
      wait = Math.min(wait * 2, 15000);
    };
  }
  follow();
})();
