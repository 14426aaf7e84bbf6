// The card table: one WebSocket, every message built by the server from observation(seat).
import {
  cardElement, escapeHtml, itemLabel, kindOf, parseActionText, parseCard, sameKinds, scoreChart, sortCards,
} from "./cards.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const SEAT_KEY = `canasta.seat.${gameId}`;
const $ = (id) => document.getElementById(id);

let auth = JSON.parse(localStorage.getItem(SEAT_KEY) || "null"); // {seat, token}
let ws = null;
let state = null;            // {version, obs, legal, seats}
let version = -1;
let events = [];             // [{seq, seat, action}]
let selected = new Set();    // indices into the sorted hand
let hand = [];
let hinted = null;           // {action, indices}
let idleLimit = null;
let autoTakeover = false;    // the server hands idle seats to the computer by itself
let lastChange = Date.now();
let shownResults = null;     // hand results already shown as a sheet
let backoff = 250;
let nextId = 1;

// ------------------------------------------------------------------ connection
async function joinByInvite() {
  const params = new URLSearchParams(location.search);
  const invite = params.get("invite");
  if (!invite) return;
  const seat = Number(params.get("seat"));
  const name = localStorage.getItem("canasta.name") || "";
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/join`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ seat, invite, name }),
  });
  const body = await r.json();
  if (r.ok) {
    auth = { seat: body.seat, token: body.token };
    localStorage.setItem(SEAT_KEY, JSON.stringify(auth));
  } else if (!auth) {
    showMessage(`Could not join: ${body.message}. You are watching.`, "error");
  }
  history.replaceState(null, "", `/table/${encodeURIComponent(gameId)}`);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}`);
  ws.onopen = () => {
    backoff = 250;
    ws.send(JSON.stringify({ type: "hello", token: auth ? auth.token : null, since: version >= 0 ? version : 0 }));
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    setStatus("reconnecting…");
    document.body.dataset.connected = "false";
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);
  };
}

