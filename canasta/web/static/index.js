// Start page: variant, players, seats and table rules; creates the game and opens the table.
import { escapeHtml, optionWords } from "./cards.js";

const $ = (id) => document.getElementById(id);
let variants = [];

function current() { return variants.find((v) => v.name === $("variant").value); }

function renderVariant() {
  const v = current();
  $("variant-desc").textContent = v.description;
  $("rules-link").href = v.rules_page;  // the server renders the rules text (canasta/web/rules_page.py)
  const players = $("players");
  const keep = Number(players.value) || 4;
  // every count the engine plays: six and eight sit one on each side and the rest across the top of the table
  const counts = v.player_counts;
  players.innerHTML = counts.map((n) => `<option value="${n}">${n}</option>`).join("");
  players.value = String(counts.includes(keep) ? keep : counts[counts.length - 1]);
  renderSeats();
  $("options").innerHTML = v.options.map((o) => {
    let input;
    if (o.type === "bool") input = `<input type="checkbox" id="opt-${o.name}" data-opt="${o.name}" ${o.default ? "checked" : ""}>`;
    else if (o.choices) input = `<select id="opt-${o.name}" data-opt="${o.name}">${o.choices.map((c) => `<option ${c === o.default ? "selected" : ""} value="${escapeHtml(c)}">${escapeHtml(c)}</option>`).join("")}</select>`;
    else if (o.type === "int") input = `<input type="number" id="opt-${o.name}" data-opt="${o.name}" value="${o.default}">`;
    else input = `<input id="opt-${o.name}" data-opt="${o.name}" value="${escapeHtml(o.default)}">`;
    return `<div class="option-row"><label for="opt-${o.name}">${escapeHtml(optionWords(o.name))}</label>${input}<small>${escapeHtml(o.help)} (default: ${escapeHtml(JSON.stringify(o.default))})</small></div>`;
  }).join("");
}

function renderSeats() {
  const n = Number($("players").value);
  const rows = [`<div class="seat-row"><strong>Seat 1:</strong> you</div>`];
  for (let i = 1; i < n; i++) {
    const partner = n === 4 && i === 2 ? " (your partner)" : "";
    rows.push(`<div class="seat-row"><label>Seat ${i + 1}${partner}: <select data-seat="${i}">
      <option value="computer:basic">computer (basic)</option>
      <option value="computer:expert">computer (expert: thinks up to 2 s a move)</option>
      <option value="computer:random">computer (random)</option>
      <option value="invite">a friend (invite link)</option></select></label></div>`);
  }
  $("seats").innerHTML = rows.join("");
}

function chosenRules() {
  const rules = {};
  for (const o of current().options) {
    const input = document.querySelector(`[data-opt="${o.name}"]`);
    let value;
    if (o.type === "bool") value = input.checked;
    else if (o.type === "int") value = Number(input.value);
    else value = input.value;
    if (o.choices && o.type === "int") value = Number(value);
    if (value !== o.default) rules[o.name] = value;
  }
  return rules;
}

async function start(ev) {
  ev.preventDefault();
  $("start-error").textContent = "";
  const name = $("name").value.trim();
  if (name) localStorage.setItem("canasta.name", name);
  const seats = [{ kind: "me", name }];
  document.querySelectorAll("[data-seat]").forEach((sel) => {
    const [kind, level] = sel.value.split(":");
    seats.push(kind === "computer" ? { kind, level } : { kind });
  });
  const body = { variant: $("variant").value, players: Number($("players").value), seats, rules: chosenRules() };
  if ($("seed").value.trim()) body.seed = $("seed").value.trim();
  const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const out = await r.json();
  if (!r.ok) { $("start-error").textContent = out.message; return; }
  localStorage.setItem(`canasta.seat.${out.id}`, JSON.stringify({ seat: 0, token: out.tokens["0"] }));
  localStorage.setItem(`canasta.invites.${out.id}`, JSON.stringify(out.invite_links));
  const games = JSON.parse(localStorage.getItem("canasta.games") || "[]");
  games.unshift({ id: out.id, variant: body.variant, players: body.players, at: new Date().toISOString() });
  localStorage.setItem("canasta.games", JSON.stringify(games.slice(0, 20)));
  location.href = out.table;
}

async function main() {
  variants = await (await fetch("/api/variants")).json();
  $("variant").innerHTML = variants.map((v) => `<option value="${v.name}">${escapeHtml(v.title)}</option>`).join("");
  $("name").value = localStorage.getItem("canasta.name") || "";
  $("variant").addEventListener("change", renderVariant);
  $("players").addEventListener("change", renderSeats);
  $("start").addEventListener("submit", start);
  renderVariant();
  const games = JSON.parse(localStorage.getItem("canasta.games") || "[]");
  if (games.length) {
    $("my-games").innerHTML = "<h2>Your games</h2><ul>" + games.map((g) =>
      `<li><a href="/table/${encodeURIComponent(g.id)}">${escapeHtml(g.variant)}, ${g.players} players</a> <small>${escapeHtml(g.at.slice(0, 16))}</small></li>`).join("") + "</ul>";
  }
  document.body.dataset.ready = "true";
}

main();
