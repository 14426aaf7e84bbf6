// The rules page of a variant: its table rules from /api/variants, and its rules text (Markdown, as the
// server's /rules/<variant> page carries it) rendered by markdown.js.
import { optionWords } from "./cards.js";
import { renderMarkdown } from "./markdown.js";

const $ = (id) => document.getElementById(id);

function cell(tag, text) {
  const c = document.createElement(tag);
  c.textContent = text;
  return c;
}

async function main() {
  const name = new URLSearchParams(location.search).get("variant") || "classic";
  const variants = await (await fetch("/api/variants")).json();
  const v = variants.find((x) => x.name === name);
  if (!v) { $("title").textContent = `No variant "${name}"`; document.body.dataset.ready = "true"; return; }
  document.title = `${v.title}: rules`;
  $("title").textContent = v.title;
  $("description").textContent = v.description;
  const table = document.createElement("table");
  const head = document.createElement("tr");
  head.append(cell("th", "Table rule"), cell("th", "Default"), cell("th", "Meaning"));
  table.append(head);
  for (const o of v.options) {
    const tr = document.createElement("tr");
    const what = cell("td", optionWords(o.name));
    what.append(document.createElement("br"), cell("code", o.name));
    const meaning = cell("td", o.help);
    if (o.source) meaning.append(document.createElement("br"), cell("small", o.source));
    tr.append(what, cell("td", typeof o.default === "boolean" ? (o.default ? "yes" : "no") : String(o.default)), meaning);
    table.append(tr);
  }
  $("options").append(table);
  // the rules text: the server's page holds it escaped in <pre class="rules">; read back as text only
  const page = await (await fetch(`/rules/${encodeURIComponent(name)}`)).text();
  const pre = new DOMParser().parseFromString(page, "text/html").querySelector("pre.rules");
  if (pre) $("text").append(renderMarkdown(pre.textContent));
  document.body.dataset.ready = "true";
}

main();