async function downloadRecord(event) {
  event.preventDefault();
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`, { headers: { "X-Seat-Token": auth.token } });
  if (!r.ok) return;
  const url = URL.createObjectURL(await r.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = `canasta-${gameId}.txt`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function sendAction(text) {
  if (!state) return;
  showMessage("");
  send({ type: "action", action: text, version: state.version, id: nextId++ });
}

function onMessage(m) {
  if (m.type === "welcome") {
    idleLimit = m.idle_limit;
    autoTakeover = Boolean(m.auto_takeover);
    if (m.seat === null && auth) {
      auth = null;
      localStorage.removeItem(SEAT_KEY);
    }
    document.body.dataset.connected = "true";
    return;
  }
  if (m.type === "update") {
    if (m.resync) events = [];
    for (const e of m.events) {
      if (!events.length || e.seq > events[events.length - 1].seq) events.push(e);
    }
    if (!state || m.version !== state.version) lastChange = Date.now();
    version = m.version;
    setState(m.state);
    return;
  }
  if (m.type === "error") {
    if (m.code === "bad-token") {
      localStorage.removeItem(SEAT_KEY);
      auth = null;
    }
    showMessage(m.message + (m.rule ? ` (${m.rule})` : ""), "error");
    return;
  }
  if (m.type === "hint") showHint(m);
}

// ------------------------------------------------------------------ helpers
function mySeat() { return state && state.obs.seat !== null ? state.obs.seat : null; }

function seatName(seat) {
  const info = state.seats[seat];
  let name = info.name || (info.kind === "computer" ? `Computer (${info.level})` : `Player ${seat + 1}`);
  if (info.kind === "computer" && info.name && !/Computer/.test(info.name)) name += ` (computer)`;
  if (seat === mySeat()) name += " (you)";
  return name;
}

// Sides are seat % (number of sides): two partnerships of 4 players, three or four teams of two
// (Hand and Foot with 6 or 8 players), or each player alone (as many sides as players).
function numSides() { return state.obs.scores.length; }

function sideOf(seat) { return seat % numSides(); }

function sideName(side) {
  const o = state.obs;
  const sides = numSides();
  if (sides < o.players) {
    const mine = o.side;
    const seats = [...Array(o.players).keys()].filter((s) => s % sides === side).map((s) => s + 1);
    if (mine === null || (sides > 2 && side !== mine)) return `Seats ${seats.join(" & ")}`;
    return side === mine ? "Us" : "Them";
  }
  return seatName(side);
}

function setStatus(text) { $("status").textContent = text; }

function showMessage(text, kind = "") {
  const box = $("message");
  box.textContent = text;
  box.className = "message" + (kind ? ` ${kind}` : "");
}

// ------------------------------------------------------------------ rendering
function setState(s) {
  const oldHand = hand;
  state = s;
  hand = s.obs.hand;
  if (oldHand.join(" ") !== hand.join(" ")) selected = new Set();
  if (hinted && hinted.version !== s.version) hinted = null;
  document.body.dataset.version = String(s.version);
  document.body.dataset.myTurn = s.legal.length ? "true" : "false";
  document.body.dataset.phase = s.obs.phase;
  document.body.dataset.actor = s.obs.actor === null ? "" : String(s.obs.actor);
  document.body.dataset.handNo = String(s.obs.hand_no);
  document.body.dataset.results = String(s.obs.hand_results.length);
  document.body.dataset.over = s.obs.winner !== null ? "true" : "false";
  render();
  if (shownResults === null) shownResults = s.obs.hand_results.length;
  if (s.obs.hand_results.length > shownResults) {
    shownResults = s.obs.hand_results.length;
    showSheet(s.obs.hand_results[shownResults - 1]);
  }
}

function render() {
  const o = state.obs;
  const me = mySeat();
  const actor = o.actor;
  if (o.winner !== null) setStatus(`Game over: ${sideName(o.winner)} won`);
  else if (me !== null && actor === me) {
    setStatus(o.phase === "answer" ? "Your partner asks you" : o.phase === "pass" ? "Keep a pile as your foot" : "Your turn");
  }
  else setStatus(`${seatName(actor)} to play`);
  $("scoreline").textContent = o.scores.map((sc, k) => `${sideName(k)} ${sc}`).join(" · ");
  $("hint-btn").disabled = !state.legal.length;
  const rec = $("record-link");
  // the seat token goes in a header, never in the link (a URL is kept in histories and logs)
  rec.href = `/api/games/${encodeURIComponent(gameId)}/record`;
  rec.onclick = auth ? downloadRecord : null;
  rec.hidden = !auth && o.winner === null;
  renderSeats();
  renderMelds();
  renderPiles();
  renderHand();
  renderActions();
  renderQuestion();
  renderPanel();
  renderTools();
}

function positions() {
  const n = state.obs.players;
  const base = mySeat() === null ? 0 : mySeat();
  const rel = (k) => (base + k) % n;
  if (n === 4) return { bottom: rel(0), left: rel(1), top: rel(2), right: rel(3) };
  if (n === 3) return { bottom: rel(0), left: rel(1), right: rel(2) };
  return { bottom: rel(0), top: rel(1) };
}

function renderSeats() {
  const pos = positions();
  for (const where of ["top", "left", "right", "bottom"]) {
    const box = $(`seat-${where}`);
    const seat = pos[where];
    box.innerHTML = "";
    if (seat === undefined) { box.hidden = true; continue; }
    box.hidden = false;
    box.dataset.seat = String(seat);
    box.classList.toggle("acting", state.obs.actor === seat);
    const info = state.seats[seat];
    const label = document.createElement("div");
    label.className = "seat-label";
    const count = state.obs.hand_sizes[seat];
    label.innerHTML = `<strong>${escapeHtml(seatName(seat))}</strong> <span class="count" data-count="${count}">${count} cards</span>`
      + (info.kind === "human" && !info.claimed ? ` <em>(waiting for a friend)</em>` : "");
    box.append(label);
    if (where !== "bottom" || mySeat() === null) {
      const fan = document.createElement("div");
      fan.className = "backs";
      for (let i = 0; i < Math.min(count, 8); i++) fan.append(cardElement("??", { small: true }));
      box.append(fan);
    }
  }
}

function meldElement(meld, side) {
  const div = document.createElement("div");
  div.className = "meld" + (meld.canasta ? " canasta" : "");
  // Variants with meld ids (Burraco): additions name the meld "#id"; a run keeps its order.
  const byId = meld.id !== undefined;
  div.dataset.rank = byId ? `#${meld.id}` : meld.rank;
  div.dataset.side = String(side);
  const cards = byId && meld.kind === "run" ? [...meld.cards] : sortCards(meld.cards);
  if (meld.canasta) {
    // A closed canasta: squared up, a red card on top when natural, a black one when mixed.
    const naturals = cards.filter((c) => !["2", "JK"].includes(parseCard(c).rank));
    const want = meld.natural ? ["h", "d"] : ["s", "c"];
    let top = naturals.find((c) => want.includes(parseCard(c).suit));
    if (!top) top = byId ? (naturals[0] || cards[0]) : (meld.rank === "wild" ? "JK" : `${meld.rank}${want[0]}`);
    const card = cardElement(top, { small: true });
    card.classList.add(meld.natural ? "closed-natural" : "closed-mixed");
    div.append(card);
    const badge = document.createElement("span");
    badge.className = "badge " + (meld.natural ? "natural" : "mixed");
    badge.textContent = byId ? `${meld.natural ? "clean" : "dirty"} burraco · ${cards.length}`
      : `${meld.natural ? "natural" : "mixed"} canasta · ${cards.length}`;
    div.append(badge);
  } else {
    for (const c of cards) div.append(cardElement(c, { small: true }));
  }
  if (side === state.obs.side) {
    div.addEventListener("click", () => attemptAdd(div.dataset.rank));
    div.classList.add("drop-target");
  }
  return div;
}

