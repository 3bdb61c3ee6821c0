// Every fetch of the console's scripts goes through consoleSession.fetch. It
// names the request as a script's (X-Requested-With: fetch), so that a
// session ended meanwhile (signed out in another tab, a password reset) is
// answered 401 rather than with the sign-in page, which fetch would follow
// and hand back as a 200; and it shows that the session ended, with a link
// to sign in again. The scripts treat the 401 as any refusal, keeping what
// was typed, and their live sockets stop reconnecting once ended() is true.
(function () {
  "use strict";
  let ended = false;

  async function consoleFetch(url, init) {
    const opts = Object.assign({ credentials: "same-origin" }, init);
    opts.headers = new Headers(opts.headers);
    opts.headers.set("X-Requested-With", "fetch");
    const res = await fetch(url, opts);
    if (res.status === 401) {
      ended = true;
      const note = document.getElementById("session-ended");
      if (note) note.hidden = false;
    }
    return res;
  }

  window.consoleSession = { fetch: consoleFetch, ended: () => ended };

  // The pages are sent no-store, yet Chromium may still restore one from
  // its back-forward cache after signing out: reloaded, it asks the server,
  // which shows it only to a live session (no-store meant this before).
  window.addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
})();
