// The contact picker: a search box beside a <select>, inside an element
// whose data-options names the server's search (it answers <option>s).
// Delegated from the document, so pickers drawn later (the calendar's
// drawer) search too.
(function () {
  "use strict";
  const timers = new WeakMap();
  document.addEventListener("input", (e) => {
    if (!e.target.matches("[data-contact-search]")) return;
    const picker = e.target.closest("[data-options]");
    const select = picker && picker.querySelector("[data-contact-select]");
    if (!select) return;
    clearTimeout(timers.get(picker));
    timers.set(picker, setTimeout(async () => {
      const q = new URLSearchParams({ q: e.target.value, chosen: select.value });
      const res = await consoleSession.fetch(picker.dataset.options + "?" + q);
      if (!res.ok) return;
      select.innerHTML = await res.text();
      if (select.options.length === 2) select.selectedIndex = 1; // one match: chosen
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }, 200));
  });
})();
