// Replay viewer: the server replays the record (every action checked) and returns one frame per action.
import { cardElement, escapeHtml, itemLabel, moveWords, plural, sortCards } from "./cards.js";

const $ = (id) => document.getElementById(id);
let data = null;
let hand = 0;
let step = 0;

/** A seat's label, counted from 1, with its name when the record has one (the web app's records do). */
function seatLabel(s) {
  const name = data && data.names ? data.names[s] : "";
  return name ? `Seat ${s + 1} · ${name}` : `Seat ${s + 1}`;
}

/** A side's label: its number and the names of its seats (partners sit every num_sides seats apart). */
function sideLabel(side, sides) {
  const names = (data.names || []).filter((n, s) => n && s % sides === side);
  return `Side ${side + 1}` + (names.length ? ` (${names.join(" & ")})` : "");
}

async function load() {
  $("error").textContent = "";
  const r = await fetch("/api/replay", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ record: $("text").value }) });
  const out = await r.json();
  if (!r.ok) { $("error").textContent = out.message; return; }
  data = out;
  $("viewer").hidden = false;
  $("hand").innerHTML = data.hands.map((h, i) => `<option value="${i}">Hand ${h.number}</option>`).join("");
  hand = 0; step = 0;
  show();
}

function cardsRow(cards) {
  const div = document.createElement("div");
  div.className = "cards";
  for (const c of cards) div.append(cardElement(c, { small: true }));
  return div;
}

function show() {
  const h = data.hands[hand];
  const box = $("frame");
  box.innerHTML = "";
  if (data.redacted) {
    $("step").hidden = true;
    box.innerHTML = `<p>${escapeHtml(data.message)}</p><ol>${h.moves.map((m) => `<li>${escapeHtml(seatLabel(m.seat))} ${escapeHtml(moveWords(m.action))}</li>`).join("")}</ol>`;
    return;
  }
  const frames = h.frames;
  step = Math.max(0, Math.min(step, frames.length - 1));
  $("step").max = String(frames.length - 1);
  $("step").value = String(step);
  const f = frames[step];
  $("where").textContent = `step ${step} of ${frames.length - 1}` + (f.action ? ` · ${seatLabel(f.seat)} ${moveWords(f.action)}` : " · the deal")
    + (f.hand_over ? " · the hand is over: the table as it ended, and the score" : "");
  document.body.dataset.handOver = f.hand_over ? "true" : "false";
  document.body.dataset.step = String(step);
  f.hands.forEach((cards, s) => {
    const row = document.createElement("div");
    row.className = "seat-hand";
    row.innerHTML = `<strong>${escapeHtml(seatLabel(s))}${s === h.dealer ? " (dealer)" : ""}${f.actor === s ? " ▶" : ""}</strong> (${plural(cards.length, "card")})`;
    row.append(cardsRow(sortCards(cards)));
    box.append(row);
  });
  f.melds.forEach((melds, side) => {
    const row = document.createElement("div");
    row.innerHTML = `<strong>${escapeHtml(sideLabel(side, f.melds.length))}</strong> · score ${f.scores[side]} · red threes ${f.red_threes[side].length}`;
    for (const m of melds) {
      // Variants with meld ids (Burraco): a run keeps its order; melds are named by id.
      const d = cardsRow(m.kind === "run" ? [...m.cards] : sortCards(m.cards));
      d.title = meldTitle(m);
      row.append(d);
    }
    box.append(row);
  });
  box.append(centre(f));
  if (f.hand_over && h.result) {
    const keys = [...new Set(h.result.sides.flatMap((s) => Object.keys(s.items)))];
    box.insertAdjacentHTML("beforeend", `<h2>Score of hand ${h.result.hand}</h2><table><tr><th></th>${h.result.sides.map((_, k) => `<th>${escapeHtml(sideLabel(k, h.result.sides.length))}</th>`).join("")}</tr>`
      + keys.map((k) => `<tr><td>${escapeHtml(itemLabel(k))}</td>${h.result.sides.map((s) => `<td>${s.items[k] ?? 0}</td>`).join("")}</tr>`).join("")
      + `<tr><th>Total</th>${h.result.sides.map((s) => `<th>${s.total}</th>`).join("")}</tr></table>`);
  }
}

/** A meld's name in its variant's words (Burraco's burracos, Samba's escaleras and sambas). */
function meldTitle(m) {
  const burraco = data.tags.Variant === "burraco";
  const id = m.id !== undefined ? `#${m.id} ` : "";
  if (m.kind === "run") {
    const name = burraco ? "run" : "escalera";
    return id + (m.canasta ? (burraco ? `${m.natural ? "clean" : "dirty"} burraco` : "samba") : name);
  }
  if (m.canasta) return id + (burraco ? `${m.natural ? "clean" : "dirty"} burraco` : `${m.natural ? "natural" : "mixed"} canasta`);
  return `${id}${m.rank} meld`;
}

/** The stock and the pile, drawn as cards: a back with the stock's size, the pile's top card face up. */
function centre(f) {
  const div = document.createElement("div");
  div.className = "replay-centre";
  const stock = document.createElement("div");
  stock.className = "replay-pile";
  stock.append(cardElement("??", { label: f.stock_size }));
  stock.insertAdjacentHTML("beforeend", `<div>stock ${f.stock_size}</div>`);
  const pile = document.createElement("div");
  pile.className = "replay-pile pile";
  pile.classList.toggle("stacked", f.pile_size > 1);  // the cards under the top one, squared up beneath it
  if (f.pile_top) pile.append(cardElement(f.pile_top));
  else pile.insertAdjacentHTML("beforeend", `<div class="empty-pile">empty</div>`);
  pile.insertAdjacentHTML("beforeend", `<div>pile ${f.pile_size}${f.frozen ? " · frozen" : ""}</div>`);
  div.append(stock, pile);
  return div;
}

$("load").addEventListener("click", load);
$("file").addEventListener("change", async () => { const f = $("file").files[0]; if (f) { $("text").value = await f.text(); load(); } });
$("hand").addEventListener("change", () => { hand = Number($("hand").value); step = 0; show(); });
$("first").addEventListener("click", () => { step = 0; show(); });
$("prev").addEventListener("click", () => { step -= 1; show(); });
$("next").addEventListener("click", () => { step += 1; show(); });
$("last").addEventListener("click", () => { step = 1e9; show(); });
$("step").addEventListener("input", () => { step = Number($("step").value); show(); });
// arrow keys step through the hand (not while typing the record, nor on the slider, which has its own)
document.addEventListener("keydown", (e) => {
  if (!data || e.target.closest("textarea, input, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: 1e9 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  step = to;
  show();
});
// /replay?game=<id>: a finished game of this server (from the history page); its record is public once the
// game is over (a running game's record is for its players only, and the server refuses it here)
async function fromServer(gameId) {
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`);
  if (!r.ok) { $("error").textContent = (await r.json()).message; return; }
  $("text").value = await r.text();
  await load();
  if (data) $("viewer").scrollIntoView();
}

const wanted = new URLSearchParams(location.search).get("game");
if (wanted) fromServer(wanted).finally(() => { document.body.dataset.ready = "true"; });
else document.body.dataset.ready = "true";
