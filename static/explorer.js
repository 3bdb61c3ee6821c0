// The GraphQL explorer: runs a query against this server's /graphql with
// the token and account typed in (kept for the tab only), and lists the
// schema's types and fields from an introspection query. Native APIs only.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const root = document.querySelector("[data-endpoint]");
  const endpoint = root.dataset.endpoint;
  const store = window.sessionStorage;

  for (const id of ["gx-token", "gx-account", "gx-query", "gx-variables"]) {
    const saved = store.getItem(id);
    if (saved !== null) $(id).value = saved;
    $(id).addEventListener("input", () => store.setItem(id, $(id).value));
  }

  async function post(query, variables) {
    const headers = { "Content-Type": "application/json", "Accept": "application/json" };
    const token = $("gx-token").value.trim();
    const account = $("gx-account").value.trim();
    if (token) headers["api_access_token"] = token;
    if (account) headers["X-Account-Id"] = account;
    const res = await fetch(endpoint, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
    return { status: res.status, body: await res.json().catch(() => ({ errors: [{ message: "the answer is not JSON" }] })) };
  }

  async function run() {
    let variables = {};
    const raw = $("gx-variables").value.trim();
    if (raw) {
      try { variables = JSON.parse(raw); } catch (e) {
        $("gx-status").textContent = "variables are not JSON: " + e.message;
        return;
      }
    }
    $("gx-status").textContent = "running…";
    const started = performance.now();
    try {
      const { status, body } = await post($("gx-query").value, variables);
      $("gx-status").textContent = status + " in " + Math.round(performance.now() - started) + " ms";
      $("gx-result").textContent = JSON.stringify(body, null, 2);
    } catch (e) {
      $("gx-status").textContent = "failed: " + e.message;
    }
  }

  const introspection = "{ __schema { types { name kind description fields { name description args { name type { ...T } } type { ...T } } inputFields { name description type { ...T } } enumValues { name description } } } }" +
    " fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }";

  function typeName(t) {
    if (!t) return "";
    if (t.kind === "NON_NULL") return typeName(t.ofType) + "!";
    if (t.kind === "LIST") return "[" + typeName(t.ofType) + "]";
    return t.name;
  }

  function el(tag, text, cls) {
    const n = document.createElement(tag);
    if (text) n.textContent = text;
    if (cls) n.className = cls;
    return n;
  }

  function renderType(t) {
    const box = el("details", "", "explorer-type");
    box.dataset.name = t.name.toLowerCase();
    const sum = el("summary", t.name + " (" + t.kind.toLowerCase().replace("_", " ") + ")");
    box.append(sum);
    if (t.description) box.append(el("p", t.description));
    const list = el("ul");
    for (const f of t.fields || t.inputFields || []) {
      const args = (f.args || []).map((a) => a.name + ": " + typeName(a.type)).join(", ");
      const li = el("li", f.name + (args ? "(" + args + ")" : "") + ": " + typeName(f.type));
      li.dataset.name = f.name.toLowerCase();
      if (f.description) li.append(el("span", " — " + f.description, "explorer-doc"));
      list.append(li);
    }
    for (const v of t.enumValues || []) list.append(el("li", v.name + (v.description ? " — " + v.description : "")));
    box.append(list);
    return box;
  }

  async function loadSchema() {
    const { status, body } = await post(introspection, {});
    const out = $("gx-types");
    out.replaceChildren();
    if (!body.data) {
      out.append(el("p", "The schema could not be read (" + status + "): " + ((body.errors || [])[0] || {}).message));
      return;
    }
    const types = body.data.__schema.types.filter((t) => !t.name.startsWith("__"));
    types.sort((a, b) => a.name.localeCompare(b.name));
    for (const t of types) out.append(renderType(t));
    filter();
  }

  function filter() {
    const q = $("gx-filter").value.trim().toLowerCase();
    for (const box of $("gx-types").children) {
      const fields = [...box.querySelectorAll("li[data-name]")];
      const hit = !q || box.dataset.name.includes(q) || fields.some((li) => li.dataset.name.includes(q));
      box.hidden = !hit;
    }
  }

  $("gx-run").addEventListener("click", run);
  $("gx-schema").addEventListener("click", loadSchema);
  $("gx-filter").addEventListener("input", filter);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });
})();
