// The boards screen's forms (create, rename, delete a board) post in the
// background: the server answers with the screen to show next, or a refusal
// shown above the list.
(function () {
  "use strict";
  const error = document.querySelector("[data-testid=boards-error]");
  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (!("boardForm" in form.dataset)) return;
    e.preventDefault();
    if (form.dataset.confirm && !confirm(form.dataset.confirm)) return;
    const res = await consoleSession.fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(new FormData(form, e.submitter)),
    });
    if (res.ok && res.redirected) { location.href = res.url; return; }
    const body = await res.json().catch(() => ({}));
    error.textContent = body.error || "The change was refused (" + res.status + ").";
    error.hidden = false;
    error.scrollIntoView({ block: "nearest" });
  });
})();
