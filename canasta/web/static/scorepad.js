// Scorepad: score hands played with real cards through /api/score; running totals kept in the browser.
import { escapeHtml, itemLabel } from "./cards.js";

const $ = (id) => document.getElementById(id);
const KEY = "canasta.scorepad";
let pad = JSON.parse(localStorage.getItem(KEY) || "null") || { players: 4, hands: [] };

function sides() { const n = Number($("players").value); return n === 4 ? 2 : n; }

function renderTeams() {
  const n = sides();
  const perSide = Number($("players").value) === 4 ? 2 : 1;
  let html = "";
  for (let t = 0; t < n; t++) {
    html += `<fieldset class="scorepad-team" data-team="${t}"><legend>${perSide === 2 ? "Team" : "Player"} ${t + 1}</legend>
      <label>Name <input data-f="name" value="${escapeHtml((pad.names || [])[t] || "")}"></label>
      <label>Melds, one per line <textarea data-f="melds" rows="4" placeholder="K K K K K K K&#10;5 5 5 2"></textarea></label>
      <label>Red threes <input data-f="threes" type="number" min="0" max="4" value="0"></label>
      ${[...Array(perSide).keys()].map((p) => `<label>Cards left in hand${perSide === 2 ? ` (player ${p + 1})` : ""} <input data-f="hand${p}" placeholder="7 9 JK"></label>`).join("")}
      <label><input type="radio" name="went_out" value="${t}"> went out</label>
      <label><input type="checkbox" data-f="concealed"> concealed</label></fieldset>`;
  }
  $("teams").innerHTML = html;
}

// Cards written without a suit get one in turn (spades, hearts, diamonds, clubs, again), so that two
// packs never hold more copies of a card than they have. Black suits for threes (red threes are counted).
let suitTurn = {};
function cards(text) {
  return text.split(/[\s,]+/).filter(Boolean).map((w) => {
    const u = w.toUpperCase();
    if (u === "JK" || u === "JOKER") return "JK";
    if (/[SHDC]$/.test(u) && u.length > 1) return w;
    const k = suitTurn[u] || 0;
    suitTurn[u] = k + 1;
    return u + (u === "3" ? "sc"[k % 2] : "shdc"[k % 4]);
  });
}

async function score(ev) {
  ev.preventDefault();
  $("pad-error").textContent = "";
  const perSide = Number($("players").value) === 4 ? 2 : 1;
  const wentOut = document.querySelector("input[name=went_out]:checked");
  suitTurn = {};
  const teams = [...document.querySelectorAll("[data-team]")].map((f, t) => {
    const get = (k) => f.querySelector(`[data-f="${k}"]`);
    const threes = ["3h", "3d", "3h", "3d"].slice(0, Number(get("threes").value) || 0);
    return {
      name: get("name").value || undefined,
      melds: get("melds").value.split("\n").map(cards).filter((m) => m.length),
      threes,
      hands: [...Array(perSide).keys()].map((p) => cards(get(`hand${p}`).value)),
      went_out: wentOut !== null && Number(wentOut.value) === t,
      concealed: get("concealed").checked,
    };
  });
  const body = { players: Number($("players").value), teams };
  const r = await fetch("/api/score", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const out = await r.json();
  if (!r.ok) { $("pad-error").textContent = out.message; return; }
  pad.players = body.players;
  pad.names = teams.map((t, i) => t.name || `Side ${i + 1}`);
  pad.hands.push(out.teams.map((t) => t.total));
  localStorage.setItem(KEY, JSON.stringify(pad));
  const keys = [...new Set(out.teams.flatMap((t) => Object.keys(t.items)))];
  $("result").innerHTML = `<h2>This hand</h2><table class="result"><tr><th></th>${pad.names.map((n) => `<th>${escapeHtml(n)}</th>`).join("")}</tr>`
    + keys.map((k) => `<tr><td>${escapeHtml(itemLabel(k))}</td>${out.teams.map((t) => `<td>${t.items[k] ?? 0}</td>`).join("")}</tr>`).join("")
    + `<tr><th>Total</th>${out.teams.map((t) => `<th data-total>${t.total}</th>`).join("")}</tr></table>`;
  renderHistory();
}

function renderHistory() {
  if (!pad.hands.length) { $("history").innerHTML = "<p>No hands yet.</p>"; return; }
  const names = pad.names || [];
  const totals = names.map(() => 0);
  let html = `<table><tr><th>Hand</th>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join("")}</tr>`;
  pad.hands.forEach((h, i) => {
    h.forEach((v, k) => { totals[k] += v; });
    html += `<tr><td>${i + 1}</td>${h.map((v, k) => `<td>${v} → <strong>${totals[k]}</strong></td>`).join("")}</tr>`;
  });
  $("history").innerHTML = html + "</table>";
}

$("players").value = String(pad.players);
$("players").addEventListener("change", renderTeams);
$("pad").addEventListener("submit", score);
$("reset").addEventListener("click", () => { pad = { players: Number($("players").value), hands: [] }; localStorage.setItem(KEY, JSON.stringify(pad)); renderHistory(); $("result").innerHTML = ""; });
renderTeams();
renderHistory();