function renderMelds() {
  const o = state.obs;
  const mine = o.side === null ? 0 : o.side;
  const sides = [...Array(o.melds.length).keys()];
  const them = sides.filter((s) => s !== mine);
  const fill = (box, list) => {
    box.innerHTML = "";
    for (const side of list) {
      const row = document.createElement("div");
      row.className = "meld-row";
      row.dataset.side = String(side);
      const head = document.createElement("div");
      head.className = "meld-head";
      const min = o.minimum[side];
      // Mille has no initial meld minimum (0): only the name is shown
      head.innerHTML = `<strong>${escapeHtml(sideName(side))}</strong>` + (min > 0 ? ` · minimum ${min}` : "")
        + (o.opened[side] && min > 0 ? " · opened" : "") + (side === o.side && o.pending_value ? ` · this turn ${o.pending_value}` : "");
      if (o.books !== undefined) {
        // Hand and Foot: closed piles by kind, against what going out needs
        const n = (k) => o.books[side].filter((b) => b.kind === k).length;
        const need = o.books_needed;
        head.insertAdjacentHTML("beforeend", o.knee_sizes !== undefined
          ? ` · canastas: ${n("clean")} natural, ${n("dirty")} mixed, ${n("wild")} wild${o.books_ready[side] ? " · basic book made" : ""}`
          : ` · piles: ${n("clean")}/${need.clean} clean, ${n("dirty")}/${need.dirty} dirty, ${n("wild")}/${need.wild} wild`);
      }
      row.append(head);
      const threes = document.createElement("div");
      threes.className = "red-threes";
      for (const c of o.red_threes[side]) threes.append(cardElement(c, { small: true }));
      row.append(threes);
      const melds = document.createElement("div");
      melds.className = "meld-list";
      for (const m of o.melds[side]) melds.append(meldElement(m, side));
      row.append(melds);
      box.append(row);
    }
  };
  fill($("melds-them"), them);
  fill($("melds-us"), [mine]);
}

