// What an agent changed in a part of a page and has not sent yet: a typed
// text, a choice in a select, a ticked box. The parts the server redraws
// (the card drawer, the conversation's side panel) read it before they are
// replaced, by a form's answer or a live change, and put it back into the
// part drawn anew, so a redraw never wipes it; and a drawer the agent
// closes, or replaces with another, asks first.
(function () {
  "use strict";
  const FIELDS = "input, textarea, select";

  function ticks(f) { return f.type === "checkbox" || f.type === "radio"; }

  // edited says a field no longer holds what the server drew. A select
  // drawn with no option marked selected shows its first one, which is
  // no change.
  function edited(f) {
    if (f.tagName === "SELECT") {
      const drawn = [...f.options].filter((o) => o.defaultSelected);
      if (drawn.length === 0 && !f.multiple) return f.selectedIndex > 0;
      return [...f.options].some((o) => o.selected !== o.defaultSelected);
    }
    if (ticks(f)) return f.checked !== f.defaultChecked;
    return f.type !== "file" && f.value !== f.defaultValue; // a file cannot be put back
  }

  // valueOf and setValue read and put back a field's value (a select's: its
  // selected values, a line each).
  function valueOf(f) {
    if (f.tagName === "SELECT") return [...f.options].filter((o) => o.selected).map((o) => o.value).join("\n");
    return ticks(f) ? f.checked : f.value;
  }
  function setValue(f, v) {
    if (f.tagName === "SELECT") {
      const picked = v.split("\n");
      for (const o of f.options) o.selected = picked.includes(o.value);
    } else if (ticks(f)) f.checked = v;
    else f.value = v;
  }

  // keyOf knows a field in the part drawn anew as in the old one: by its
  // form's action and its name (a box also by its value: a set of label
  // boxes shares one name).
  function keyOf(f) {
    const action = f.form ? f.form.getAttribute("action") : "";
    return action + "|" + (f.name || f.dataset.testid || "") + (ticks(f) ? "|" + f.value : "");
  }

  // any says some field of root is changed and not sent.
  function any(root) {
    return [...root.querySelectorAll(FIELDS)].some(edited);
  }

  // changed collects root's changed fields by key. sent, when a form was
  // just sent (its action and FormData), leaves out its fields that still
  // hold what was sent: the answer draws them as they now are. Known by
  // action, not by the element: a live redraw may have replaced the form
  // while its answer was on the way.
  function changed(root, sent) {
    const kept = new Map();
    for (const f of root.querySelectorAll(FIELDS)) {
      if (!f.name && !f.dataset.testid || !edited(f)) continue;
      const sentHere = sent && f.form && f.form.getAttribute("action") === sent.action;
      if (sentHere && !ticks(f) && sent.data.getAll(f.name).join("\n") === valueOf(f)) continue;
      kept.set(keyOf(f), valueOf(f));
    }
    return kept;
  }

  // restore puts kept values into root drawn anew; it returns the fields
  // it set.
  function restore(root, kept) {
    const set = [];
    for (const f of root.querySelectorAll(FIELDS)) {
      const key = keyOf(f);
      if (!kept.has(key)) continue;
      setValue(f, kept.get(key));
      set.push(f);
    }
    return set;
  }

  // mayDiscard asks before root's unsent changes are thrown away (its
  // drawer closed, or another drawn in its place); true when it has none.
  function mayDiscard(root) {
    return !any(root) || confirm("Discard the changes you have not sent?");
  }

  window.consoleUnsent = { any: any, changed: changed, restore: restore, mayDiscard: mayDiscard };
})();
