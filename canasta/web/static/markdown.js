// A small Markdown renderer for the rules pages: headings, paragraphs, lists, tables, fenced code,
// **bold**, *emphasis*, `code` and [links](url). It builds DOM nodes and sets only textContent, so no
// text of the document can become markup; links keep only relative, http and https addresses.

const INLINE = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_|\[[^\]]+\]\([^)\s]+\))/;

function inline(parent, text) {
  for (const part of text.split(INLINE)) {
    if (!part) continue;
    let node;
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) {
      node = document.createElement("strong");
      inline(node, part.slice(2, -2));
    } else if (part.startsWith("`") && part.endsWith("`") && part.length > 2) {
      node = document.createElement("code");
      node.textContent = part.slice(1, -1);
    } else if (/^\[[^\]]+\]\([^)\s]+\)$/.test(part)) {
      const [, label, href] = part.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/);
      if (/^(https?:\/\/|\/|#)/i.test(href)) {
        node = document.createElement("a");
        node.href = href;
        inline(node, label);
      } else {
        node = document.createElement("span");  // a link to a file of the repository: its words only
        inline(node, label);
      }
    } else if ((part.startsWith("*") && part.endsWith("*") || part.startsWith("_") && part.endsWith("_")) && part.length > 2) {
      node = document.createElement("em");
      inline(node, part.slice(1, -1));
    } else {
      node = document.createTextNode(part);
    }
    parent.append(node);
  }
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** Render Markdown text into a DocumentFragment. */
export function renderMarkdown(text) {
  const out = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      // the page has its own h1: document headings start one level down
      const h = document.createElement(`h${Math.min(6, heading[1].length + 1)}`);
      inline(h, heading[2]);
      out.append(h);
      i++;
      continue;
    }
    if (line.startsWith("```")) {
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      const body = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) body.push(lines[i++]);
      i++;
      code.textContent = body.join("\n");
      pre.append(code);
      out.append(pre);
      continue;
    }
    if (line.trim().startsWith("|")) {
      const table = document.createElement("table");
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(lines[i++]);
      rows.forEach((row, r) => {
        if (/^\s*\|?\s*:?-{2,}/.test(row)) return;  // the separator under the header
        const tr = document.createElement("tr");
        for (const c of cells(row)) {
          const cell = document.createElement(r === 0 ? "th" : "td");
          inline(cell, c);
          tr.append(cell);
        }
        table.append(tr);
      });
      out.append(table);
      continue;
    }
    const bullet = /^\s*([-*+]|\d+[.)])\s+/;
    if (bullet.test(line)) {
      const list = document.createElement(/^\s*\d/.test(line) ? "ol" : "ul");
      let item = null;
      while (i < lines.length && lines[i].trim()) {
        if (bullet.test(lines[i])) {
          item = document.createElement("li");
          inline(item, lines[i].replace(bullet, ""));
          list.append(item);
        } else if (item) {
          inline(item, ` ${lines[i].trim()}`);  // a continuation line of the item
        }
        i++;
      }
      out.append(list);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#{1,6}\s|```|\s*\|)/.test(lines[i]) && !bullet.test(lines[i])) {
      para.push(lines[i++].trim());
    }
    const p = document.createElement("p");
    inline(p, para.join(" "));
    out.append(p);
  }
  return out;
}
