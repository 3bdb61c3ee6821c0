// The console's accessibility audit, run in the page by the browser tests
// (a11y_test.go): a few WCAG checks of our own (no third-party code). It
// returns a list of problems, each "rule: what (where)"; none is a pass.
(() => {
  "use strict";
  const problems = [];
  const report = (rule, el, what) => problems.push(rule + ": " + what + " (" + describe(el) + ")");
  function describe(el) {
    if (!el || !el.tagName) return "document";
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.dataset && el.dataset.testid) s += "[data-testid=" + el.dataset.testid + "]";
    const text = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 30);
    return text ? s + " \"" + text + "\"" : s;
  }
  const visible = (el) => {
    if (el.closest("[hidden], details:not([open]) > :not(summary)")) return false;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0 || el.classList.contains("sr-only") || el.closest(".sr-only");
  };
  const byId = (id) => document.getElementById(id);

  // The accessible name, as far as these pages need it.
  function nameOf(el) {
    const labelledby = el.getAttribute("aria-labelledby");
    if (labelledby) return labelledby.split(/\s+/).map((id) => (byId(id) || {}).textContent || "").join(" ").trim();
    const aria = el.getAttribute("aria-label");
    if (aria && aria.trim()) return aria.trim();
    if (el.labels && el.labels.length) return [...el.labels].map((l) => l.textContent).join(" ").trim();
    if (el.tagName === "IMG") return (el.getAttribute("alt") || "").trim();
    const inner = [...el.childNodes].map((n) => n.nodeType === 3 ? n.textContent : (n.getAttribute && n.getAttribute("aria-hidden") === "true" ? "" : (n.tagName === "IMG" ? n.alt : n.textContent))).join("").trim();
    if (inner && !["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) return inner;
    return (el.getAttribute("title") || el.getAttribute("placeholder") || "").trim();
  }

  // Document: language, title, one main, named navigation, headings in order.
  if (!document.documentElement.lang) report("document", null, "the page has no lang");
  if (!document.title.trim()) report("document", null, "the page has no title");
  const mains = document.querySelectorAll("main, [role=main]");
  if (mains.length !== 1) report("landmarks", null, mains.length + " main landmarks, want 1");
  const navs = [...document.querySelectorAll("nav, [role=navigation]")];
  if (navs.length > 1) navs.filter((n) => !nameOf(n)).forEach((n) => report("landmarks", n, "several navigation landmarks, this one unnamed"));
  [...document.querySelectorAll("aside, section[aria-label], section[aria-labelledby], [role=dialog], form[aria-label]")].forEach((l) => {
    if ((l.hasAttribute("aria-labelledby") || l.hasAttribute("aria-label") || l.getAttribute("role") === "dialog") && visible(l) && !nameOf(l)) report("landmarks", l, "a labelled region whose label is empty or missing");
  });
  const h1 = [...document.querySelectorAll("h1")].filter(visible);
  if (h1.length !== 1) report("headings", null, h1.length + " visible h1, want 1");
  let last = 0;
  [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter(visible).forEach((h) => {
    const level = Number(h.tagName[1]);
    if (last && level > last + 1) report("headings", h, "h" + level + " after h" + last);
    last = level;
  });

  // References: ids unique, every id a reference names exists.
  const seen = {};
  document.querySelectorAll("[id]").forEach((el) => {
    if (seen[el.id]) report("ids", el, "id " + el.id + " is used twice");
    seen[el.id] = true;
  });
  document.querySelectorAll("[aria-labelledby], [aria-describedby], [aria-controls], label[for]").forEach((el) => {
    ["aria-labelledby", "aria-describedby", "aria-controls", "for"].forEach((attr) => {
      (el.getAttribute(attr) || "").split(/\s+/).filter(Boolean).forEach((id) => {
        if (!byId(id)) report("references", el, attr + " names a missing id " + id);
      });
    });
  });

  // Names: every control, link and button says what it is.
  document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=checkbox], svg[role=img], img").forEach((el) => {
    if (!visible(el)) return;
    if (!nameOf(el)) report("names", el, "no accessible name");
  });

  // Keyboard: nothing jumps the tab order, and what acts like a control can
  // be reached with the keyboard.
  document.querySelectorAll("[tabindex]").forEach((el) => {
    if (Number(el.getAttribute("tabindex")) > 0) report("keyboard", el, "a positive tabindex reorders the focus");
  });
  document.querySelectorAll("[role=button], [role=checkbox], [role=link], [draggable=true]").forEach((el) => {
    const native = ["BUTTON", "A", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"].includes(el.tagName);
    if (!native && el.tabIndex < 0 && visible(el)) report("keyboard", el, "acts as a control but cannot be focused");
  });

  // Contrast (WCAG AA): each visible text's colour against the background
  // it is painted on; 4.5:1, or 3:1 for large text.
  const parse = (c) => { const m = c.match(/[\d.]+/g) || [0, 0, 0, 0]; return { r: +m[0], g: +m[1], b: +m[2], a: m[3] === undefined ? 1 : +m[3] }; };
  const lum = ({ r, g, b }) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  function background(el) {
    const layers = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg.a > 0) layers.push(bg);
      if (bg.a >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), { r: 255, g: 255, b: 255, a: 1 });
  }
  const checked = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || checked.has(el) || !visible(el) || el.closest(".sr-only, svg, option")) continue;
    checked.add(el);
    const cs = getComputedStyle(el);
    const fg = over(parse(cs.color), background(el));
    const bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) report("contrast", el, ratio.toFixed(2) + ":1, want " + need + ":1");
  }
  return problems;
})()