function renderPiles() {
  const o = state.obs;
  const stock = $("stock");
  stock.innerHTML = "";
  const back = cardElement("??", { label: o.stock_size });
  stock.append(back);
  stock.insertAdjacentHTML("beforeend", `<div class="pile-caption">stock ${o.stock_size}</div>`);
  if (o.extra_piles !== undefined) {
    // Burraco: the pozzetti left in the centre and the face-down ones, by size only.
    const down = o.face_down.map((n, s) => (n ? `seat ${s + 1}: ${n} face down` : "")).filter(Boolean).join(", ");
    stock.insertAdjacentHTML("beforeend", `<div class="pile-caption">pozzetti ${o.extra_piles.length}${down ? ` · ${down}` : ""}</div>`);
  }
  if (o.foot_sizes !== undefined) {
    // Hand and Foot: every foot is face down; only its size (or that the seat plays from it) shows.
    const knee = (s) => (o.knee_sizes !== undefined && o.knee_sizes[s] ? `knee ${o.knee_sizes[s]}, ` : "");
    // the hand-passing deal: a foot's turned-up top card stays in sight
    const top = (s) => (o.foot_shown && o.foot_shown[s] ? ` (top ${o.foot_shown[s]})` : "");
    const feet = o.foot_sizes.map((n, s) => `seat ${s + 1}: ${o.in_foot[s] ? "in foot" : `${knee(s)}foot ${n}${top(s)}`}`).join(", ");
    stock.insertAdjacentHTML("beforeend", `<div class="pile-caption">${feet}</div>`);
  }
  stock.classList.toggle("can", state.legal.includes("draw"));
  const pile = $("pile");
  pile.innerHTML = "";
  pile.classList.toggle("frozen", !!o.frozen);
  if (o.pile_top) pile.append(cardElement(o.pile_top));
  else pile.insertAdjacentHTML("beforeend", `<div class="empty-pile">empty</div>`);
  pile.insertAdjacentHTML("beforeend", `<div class="pile-caption">pile ${o.pile_size}${o.frozen ? " · frozen" : ""}</div>`);
  const takes = state.legal.filter((t) => t.startsWith("take"));
  pile.classList.toggle("can", takes.length > 0);
  const info = $("table-info");
  info.innerHTML = `Hand ${o.hand_no} · dealer ${escapeHtml(seatName(o.dealer))}`;
}

function renderHand() {
  const box = $("hand");
  box.innerHTML = "";
  const me = mySeat();
  if (me === null) { box.innerHTML = `<p class="spectator">You are watching: only face-up cards are shown.</p>`; return; }
  // group by rank, the groups in the sorted order of the hand
  let group = null;
  let lastKind = null;
  hand.forEach((c, i) => {
    const kind = kindOf(c) === "3r" || kindOf(c) === "3b" ? "3" : kindOf(c);
    if (kind !== lastKind) {
      group = document.createElement("div");
      group.className = "group";
      group.dataset.kind = kind;
      box.append(group);
      lastKind = kind;
    }
    const card = cardElement(c);
    card.dataset.index = String(i);
    card.tabIndex = 0;
    card.classList.toggle("selected", selected.has(i));
    card.classList.toggle("hinted", !!hinted && hinted.indices.includes(i));
    card.addEventListener("click", () => toggle(i));
    card.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(i); } });
    card.addEventListener("pointerdown", (e) => pressCard(e, i));
    group.append(card);
  });
}

// ------------------------------------------------------------ drag and drop
// Pointer events, so mouse, pen and touch screens work alike (HTML5 drag events never fire on touch).
// Press a card of the hand and move a few pixels: the card (with the other selected ones) follows the
// pointer; release it over the pile (discard, or take the pile with it), over one of our melds (add)
// or elsewhere on our meld area (a new meld). A press without a move stays a click: select/unselect.
const DRAG_START_PX = 8;
let drag = null;             // {pointerId, index, x, y, ghost, over}
let swallowClick = false;    // the click a mouse sends after a drag is not a selection

function pressCard(e, i) {
  if ((e.pointerType === "mouse" && e.button !== 0) || !e.isPrimary || mySeat() === null) return;
  drag = { pointerId: e.pointerId, index: i, x: e.clientX, y: e.clientY, ghost: null, over: null };
}

function dropTargetAt(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  return el.closest("#melds-us .meld.drop-target") || el.closest("#pile") || el.closest("#melds-us");
}

function moveDrag(e) {
  if (!drag || e.pointerId !== drag.pointerId) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_START_PX) return;
    if (!selected.has(drag.index)) {
      // mark it without redrawing the hand: the pressed element must stay in place while it is dragged
      selected.add(drag.index);
      const el = document.querySelector(`.hand .card[data-index="${drag.index}"]`);
      if (el) el.classList.add("selected");
      renderActions();
    }
    drag.ghost = document.createElement("div");
    drag.ghost.className = "drag-ghost";
    for (const c of selectedCards()) drag.ghost.append(cardElement(c, { small: true }));
    document.body.append(drag.ghost);
    document.body.dataset.dragging = "true";
  }
  e.preventDefault();
  drag.ghost.style.left = `${e.clientX}px`;
  drag.ghost.style.top = `${e.clientY}px`;
  const over = dropTargetAt(e.clientX, e.clientY);
  if (over !== drag.over) {
    if (drag.over) drag.over.classList.remove("drop-over");
    if (over) over.classList.add("drop-over");
    drag.over = over;
  }
}

