// History page: this browser's games, asked of the server with the seat tokens the browser holds
// (localStorage canasta.seat.<game id>, written by the start page and the table); see canasta/web/history.py.
import { escapeHtml } from "./cards.js";

const $ = (id) => document.getElementById(id);
const PREFIX = "canasta.seat.";

/** Every seat this browser holds: [{game, token}]. */
function heldSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(PREFIX)) continue;
    try {
      const held = JSON.parse(localStorage.getItem(key));
      if (held && typeof held.token === "string") seats.push({ game: key.slice(PREFIX.length), token: held.token });
    } catch { /* not ours: skip */ }
  }
  return seats.slice(0, 200);  // the server's limit (MAX_CLAIMS)
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function statsTable(stats) {
  if (!stats.length) return "<p>No finished games yet.</p>";
  return `<table class="stats"><caption class="sr-only">Games, wins and average margin per variant</caption>
    <thead><tr><th scope="col">Variant</th><th scope="col">Games</th><th scope="col">Wins</th><th scope="col">Losses</th>
    <th scope="col">Ties</th><th scope="col">Average margin</th></tr></thead><tbody>`
    + stats.map((s) => `<tr data-variant="${escapeHtml(s.variant)}"><th scope="row">${escapeHtml(s.title)}</th><td data-label="Games">${s.games}</td>
      <td data-wins data-label="Wins">${s.wins}</td><td data-label="Losses">${s.losses}</td><td data-label="Ties">${s.ties}</td>
      <td data-margin data-label="Average margin">${signed(s.average_margin)}</td></tr>`).join("")
    + "</tbody></table>";
}

/** The seats by side: "Ana & Carla 5120 – Computer Bo & Computer Di 3400", your side first. */
function sidesText(g) {
  const order = [g.side, ...[...Array(g.sides).keys()].filter((s) => s !== g.side)];
  return order.map((side) => {
    const who = g.seats.filter((s) => s.side === side).map((s) => s.seat === g.seat ? `${s.name} (you)` : s.name);
    const mark = g.winner === side ? ' <span class="won-mark">(won)</span>' : "";
    return `${escapeHtml(who.join(" & "))} <strong>${g.scores[side]}</strong>${mark}`;
  }).join(" – ");
}

const RESULT_WORDS = { won: "Won", lost: "Lost", tie: "Tie" };

function gamesTable(games) {
  if (!games.length) return "<p>None yet: finish a game and it shows here.</p>";
  return `<table class="history-list"><caption class="sr-only">Finished games, newest first</caption>
    <thead><tr><th scope="col">Date</th><th scope="col">Variant</th><th scope="col">Result</th><th scope="col">Margin</th>
    <th scope="col">Seats and final scores</th><th scope="col">Hands</th><th scope="col">Record</th></tr></thead><tbody>`
    + games.map((g) => `<tr data-game="${escapeHtml(g.id)}"><td>${escapeHtml(g.date)}</td><td>${escapeHtml(g.title)}</td>
      <td data-result="${g.result}">${RESULT_WORDS[g.result]}</td><td data-label="Margin">${signed(g.margin)}</td><td class="names">${sidesText(g)}</td>
      <td data-label="Hands">${g.hands}</td><td><a href="${escapeHtml(g.record)}">Replay<span class="sr-only"> the ${escapeHtml(g.title)} game of ${escapeHtml(g.date)}</span></a></td></tr>`).join("")
    + "</tbody></table>";
}

function runningList(running) {
  if (!running.length) return "<p>None.</p>";
  return "<ul>" + running.map((g) => `<li><a href="${escapeHtml(g.table)}">${escapeHtml(g.title)}, ${g.players} players</a>
    <small>started ${escapeHtml(g.date)}</small></li>`).join("") + "</ul>";
}

async function main() {
  const seats = heldSeats();
  let out = { games: [], running: [], stats: [] };
  if (seats.length) {
    const r = await fetch("/api/history", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ seats }) });
    const body = await r.json();
    if (!r.ok) $("history-status").textContent = body.message;
    else out = body;
  }
  $("stats").innerHTML = statsTable(out.stats);
  $("games").innerHTML = gamesTable(out.games);
  $("running").innerHTML = runningList(out.running);
  if (!$("history-status").textContent) {
    $("history-status").textContent = seats.length ? `${out.games.length} finished, ${out.running.length} in play.`
      : "This browser has played no game on this server yet.";
  }
  document.body.dataset.ready = "true";
}

main();