function endDrag(e) {
  if (!drag || e.pointerId !== drag.pointerId) return;
  const d = drag;
  drag = null;
  if (!d.ghost) return;  // no move: the click that follows selects
  d.ghost.remove();
  if (d.over) d.over.classList.remove("drop-over");
  delete document.body.dataset.dragging;
  swallowClick = true;
  setTimeout(() => { swallowClick = false; }, 0);
  const target = e.type === "pointerup" ? dropTargetAt(e.clientX, e.clientY) : null;
  if (target && target.id === "pile") attemptPile();
  else if (target && target.classList.contains("meld")) attemptAdd(target.dataset.rank);
  else if (target) attemptMeld();
  renderHand();
  renderActions();
}

window.addEventListener("pointermove", moveDrag, { passive: false });
window.addEventListener("pointerup", endDrag);
window.addEventListener("pointercancel", endDrag);
window.addEventListener("click", (e) => { if (swallowClick) { e.stopPropagation(); e.preventDefault(); swallowClick = false; } }, true);

function toggle(i) {
  if (selected.has(i)) selected.delete(i); else selected.add(i);
  renderHand();
  renderActions();
}

function selectedCards() { return [...selected].sort((a, b) => a - b).map((i) => hand[i]); }

const VERB_LABEL = {
  draw: () => "Draw from the stock",
  ask: () => "Ask partner: may I go out?",
  yes: () => "Yes, go out",
  no: () => "No, not yet",
  retract: () => "Take back the meld",
  end: () => "Decline the pile (ends the hand)",
};

function actionLabel(text) {
  const a = parseActionText(text);
  if (VERB_LABEL[a.verb]) return VERB_LABEL[a.verb]();
  const cards = a.cards.map((c) => parseCard(c).rank).join(" ");
  if (a.verb === "merge") return `Combine sets ${a.target.replace(" ", " and ")} into one`;
  if (a.verb === "special") return `Lay down the whole hand: ${a.target} (special hand)`;
  if (a.verb === "keep") {
    const shown = state.obs.pass_shown ? state.obs.pass_shown[mySeat()] : null;
    const top = shown ? ` (${shown[Number(a.target) - 1]} turned up)` : "";
    return `Keep pile ${a.target}${top} as your foot, pass the other left`;
  }
  if (a.verb === "take" && a.target) return `Take the pile: its top card onto meld ${a.target}`;
  if (a.verb === "take") return a.cards.length ? `Take the pile with ${cards}` : "Take the pile";
  if (a.verb === "meld") return `Meld ${cards}`;
  if (a.verb === "add") return `Add ${cards} to the ${a.target === "W" ? "wild" : a.target} meld`;
  if (a.verb === "discard") return `Discard ${cards}`;
  return text;
}

/** The legal actions for the current selection: [{legal, send}]. */
function offered() {
  const sel = selectedCards();
  const out = [];
  for (const text of state.legal) {
    const a = parseActionText(text);
    if (!a.cards.length) { out.push({ legal: text, send: text }); continue; }
    if (!sel.length || !sameKinds(a.cards, sel)) continue;
    const head = a.verb === "add" ? `add ${a.target}` : a.verb;
    out.push({ legal: text, send: `${head} ${sel.join(" ")}` });
  }
  return out;
}

function renderActions() {
  const box = $("actions");
  box.innerHTML = "";
  if (!state || !state.legal.length) return;
  for (const { legal, send: text } of offered()) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action" + (hinted && hinted.action === legal ? " hinted" : "");
    b.dataset.action = legal;
    b.dataset.send = text;
    b.textContent = actionLabel(legal);
    b.addEventListener("click", () => { selected = new Set(); sendAction(text); });
    box.append(b);
  }
  if (!selected.size && state.legal.some((t) => parseActionText(t).cards.length)) {
    box.insertAdjacentHTML("beforeend", `<span class="tip">Select cards to meld, add or discard.</span>`);
  }
}

function attemptAdd(rank) {
  const sel = selectedCards();
  if (!sel.length || !state || !state.legal.length) return;
  const target = rank === "wild" ? "W" : rank;
  sendAction(`add ${target} ${sel.join(" ")}`);
  selected = new Set();
}

function attemptMeld() {
  const sel = selectedCards();
  if (!sel.length || !state || !state.legal.length) return;
  sendAction(`meld ${sel.join(" ")}`);
  selected = new Set();
}

function attemptPile() {
  if (!state || !state.legal.length) return;
  const sel = selectedCards();
  if (state.obs.phase === "draw") sendAction(`take ${sel.join(" ")}`.trim());
  else if (sel.length === 1) sendAction(`discard ${sel[0]}`);
  else { showMessage("Select one card to discard, or cards to take the pile with.", "error"); return; }
  selected = new Set();
}

function renderQuestion() {
  const q = $("question");
  const o = state.obs;
  if (o.phase === "answer" && mySeat() !== null && o.actor === mySeat()) {
    q.hidden = false;
    q.textContent = `${seatName(o.turn)} asks: "Partner, may I go out?"`;
  } else if (o.phase === "answer") {
    q.hidden = false;
    q.textContent = `${seatName(o.turn)} asked partner: may I go out? Waiting for the answer.`;
  } else if (o.phase === "pass") {
    // Hand and Foot's hand-passing deal: every pile's top card is turned up; the choices stay hidden
    q.hidden = false;
    const up = o.pass_shown.map((p, s) => `${seatName(s)} ${p.join(" / ")}`).join(", ");
    const who = o.actor === mySeat() ? "Keep one pile as your foot; the other goes to the player on your left"
      : `Waiting for ${seatName(o.actor)} to keep a foot`;
    q.textContent = `Turned up (pile 1 / pile 2): ${up}. ${who}.`;
  } else if (o.permission !== null && o.permission !== undefined && o.turn === mySeat()) {
    q.hidden = false;
    q.textContent = o.permission ? "Your partner said yes: you must go out." : "Your partner said no: you may not go out this turn.";
  } else {
    q.hidden = true;
  }
}

function renderPanel() {
  const o = state.obs;
  const log = $("log");
  log.innerHTML = "";
  for (const e of events.slice(-300)) {
    const li = document.createElement("li");
    li.textContent = `${seatName(e.seat)}: ${e.action}`;
    li.dataset.seq = String(e.seq);
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
  const sides = o.scores.length;
  const names = [...Array(sides).keys()].map(sideName);
  let html = `<table class="scores"><thead><tr><th>Hand</th>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join("")}</tr></thead><tbody>`;
  for (const r of o.hand_results) {
    html += `<tr><td>${r.hand}</td>${r.sides.map((s, k) => `<td>${s.total > 0 ? "+" : ""}${s.total}<br><strong>${r.totals[k]}</strong></td>`).join("")}</tr>`;
  }
  html += `</tbody><tfoot><tr><th>Total</th>${o.scores.map((s) => `<th>${s}</th>`).join("")}</tr></tfoot></table>`;
  $("score-table").innerHTML = html;
  const chart = $("chart");
  chart.innerHTML = "";
  if (o.hand_results.length) {
    const series = [...Array(sides).keys()].map((k) => o.hand_results.map((r) => r.totals[k]));
    chart.append(scoreChart(series, names));
  }
  renderInvites();
}

function renderInvites() {
  const box = $("invites");
  const invites = JSON.parse(localStorage.getItem(`canasta.invites.${gameId}`) || "{}");
  const open = Object.entries(invites).filter(([seat]) => state.seats[Number(seat)] && state.seats[Number(seat)].invite_open);
  if (!open.length) { box.innerHTML = ""; return; }
  box.innerHTML = "<h2>Invite friends</h2>" + open.map(([seat, link]) =>
    `<p>Seat ${Number(seat) + 1}: <input readonly class="invite-link" value="${escapeHtml(location.origin + link)}"></p>`).join("");
}

function renderTools() {
  const box = $("seat-tools");
  const me = mySeat();
  const actor = state.obs.actor;
  const reclaim = me !== null && state.seats[me].kind === "computer";
  const away = me !== null && actor !== null && actor !== me && state.seats[actor].kind === "human" && idleLimit !== null
    && !autoTakeover && Date.now() - lastChange > idleLimit * 1000;
  // redrawn only when what it shows changes: a button replaced on every update could not be clicked
  const key = `${reclaim}/${away ? actor : ""}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.innerHTML = "";
  if (reclaim) {
    const note = document.createElement("p");
    note.textContent = "The computer is playing your seat (it was idle too long).";
    box.append(note);
    const b = document.createElement("button");
    b.id = "reclaim-btn";
    b.textContent = "Take my seat back from the computer";
    b.addEventListener("click", () => send({ type: "reclaim" }));
    box.append(b);
  }
  if (away) {
    const b = document.createElement("button");
    b.textContent = `${seatName(actor)} is away: let the computer play for them`;
    b.addEventListener("click", () => send({ type: "takeover", seat: actor }));
    box.append(b);
  }
}

function showHint(m) {
  const a = parseActionText(m.action);
  const used = new Set();
  const indices = [];
  for (const c of a.cards) {
    let i = hand.findIndex((h, k) => !used.has(k) && h === c);
    if (i < 0) i = hand.findIndex((h, k) => !used.has(k) && kindOf(h) === kindOf(c));
    if (i >= 0) { used.add(i); indices.push(i); }
  }
  hinted = { action: m.action, indices, version: m.version };
  document.body.dataset.hint = m.action;
  document.body.dataset.hintVersion = String(m.version);
  showMessage(`Hint: ${actionLabel(m.action)}. ${m.reason}`, "hint");
  renderHand();
  renderActions();
}

function showSheet(result) {
  const names = result.sides.map((_, k) => sideName(k));
  const keys = [];
  for (const s of result.sides) for (const k of Object.keys(s.items)) if (!keys.includes(k)) keys.push(k);
  let html = `<h2>End of hand ${result.hand}</h2>`;
  html += result.went_out === null ? "<p>Nobody went out.</p>"
    : `<p>${escapeHtml(seatName(result.went_out))} went out${result.concealed ? " concealed" : ""}.</p>`;
  html += `<table class="scores sheet-table"><thead><tr><th></th>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join("")}</tr></thead><tbody>`;
  for (const k of keys) html += `<tr><td>${escapeHtml(itemLabel(k))}</td>${result.sides.map((s) => `<td>${s.items[k] ?? 0}</td>`).join("")}</tr>`;
  html += `<tr class="total"><td>This hand</td>${result.sides.map((s) => `<td>${s.total}</td>`).join("")}</tr>`;
  if (result.sides.some((s) => s.naturals !== undefined)) {  // Mille: asterisks and chapeaux
    html += `<tr><td>Naturals</td>${result.sides.map((s) => `<td>${"*".repeat(s.naturals || 0) || "-"}</td>`).join("")}</tr>`;
    html += `<tr><td>Chapeau</td>${result.sides.map((s) => `<td>${s.chapeau ? "yes" : "-"}</td>`).join("")}</tr>`;
  }
  html += `<tr class="total"><td>Game</td>${result.totals.map((t) => `<td>${t}</td>`).join("")}</tr></tbody></table>`;
  const st = state && state.obs.settlement;
  if (st && result === state.obs.hand_results[state.obs.hand_results.length - 1]) {
    const skunk = st.skunk === "double_skunk" ? "double skunk (payment tripled)" : st.skunk === "skunk" ? "skunk (payment doubled)" : "no skunk";
    html += `<p>${escapeHtml(sideName(st.winner))} wins: ${st.winner_naturals} natural(s), `
      + `${escapeHtml(sideName(st.loser))} ${st.loser_chapeaux} chapeau(x), ${st.hundreds} hundred(s) apart, ${skunk}.`
      + (st.payment !== null ? ` ${escapeHtml(sideName(st.loser))} pays ${st.payment}.` : "") + "</p>";
  }
  $("sheet-body").innerHTML = html;
  const dialog = $("sheet");
  if (!dialog.open) dialog.showModal();
}

// ------------------------------------------------------------------ wiring
function wire() {
  $("hint-btn").addEventListener("click", () => send({ type: "hint" }));
  $("panel-btn").addEventListener("click", () => document.body.classList.toggle("panel-open"));
  $("stock").addEventListener("click", () => { if (state && state.legal.includes("draw")) sendAction("draw"); });
  $("pile").addEventListener("click", attemptPile);
  $("melds-us").addEventListener("dblclick", attemptMeld);
  setInterval(() => { if (state) renderTools(); }, 1000);
}

wire();
joinByInvite().finally(connect);
