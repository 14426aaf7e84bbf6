// The card table: one WebSocket, every message built by the server from observation(seat).
import {
  cardElement, cardName, cardsCovered, cardWords, escapeHtml, isWild, itemLabel, kindOf, parseActionText, parseCard, plural,
  sameKinds, scoreChart, sortCards,
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
let sentAt = null;           // the version an action was sent at: one action per version (no double sends)
let lastActor;   // for announcing turn changes
let noticeTurns = 0;         // turns begun since the notice (a foot picked up) was shown: it goes after two
let lastPublic = null;       // the previous observation, to announce what changed (a foot, a pozzetto)
let handOrder = localStorage.getItem("canasta.handOrder") || "rank";  // "rank", "suit" or "custom"
let customOrder = [];        // the hand as the player arranged it by drag ("custom")
let justDrawn = [];          // cards that came into the hand with the last change: marked until the next
let arriving = false;        // they have not been drawn on screen yet: animate them once
const takenPiles = new Map(); // seq of a "take" event → the pile it took (as the page last saw it)
let meldSizes = new Map();   // "side/meld key" → cards, as last seen
let freshMelds = new Set();  // melds the others changed since our last move: marked on the table

// ------------------------------------------------------------------ connection
async function joinByInvite() {
  const params = new URLSearchParams(location.search);
  const invite = params.get("invite");
  if (!invite) return;
  const seat = Number(params.get("seat"));
  if (!auth && await inviteUsed(seat)) {  // say so before asking a name the seat cannot take
    showMessage("This invite has already been used: you are watching the table.", "error");
    history.replaceState(null, "", `/table/${encodeURIComponent(gameId)}`);
    return;
  }
  const name = localStorage.getItem("canasta.name") || await askName();
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

/** Whether the invite to ``seat`` was already taken (the server still refuses a used one at join). */
async function inviteUsed(seat) {
  const r = await fetch(`/api/games/${encodeURIComponent(gameId)}`);
  if (!r.ok) return false;
  const seats = (await r.json()).seats || [];
  return Boolean(seats[seat]) && !seats[seat].invite_open;
}

/** An invited friend says who they are before taking the seat (kept for the next table). */
function askName() {
  const dialog = $("join");
  return new Promise((resolve) => {
    $("join-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const name = $("join-name").value.trim();
      if (name) localStorage.setItem("canasta.name", name);
      dialog.close();
      resolve(name);
    }, { once: true });
    dialog.showModal();
  });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(gameId)}`);
  ws.onopen = () => {
    backoff = 250;
    ws.send(JSON.stringify({ type: "hello", token: auth ? auth.token : null, since: version >= 0 ? version : 0 }));
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "update") { paceUpdate(m); return; }  // shown at the player's pace, then passed on
    onMessage(m);
    shared(m);
  };
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

/** The table's other parts (extras.js, chat.js) see every message after the table has shown it. */
function shared(m) {
  document.dispatchEvent(new CustomEvent("canasta:message", { detail: m }));
}

// ------------------------------------------------------------------ pace and motion
// The computers answer in milliseconds; a person follows them at the pace chosen here (remembered): each
// update made by another seat is shown for at least PACES[speed] ms before the next. The page never falls
// more than MAX_BEHIND updates behind the server (a reconnect, a long burst): the oldest are then shown at once.
const PACES = { slow: 1300, normal: 700, fast: 0 };
const FLIGHTS = { slow: 500, normal: 400, fast: 300 };  // how long a card takes to travel
const MAX_BEHIND = 8;
let speed = PACES[localStorage.getItem("canasta.speed")] !== undefined ? localStorage.getItem("canasta.speed") : "normal";
const paced = [];            // updates waiting to be shown
let paceTimer = null;

function showUpdate(m) {
  const before = flightSources(m);
  onMessage(m);
  flyCards(before);
  shared(m);
}

/** Another seat's move (or several), not ours and not a fresh start: worth showing at a person's pace. */
function othersMove(m) {
  return state !== null && !m.resync && m.events.length > 0 && m.events.every((e) => e.seat !== mySeat());
}

function paceUpdate(m) {
  if (PACES[speed] === 0 || (!othersMove(m) && !paced.length)) { showUpdate(m); return; }
  paced.push(m);
  while (paced.length > MAX_BEHIND) showUpdate(paced.shift());
  if (paceTimer === null) nextPaced();
}

function nextPaced() {
  const m = paced.shift();
  if (!m) { paceTimer = null; return; }
  showUpdate(m);
  paceTimer = setTimeout(nextPaced, othersMove(m) ? PACES[speed] : 0);
}

function setSpeed(choice) {
  speed = choice;
  localStorage.setItem("canasta.speed", choice);
  if (PACES[speed] === 0) { clearTimeout(paceTimer); paceTimer = null; while (paced.length) showUpdate(paced.shift()); }
}

/** Where each card of the update's new moves comes from, measured before the table changes. */
function flightSources(m) {
  if (!state || m.resync || matchMedia("(prefers-reduced-motion: reduce)").matches) return [];
  const known = events.length ? events[events.length - 1].seq : -1;
  const out = [];
  for (const e of m.events) {
    if (e.seq <= known) continue;
    const [verb, ...words] = e.action.split(" ");
    const mine = e.seat === mySeat();
    const seatBox = () => (mine ? $("hand") : document.querySelector(`.seat[data-seat="${e.seat}"]`));
    const cards = words.filter((w) => w === "JK" || /^(10|[2-9TJQKA])[cdhs]$/.test(w));
    if (verb === "draw") out.push({ from: $("stock"), to: "seat", seat: e.seat, card: "??" });
    else if (verb === "take") out.push({ from: $("pile"), to: "seat", seat: e.seat, card: (state.obs.pile || []).slice(-1)[0] || "??" });
    else if (verb === "discard") out.push({ from: seatBox(), to: "pile", seat: e.seat, card: cards[0] || "??" });
    else if (verb === "meld" || verb === "add") out.push({ from: seatBox(), to: "melds", seat: e.seat, card: cards[0] || "??" });
  }
  return out.map((f) => ({ ...f, rect: f.from ? f.from.getBoundingClientRect() : null })).filter((f) => f.rect);
}

/** Each card travels from where it was to where it went (none when the player asked for reduced motion). */
function flyCards(flights) {
  if (!flights.length) return;
  for (const old of document.querySelectorAll(".card.flying")) old.remove();  // one update's cards at a time
  for (const f of flights.slice(-3)) {
    const mine = f.seat === mySeat();
    const target = f.to === "pile" ? $("pile")
      : f.to === "melds" ? $(sideOf(f.seat) === state.obs.side ? "melds-us" : "melds-them")
      : mine ? $("hand") : document.querySelector(`.seat[data-seat="${f.seat}"]`);
    if (!target) continue;
    const to = target.getBoundingClientRect();
    const card = cardElement(f.card, {});
    card.classList.add("flying");
    card.setAttribute("aria-hidden", "true");
    const x0 = f.rect.left + f.rect.width / 2 - 30;
    const y0 = f.rect.top + f.rect.height / 2 - 42;
    card.style.left = `${x0}px`;
    card.style.top = `${y0}px`;
    document.body.append(card);
    const dx = to.left + to.width / 2 - 30 - x0;
    const dy = to.top + Math.min(to.height / 2, 60) - 42 - y0;
    const flight = card.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
      { duration: FLIGHTS[speed], easing: "ease-in-out" });
    flight.onfinish = () => card.remove();
    flight.oncancel = () => card.remove();
  }
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function sendAction(text) {
  if (!state || sentAt === state.version) return;  // a double click sends once
  showMessage("");
  sentAt = state.version;
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
    showFairness(m.fairness);
    return;
  }
  if (m.type === "update") {
    if (m.resync) events = [];
    for (const e of m.events) {
      if (!events.length || e.seq > events[events.length - 1].seq) {
        // a take right after the position the page saw: the pile it took is the one the page last showed
        if (state && e.seq === state.version + 1 && e.action.startsWith("take")) takenPiles.set(e.seq, state.obs.pile || []);
        events.push(e);
      }
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
    sentAt = null;  // refused: the selection stays as it is, ready for another try
    showMessage(playerWords(m), "error");
    if (state) { renderHand(); renderActions(); }
    return;
  }
  if (m.type === "hint") showHint(m);
  if (m.type === "undone") sentAt = null;  // undo (extras.js): back at a version, a fresh position to act in
}

/** A refusal in the player's words: the rule's id and the citation of the rule text go to the developer's log. */
function playerWords(m) {
  // the seat moved from another tab or window first (or the game moved on): this move was not made
  if (m.code === "stale") {
    console.debug("refused:", m.code, m.message);
    return "Your move was not made: the table moved on first (a move from another tab or window of this seat?). It shows the table as it is now.";
  }
  const cited = /\s*\((?:Bicycle|Denexa|Encyclopedia|Fragment|Terms)\b[^)]*\)/g;
  if (m.rule || cited.test(m.message)) console.debug("refused:", m.rule || "", m.message);
  return m.message.replace(cited, "").replace(/\s*\[[a-z0-9-]+\]$/, "").trim();
}

// Every seat is told when the creator chose the seed (a practice game), and sees the commitment to the
// seed published before the first card; the finished game's record reveals the seed for `canasta replay --verify`.
function showFairness(fairness) {
  let note = $("fairness");
  if (!note) {
    note = document.createElement("span");
    note.id = "fairness";
    $("status").after(note);
  }
  if (!fairness) { note.hidden = true; return; }
  note.hidden = false;
  note.className = fairness.practice ? "fairness practice" : "fairness";
  note.textContent = fairness.practice ? fairness.notice : "fair deal: seed committed";
  note.title = `Commitment (SHA-256 of salt:seed): ${fairness.commitment}. ${fairness.verify}`;
  offerCommitment(note, fairness);  // issue 51 (block at the end of this file)
}

// ------------------------------------------------------------------ helpers
function mySeat() { return state && state.obs.seat !== null ? state.obs.seat : null; }

/** A seat's name, and what sets it apart ("computer", "you"), for labels that show them apart. */
function seatNameParts(seat) {
  const info = state.seats[seat];
  const base = info.name || (info.kind === "computer" ? `Computer (${info.level})` : `Player ${seat + 1}`);
  const tags = [];
  if (info.kind === "computer" && info.name && !/Computer/.test(info.name)) tags.push("computer");
  if (seat === mySeat()) tags.push("you");
  return { base, tags };
}

function seatName(seat) {
  const { base, tags } = seatNameParts(seat);
  return base + tags.map((tag) => ` (${tag})`).join("");
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
  s = tableShown(s);
  const oldHand = hand;
  const sameDeal = state !== null && state.obs.hand_no === s.obs.hand_no;
  state = s;
  hand = arrange(s.obs.hand);
  if (oldHand.join(" ") !== hand.join(" ")) {
    selected = new Set();
    justDrawn = sameDeal ? added(oldHand, hand) : [];  // a new deal is not a draw
    arriving = justDrawn.length > 0;
  }
  if (hinted && hinted.version !== s.version) hinted = null;
  document.body.dataset.version = String(s.version);
  document.body.dataset.myTurn = s.legal.length ? "true" : "false";
  document.body.dataset.phase = s.obs.phase;
  document.body.dataset.actor = s.obs.actor === null ? "" : String(s.obs.actor);
  document.body.dataset.handNo = String(s.obs.hand_no);
  document.body.dataset.results = String(s.obs.hand_results.length);
  document.body.dataset.over = s.obs.winner !== null ? "true" : "false";
  markOthersPlays(s.obs, sameDeal);
  render();
  announceChanges(s.obs);
  if ("pause" in s) { renderFlow(); tickCountdowns(); return; }  // a server that pauses at a hand's end (see renderFlow)
  if (shownResults === null) shownResults = s.obs.hand_results.length;
  if (s.obs.hand_results.length > shownResults) {
    shownResults = s.obs.hand_results.length;
    showSheet(s.obs.hand_results[shownResults - 1]);
  }
}

/** The melds the other seats made or added to since our own last move (on a new deal: none). */
function markOthersPlays(o, sameDeal) {
  const sizes = new Map();
  o.melds.forEach((list, side) => { for (const m of list) sizes.set(`${side}/${m.id !== undefined ? `#${m.id}` : m.rank}`, m.cards.length); });
  const last = events[events.length - 1];
  if (!sameDeal || (last && last.seat === mySeat())) freshMelds = new Set();  // our move, or a new deal: start again
  else for (const [key, n] of sizes) if ((meldSizes.get(key) || 0) !== n) freshMelds.add(key);
  meldSizes = sizes;
}

// ------------------------------------------------------------------ the hand's order
const SUIT_ORDER = "shcd";  // the colours alternate: spades, hearts, clubs, diamonds

/** The hand in the player's chosen order: by rank (the server's), by suit, or as arranged by drag. */
function arrange(cards) {
  if (handOrder === "suit") {
    return [...cards].sort((a, b) => (suitRank(a) - suitRank(b)) || (sortCards([a, b])[0] === a ? -1 : 1));
  }
  // by rank, threes to aces, the wild cards together at the end (the server's order puts 2s first, jokers last)
  if (handOrder === "rank") return sortCards(cards);
  if (handOrder === "custom") {
    // keep the arranged order for the cards still held; new cards go to the end
    const left = [...cards];
    const out = [];
    for (const c of customOrder) {
      const k = left.indexOf(c);
      if (k >= 0) { out.push(c); left.splice(k, 1); }
    }
    customOrder = out.concat(left);
    return [...customOrder];
  }
  return [...cards];
}

function suitRank(card) {
  const { suit } = parseCard(card);
  return suit === null ? 9 : (isWild(card) ? 8 : SUIT_ORDER.indexOf(suit));  // wild cards last, together
}

/** The cards of `now` that `before` did not hold (as multisets). */
function added(before, now) {
  const left = [...before];
  const out = [];
  for (const c of now) {
    const k = left.indexOf(c);
    if (k >= 0) left.splice(k, 1); else out.push(c);
  }
  return out;
}

function setHandOrder(order, arranged = null) {
  if (order === "custom") customOrder = arranged || [...hand];
  handOrder = order;
  localStorage.setItem("canasta.handOrder", order);
  if (!state) return;
  const chosen = selectedCards();
  hand = arrange(state.obs.hand);
  // the same cards stay selected in the new order
  selected = new Set();
  const used = new Set();
  for (const c of chosen) {
    const i = hand.findIndex((h, k) => h === c && !used.has(k));
    if (i >= 0) { used.add(i); selected.add(i); }
  }
  renderHand();
  renderActions();
  renderSortButtons();
}

function renderSortButtons() {
  for (const b of document.querySelectorAll("[data-order]")) b.setAttribute("aria-pressed", String(b.dataset.order === handOrder));
}

/** The last hand's result in a sentence, for the live region: who went out, each side's points. */
function handResultWords(o) {
  const r = o.hand_results[o.hand_results.length - 1];
  if (!r) return "";
  const out = r.went_out === null ? "Nobody went out." : `${seatName(r.went_out)} went out.`;
  const sides = r.sides.map((side, k) => `${sideName(k)}: ${side.total} this hand, ${r.totals[k]} in all.`);
  return `${out} ${sides.join(" ")}`;
}

/** Say what changed for screen readers (and the pick-ups of a foot or a pozzetto for everyone). */
function announceChanges(o) {
  const said = [];
  const prev = lastPublic;
  if (prev && prev.hand_no === o.hand_no) {
    for (let seat = 0; seat < o.players; seat++) {
      if (o.in_foot && o.in_foot[seat] && !prev.in_foot[seat]) said.push(`${seatName(seat)} picked up the foot.`);
      if (o.in_knee && o.in_knee[seat] && !prev.in_knee[seat]) said.push(`${seatName(seat)} picked up the knee.`);
    }
    if (o.variant === "burraco" && o.piles_taken) {
      o.piles_taken.forEach((n, side) => {
        if (n > prev.piles_taken[side]) said.push(side === o.side ? "Your side took its pozzetto." : `${sideName(side)} took a pozzetto.`);
      });
    }
  }
  if (said.length) showNotice(said.join(" "));
  else if (o.actor !== lastActor && !$("notice").hidden && ++noticeTurns >= 2) $("notice").hidden = true;
  lastPublic = { hand_no: o.hand_no, in_foot: o.in_foot ? [...o.in_foot] : null, in_knee: o.in_knee ? [...o.in_knee] : null,
    piles_taken: o.piles_taken ? [...o.piles_taken] : null };
  if (o.actor !== lastActor) {
    lastActor = o.actor;
    said.push(o.winner !== null ? `Game over: ${sideName(o.winner)} won. ${handResultWords(o)}`
      : o.hand_over ? `Hand ${o.hand_no} is over. ${handResultWords(o)}` : o.actor === mySeat() ? "Your turn." : `${seatName(o.actor)} to play.`);
  }
  if (said.length) $("announce").textContent = said.join(" ");
}

function showNotice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = false;
  noticeTurns = 0;
}

function render() {
  const o = state.obs;
  const me = mySeat();
  const actor = o.actor;
  if (o.winner !== null) setStatus(`Game over: ${sideName(o.winner)} won`);
  else if (o.hand_over) setStatus(`Hand ${o.hand_no} is over`);  // the finished table, at a hand's end
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
  renderGuide();
}

// A first-game guide for Classic: the steps of one turn, the current one marked; dismissed once for good.
const GUIDE_KEY = "canasta.guide.classic";
function renderGuide() {
  const box = $("guide");
  const o = state.obs;
  const show = o.variant === "classic" && mySeat() !== null && o.winner === null && !o.hand_over && !localStorage.getItem(GUIDE_KEY);
  box.hidden = !show;
  if (!show) return;
  const mine = o.actor === mySeat();
  const step = !mine ? "wait" : o.phase === "draw" ? "draw" : "play";
  for (const li of box.querySelectorAll("[data-step]")) li.classList.toggle("now", li.dataset.step === step);
  $("guide-min").textContent = String(o.minimum[o.side]);
}

function positions() {
  const n = state.obs.players;
  const base = mySeat() === null ? 0 : mySeat();
  const rel = (k) => (base + k) % n;
  if (n === 4) return { bottom: rel(0), left: rel(1), top: rel(2), right: rel(3) };
  if (n === 3) return { bottom: rel(0), left: rel(1), right: rel(2) };
  if (n > 4) {
    // six or eight players: one on each side, the rest across the top (in the order of play)
    return { bottom: rel(0), left: rel(1), right: rel(n - 1), top: [...Array(n - 3).keys()].map((k) => rel(k + 2)) };
  }
  return { bottom: rel(0), top: rel(1) };
}

function renderSeats() {
  const pos = positions();
  for (const where of ["top", "left", "right", "bottom"]) {
    const box = $(`seat-${where}`);
    const seat = pos[where];
    box.innerHTML = "";
    box.classList.remove("seats-row");
    if (seat === undefined) { box.hidden = true; continue; }
    box.hidden = false;
    if (Array.isArray(seat)) {  // several seats in a row, each a seat of its own
      box.classList.add("seats-row");
      delete box.dataset.seat;
      box.classList.remove("acting");
      for (const one of seat) {
        const sub = document.createElement("div");
        sub.className = "seat seat-sub";
        fillSeat(sub, one, where);
        box.append(sub);
      }
      continue;
    }
    fillSeat(box, seat, where);
  }
}

/** One seat's label (name, cards, number, marks) and the backs of its cards, in `box`. */
function fillSeat(box, seat, where) {
  const o = state.obs;
  box.dataset.seat = String(seat);
  box.classList.toggle("acting", o.actor === seat);
  const info = state.seats[seat];
  const label = document.createElement("div");
  label.className = "seat-label";
  const name = document.createElement("strong");
  // each tag in one piece: a narrow side column (phones) would otherwise break "(computer" from ")"
  const parts = seatNameParts(seat);
  name.append(parts.base);
  for (const tag of parts.tags) {
    const kind = document.createElement("span");
    kind.className = "seat-kind";
    kind.textContent = `(${tag})`;
    name.append(" ", kind);
  }
  const count = o.hand_sizes[seat];
  const counted = document.createElement("span");
  counted.className = "count";
  counted.dataset.count = String(count);
  counted.textContent = plural(count, "card");
  label.append(name, " ", counted);
  for (const extra of seatFlowExtras(seat)) label.append(" ", extra);
  for (const extra of seatExtras(seat)) {
    const span = document.createElement("span");
    span.className = "seat-extra";
    span.textContent = extra;
    label.append(" ", span);
  }
  if (info.kind === "human" && !info.claimed) label.insertAdjacentHTML("beforeend", " <em>(waiting for a friend)</em>");
  box.append(label);
  if (where !== "bottom" || mySeat() === null) {
    const fan = document.createElement("div");
    fan.className = "backs";
    fan.setAttribute("aria-hidden", "true");  // the count above says it
    for (let i = 0; i < Math.min(count, 8); i++) fan.append(cardElement("??", { small: true }));
    box.append(fan);
  }
}

/** What lies face down in front of a seat, in its variant's words: a foot, a knee, a pozzetto. */
function seatExtras(seat) {
  const o = state.obs;
  const out = [];
  if (o.foot_sizes !== undefined) {
    if (o.knee_sizes !== undefined) {
      if (o.in_knee && o.in_knee[seat]) out.push("playing the knee");
      else if (o.knee_sizes[seat]) out.push(`knee ${o.knee_sizes[seat]}`);
    }
    if (o.in_foot[seat]) out.push("playing the foot");
    else {
      // the hand-passing deal: a foot's turned-up top card stays in sight
      const top = o.foot_shown && o.foot_shown[seat] ? ` (top ${cardName(o.foot_shown[seat])})` : "";
      out.push(`foot ${o.foot_sizes[seat]}${top}`);
    }
  }
  if (o.variant === "burraco" && o.face_down && o.face_down[seat]) out.push(`pozzetto ${o.face_down[seat]} face down`);
  return out;
}

const WILD_RANKS = ["wild", "2", "JK"];

/** A finished meld's name in the variant's own words. */
function closedName(meld) {
  const v = state.obs.variant;
  if (v === "burraco") return `${meld.natural ? "clean" : "dirty"} burraco`;
  if (meld.kind === "run") return "samba";  // the Samba family: a seven-card escalera
  if (WILD_RANKS.includes(meld.rank)) return ["bolivian", "brazilian", "chilean"].includes(v) ? "bolivia" : "wild canasta";
  return `${meld.natural ? "natural" : "mixed"} canasta`;
}

/** An open meld's name, for screen readers and the title tooltip. */
function meldName(meld) {
  const id = meld.id !== undefined ? `meld #${meld.id}: ` : "";
  if (meld.kind === "run") return `${id}${state.obs.variant === "burraco" ? "run" : "escalera"} of ${meld.suit}`;
  return `${id}${WILD_RANKS.includes(meld.rank) ? "wild cards" : `${meld.rank}s`}`;
}

function closedPile(top, natural, badgeText) {
  const frag = document.createDocumentFragment();
  const card = cardElement(top, { small: true });
  card.classList.add(natural ? "closed-natural" : "closed-mixed");
  frag.append(card);
  const badge = document.createElement("span");
  badge.className = "badge " + (natural ? "natural" : "mixed");
  badge.textContent = badgeText;
  // a phone shows the short form ("dirty 7"): a completed pile is a compact badge, not a row of its own
  badge.dataset.short = badgeText.replace(/^(\S+)\s.*·\s*(\d+)$/, "$1 $2");
  frag.append(badge);
  return frag;
}

function meldElement(meld, side) {
  const div = document.createElement("div");
  div.className = "meld" + (meld.canasta ? " canasta" : "");
  // Variants with meld ids (Samba, Burraco): buttons and the log name a meld "#id"; a run keeps its order.
  const byId = meld.id !== undefined;
  div.dataset.rank = byId ? `#${meld.id}` : meld.rank;
  div.dataset.side = String(side);
  if (freshMelds.has(`${side}/${div.dataset.rank}`)) div.classList.add("fresh");  // played by another seat lately
  div.title = meldName(meld);
  if (byId) {
    const num = document.createElement("span");
    num.className = "meld-id";
    num.textContent = `#${meld.id}`;
    div.append(num);
  }
  const cards = byId && meld.kind === "run" ? [...meld.cards] : sortCards(meld.cards);
  if (meld.canasta) {
    // A closed canasta: squared up, a red card on top when natural, a black one when mixed.
    const naturals = cards.filter((c) => !["2", "JK"].includes(parseCard(c).rank));
    const want = meld.natural ? ["h", "d"] : ["s", "c"];
    let top = naturals.find((c) => want.includes(parseCard(c).suit));
    if (!top) top = byId ? (naturals[0] || cards[0]) : (meld.rank === "wild" ? "JK" : `${meld.rank}${want[0]}`);
    div.append(closedPile(top, meld.natural, `${closedName(meld)} · ${cards.length}`));
  } else {
    for (const c of cards) div.append(cardElement(c, { small: true }));
  }
  if (side === state.obs.side) {
    // one of our melds: click, Enter or a drop adds the selected cards to it
    div.setAttribute("role", "button");
    div.tabIndex = 0;
    div.setAttribute("aria-label", `${meldName(meld)}, ${plural(cards.length, "card")}: add the selected cards`);
    div.addEventListener("click", () => attemptAdd(div.dataset.rank));
    div.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); attemptAdd(div.dataset.rank); } });
    div.classList.add("drop-target");
  } else {
    // the others' melds are named as melds for screen readers, not read as a run of loose cards
    div.setAttribute("role", "group");
    const what = meld.canasta ? closedName(meld) : meldName(meld);
    div.setAttribute("aria-label", `${sideName(side)}: ${what}, ${plural(cards.length, "card")}`);
  }
  return div;
}

/** Hand and Foot's completed piles (books), each squared up with its kind. */
function bookElement(book) {
  const div = document.createElement("div");
  div.className = `meld canasta book book-${book.kind}`;
  div.dataset.book = book.kind;
  const words = state.obs.knee_sizes !== undefined
    ? { clean: "natural canasta", dirty: "mixed canasta", wild: "wild canasta" }
    : { clean: "clean pile", dirty: "dirty pile", wild: "wild pile" };
  const naturals = book.cards.filter((c) => !isWild(c));
  const top = book.kind === "wild" ? (book.cards.find((c) => c === "JK") || book.cards[0])
    : (naturals.find((c) => (book.kind === "clean") === /[hd]$/.test(c)) || naturals[0] || book.cards[0]);
  div.append(closedPile(top, book.kind === "clean", `${words[book.kind] || book.kind} · ${book.cards.length}`));
  return div;
}

function renderMelds() {
  const o = state.obs;
  const mine = o.side === null ? 0 : o.side;
  const sides = [...Array(o.melds.length).keys()];
  const them = sides.filter((s) => s !== mine);
  const actingSide = o.turn === null || o.turn === undefined ? null : sideOf(o.turn);
  const fill = (box, list) => {
    box.innerHTML = "";
    for (const side of list) {
      const row = document.createElement("div");
      row.className = "meld-row";
      row.dataset.side = String(side);
      const head = document.createElement("div");
      head.className = "meld-head";
      const min = o.minimum[side];
      const name = document.createElement("strong");
      name.textContent = sideName(side);
      // Mille has no initial meld minimum (0): only the name is shown
      const parts = [];
      // at a hand's end the minimum shown would be the next hand's (it follows the new scores): left out
      if (min > 0 && !o.hand_over) parts.push(`minimum ${min}`);
      if (o.opened[side] && min > 0) parts.push("opened");
      // the points melded so far this turn belong to the side whose turn it is
      if (side === actingSide && o.pending_value && o.winner === null) parts.push(`this turn ${o.pending_value}`);
      if (o.books !== undefined) {
        // Hand and Foot: closed piles by kind, against what going out needs
        const n = (k) => o.books[side].filter((b) => b.kind === k).length;
        const need = o.books_needed;
        parts.push(o.knee_sizes !== undefined
          ? `canastas: ${n("clean")} natural, ${n("dirty")} mixed, ${n("wild")} wild${o.books_ready[side] ? " · basic book made" : ""}`
          : `piles: ${n("clean")}/${need.clean} clean, ${n("dirty")}/${need.dirty} dirty, ${n("wild")}/${need.wild} wild`);
      }
      head.append(name, parts.length ? ` · ${parts.join(" · ")}` : "");
      row.append(head);
      const threes = document.createElement("div");
      threes.className = "red-threes";
      for (const c of o.red_threes[side]) threes.append(cardElement(c, { small: true }));
      row.append(threes);
      const melds = document.createElement("div");
      melds.className = "meld-list";
      if (o.books !== undefined) for (const b of o.books[side]) melds.append(bookElement(b));
      for (const m of o.melds[side]) melds.append(meldElement(m, side));
      row.append(melds);
      box.append(row);
    }
  };
  fill($("melds-them"), them);
  fill($("melds-us"), [mine]);
}

function caption(text, cls = "pile-caption") {
  const div = document.createElement("div");
  div.className = cls;
  div.textContent = text;
  return div;
}

function renderPiles() {
  const o = state.obs;
  const stock = $("stock");
  stock.innerHTML = "";
  stock.append(cardElement("??", { label: o.stock_size }));
  stock.append(caption(`stock ${o.stock_size}`));
  if (o.variant === "burraco" && o.extra_piles !== undefined) {
    // Burraco: the pozzetti still in the centre, by size only
    stock.append(caption(`${plural(o.extra_piles.length, "pozzetto", "pozzetti")} left`));
  }
  const canDraw = state.legal.includes("draw");
  stock.classList.toggle("can", canDraw);
  stock.setAttribute("aria-label", `stock, ${plural(o.stock_size, "card")}` + (canDraw ? ": draw" : ""));
  const pile = $("pile");
  pile.innerHTML = "";
  pile.classList.toggle("frozen", !!o.frozen);
  if (o.pile_top) pile.append(pileFan(o));
  else pile.insertAdjacentHTML("beforeend", `<div class="empty-pile">empty</div>`);
  pile.append(caption(`pile ${o.pile_size}`));
  if (o.frozen) pile.append(caption("frozen", "pile-caption frozen-caption"));
  const takes = state.legal.filter((t) => t.startsWith("take"));
  pile.classList.toggle("can", takes.length > 0);
  pile.setAttribute("aria-label", `discard pile, ${plural(o.pile_size, "card")}`
    + (o.pile_top ? `, top ${cardName(o.pile_top)}` : "") + (o.frozen ? ", frozen" : ""));
  const info = $("table-info");
  info.textContent = `Hand ${o.hand_no} · dealer ${seatName(o.dealer)}`;
}

/** The pile's top card, with the edges of the cards under it. */
function pileFan(o) {
  const fan = document.createElement("div");
  fan.className = "pile-fan";
  const under = o.pile.slice(Math.max(0, o.pile.length - 4), -1);
  for (const c of under) {
    const card = cardElement(c, { small: true });
    card.classList.add("under");
    fan.append(card);
  }
  fan.append(cardElement(o.pile_top));
  return fan;
}

function renderHand() {
  const box = $("hand");
  // a card toggled from the keyboard keeps the focus when the hand is redrawn
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.index : null;
  box.innerHTML = "";
  const me = mySeat();
  document.querySelector(".hand-tools").hidden = me === null;  // a spectator has no hand to sort
  if (me === null) { box.innerHTML = `<p class="spectator">You are watching: only face-up cards are shown.</p>`; return; }
  const playable = playableIndices();
  // group by rank, the groups in the sorted order of the hand
  let group = null;
  let lastKind = null;
  const fresh = [...justDrawn];
  hand.forEach((c, i) => {
    // groups: a rank (by rank), a suit (by suit), or none (arranged by hand: each card apart)
    const kind = handOrder === "suit" ? String(suitRank(c)) : handOrder === "custom" ? String(i)
      : (kindOf(c) === "3r" || kindOf(c) === "3b" ? "3" : kindOf(c));
    if (kind !== lastKind) {
      group = document.createElement("div");
      group.className = "group";
      group.dataset.kind = kind;
      box.append(group);
      lastKind = kind;
    }
    const card = cardElement(c);
    card.dataset.index = String(i);
    card.tabIndex = i === Math.min(handCursor, hand.length - 1) ? 0 : -1;  // one tab stop: arrows move within
    card.setAttribute("role", "button");
    card.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
    card.setAttribute("aria-label", cardWords(c) + (playable.has(i) ? ", playable" : ""));
    card.classList.toggle("selected", selected.has(i));
    card.classList.toggle("playable", playable.has(i));
    card.classList.toggle("hinted", !!hinted && hinted.indices.includes(i));
    const f = fresh.indexOf(c);
    if (f >= 0) {
      fresh.splice(f, 1);
      card.classList.add("just-drawn");
      if (arriving) card.classList.add("arriving");
      card.setAttribute("aria-label", card.getAttribute("aria-label") + ", just drawn");
    }
    card.addEventListener("click", () => toggle(i));
    card.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(i); } });
    card.addEventListener("focus", () => { handCursor = i; });
    card.addEventListener("pointerdown", (e) => pressCard(e, i));
    group.append(card);
  });
  arriving = false;
  if (focused !== null && focused !== undefined) {
    const again = box.querySelector(`.card[data-index="${focused}"]`);
    if (again) again.focus();
  }
}

/** Cards of the hand that some legal action with cards uses now (meld, add, take, discard excepted). */
function playableIndices() {
  const out = new Set();
  if (!state || !state.legal.length) return out;
  const exact = new Set();  // cards of runs: the suit matters
  const kinds = new Set();  // cards of sets: only the kind does
  for (const text of state.legal) {
    const a = parseActionText(text);
    if (a.verb === "discard" || !a.cards.length) continue;
    const run = isRunAction(a);
    for (const c of a.cards) (run ? exact : kinds).add(run ? c : kindOf(c));
  }
  hand.forEach((c, i) => { if (exact.has(c) || kinds.has(kindOf(c))) out.add(i); });
  return out;
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
  return el.closest("#melds-us .meld.drop-target") || el.closest("#pile") || el.closest("#melds-us")
    || el.closest("#hand .card") || el.closest("#hand");
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
  else if (target && (target.id === "hand" || target.closest("#hand"))) moveInHand(d.index, target.dataset.index);
  else if (target) attemptMeld();
  renderHand();
  renderActions();
}

window.addEventListener("pointermove", moveDrag, { passive: false });
window.addEventListener("pointerup", endDrag);
window.addEventListener("pointercancel", endDrag);
window.addEventListener("click", (e) => { if (swallowClick) { e.stopPropagation(); e.preventDefault(); swallowClick = false; } }, true);

/** A card dropped on the hand: it goes before the card it was dropped on (or to the end). */
function moveInHand(from, before) {
  if (before !== undefined && Number(before) === from) return;  // dropped where it was
  const order = [...hand];
  const [card] = order.splice(from, 1);
  let at = before === undefined ? order.length : Number(before);
  if (before !== undefined && Number(before) > from) at -= 1;
  order.splice(at, 0, card);
  selected = new Set();
  setHandOrder("custom", order);
}

// ------------------------------------------------------------------ the keyboard
// The hand is one tab stop: arrows move within it, a rank's key (2-9, 0 for ten, J Q K A, W for a joker)
// selects the next card of that rank; D draws, P plays on the pile (take or discard), M melds, X discards,
// Esc clears the selection (the legend under the hand says so).
let handCursor = 0;
const RANK_KEYS = { 0: "10", t: "10", j: "J", q: "Q", k: "K", a: "A", w: "JK" };

function focusCard(i) {
  const cards = [...document.querySelectorAll("#hand .card")];
  if (!cards.length) return;
  handCursor = Math.max(0, Math.min(i, cards.length - 1));
  for (const c of cards) c.tabIndex = Number(c.dataset.index) === handCursor ? 0 : -1;
  const card = cards.find((c) => Number(c.dataset.index) === handCursor);
  if (card) card.focus();
}

/** The next card of a rank: selected (and focused); when every one of them is selected, all are let go. */
function selectByRank(rank) {
  const of = hand.map((c, i) => [c, i]).filter(([c]) => parseCard(c).rank === rank).map(([, i]) => i);
  if (!of.length) { showMessage(`No ${rank === "JK" ? "joker" : rank} in your hand.`, "error"); return; }
  const next = of.find((i) => !selected.has(i));
  if (next === undefined) for (const i of of) selected.delete(i);
  else selected.add(next);
  renderHand();
  renderActions();
  focusCard(next === undefined ? of[0] : next);
}

function onHandKey(e) {
  const at = Number(document.activeElement.dataset.index);
  const moves = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: hand.length - 1 };
  if (e.key in moves) { e.preventDefault(); focusCard(moves[e.key]); return; }
  const key = e.key.toLowerCase();
  const rank = RANK_KEYS[key] || (/^[2-9]$/.test(key) ? key : null);
  if (rank && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); selectByRank(rank); }
}

/** D, P, M, X and Esc anywhere on the table (not while typing, e.g. in the chat). */
function onShortcut(e) {
  const typing = e.target instanceof HTMLElement && e.target.closest("input, textarea, select, [contenteditable]");
  if (typing || e.ctrlKey || e.metaKey || e.altKey || !state) return;
  const key = e.key.toLowerCase();
  if (key === "escape" && selected.size) { selected = new Set(); renderHand(); renderActions(); return; }
  const act = { d: () => (state.legal.includes("draw") ? sendAction("draw") : notYourMove()), p: attemptPile,
    m: attemptMeld, x: discardSelected }[key];
  if (act) { e.preventDefault(); act(); }
}

function discardSelected() {
  const sel = selectedCards();
  if (sel.length !== 1 || !state.legal.some((t) => t.startsWith("discard"))) {
    showMessage(state.legal.length ? "Select one card to discard." : notYourMoveText(), "error");
    return;
  }
  sendAction(`discard ${sel[0]}`);
}

function notYourMoveText() {
  const o = state.obs;
  if (mySeat() === null) return "You are watching this table.";
  if (o.winner !== null || o.hand_over) return "The hand is over.";
  return o.actor === mySeat() ? "That is not a move you can make now." : `Not your turn: ${seatName(o.actor)} is playing.`;
}

function notYourMove() { showMessage(notYourMoveText(), "error"); }

function toggle(i) {
  if (selected.has(i)) selected.delete(i); else selected.add(i);
  renderHand();
  renderActions();
}

function selectedCards() { return [...selected].sort((a, b) => a - b).map((i) => hand[i]); }

const RUN_VARIANTS = ["burraco", "samba", "bolivian", "brazilian", "chilean", "italian"];
function hasRuns() { return RUN_VARIANTS.includes(state.obs.variant); }

/** A meld's cards are a set when their natural cards share one rank (a run's do not). */
function isSet(cards) {
  const naturals = cards.filter((c) => !isWild(c));
  return naturals.every((c) => kindOf(c) === kindOf(naturals[0]));
}

/** Whether a legal action plays a run (suits matter) rather than a set (only ranks do). */
function isRunAction(a) {
  if (!hasRuns()) return false;
  if (a.target && a.target.startsWith("#")) {
    const meld = state.obs.melds.flat().find((m) => `#${m.id}` === a.target);
    return !!meld && meld.kind === "run";
  }
  return !isSet(a.cards);
}

/**
 * Whether the selection is the legal action's cards with more of the same meld: every natural card of the
 * same rank (a set) or the same suit (a run); wild cards are left to the engine, which answers if it refuses.
 */
function extendsMeld(a, run, sel) {
  const naturals = a.cards.filter((c) => !isWild(c));
  const extra = sel.filter((c) => !isWild(c));
  if (!naturals.length) return !extra.length;
  if (!run) return extra.every((c) => kindOf(c) === kindOf(naturals[0]));
  const suit = parseCard(naturals[0]).suit;
  return extra.every((c) => parseCard(c).suit === suit);
}

const VERB_LABEL = {
  draw: () => "Draw from the stock",
  ask: () => "Ask partner: may I go out?",
  yes: () => "Yes, go out",
  no: () => "No, not yet",
  retract: () => "Take back the meld",
  end: () => "Decline the pile (ends the hand)",
};

function meldTarget(target) {
  if (target === "W") return "the wild meld";
  if (target.startsWith("#")) return `meld ${target}`;
  return `the ${target}s`;
}

/** A button's words for an action text; `cards` are the cards it sends (the selection), if not the text's own. */
function actionLabel(text, cards = null) {
  const a = parseActionText(text);
  if (VERB_LABEL[a.verb]) return VERB_LABEL[a.verb]();
  const shown = (cards || a.cards).map(cardName).join(" ");
  if (a.verb === "merge") return `Combine melds ${a.target.replace(" ", " and ")} into one`;
  if (a.verb === "special") return `Lay down the whole hand: ${a.target} (special hand)`;
  if (a.verb === "keep") {
    const up = state.obs.pass_shown ? state.obs.pass_shown[mySeat()] : null;
    const top = up ? ` (${cardName(up[Number(a.target) - 1])} turned up)` : "";
    return `Keep pile ${a.target}${top} as your foot, pass the other left`;
  }
  if (a.verb === "take" && a.target) return `Take the pile: its top card onto ${meldTarget(a.target)}`;
  if (a.verb === "take") return (cards || a.cards).length ? `Take the pile with ${shown}` : "Take the pile";
  if (a.verb === "meld") {
    const all = cards || a.cards;
    // threes laid out (a red three, or any three in Modern American) are not a meld
    const laidOut = state.obs.variant === "american" ? all.every((c) => parseCard(c).rank === "3")
      : state.obs.variant !== "burraco" && all.every((c) => kindOf(c) === "3r");
    return laidOut ? `Lay down ${shown}` : `Meld ${shown}`;
  }
  if (a.verb === "add") return `Add ${shown} to ${meldTarget(a.target)}`;
  if (a.verb === "discard") return `Discard ${shown}`;
  return text;
}

/**
 * The actions to offer for the current selection: [{legal, send, cards}]. The server lists one action per
 * way to play (the smallest meld, one card onto a meld); the selection may hold more cards of the same meld,
 * so a legal action whose cards the selection covers is offered with the whole selection.
 */
function offered() {
  const sel = selectedCards();
  const bySend = new Map();
  const offer = (legal, send, cards) => {
    const known = bySend.get(send);
    if (!known) bySend.set(send, { legal, send, cards });
    else if (hinted && hinted.action === legal) known.legal = legal;  // the hinted text names the button
  };
  for (const text of state.legal) {
    const a = parseActionText(text);
    if (!a.cards.length) { offer(text, text, null); continue; }
    if (!sel.length) continue;
    if (a.verb === "discard") {
      if (sel.length === 1 && sameKinds(a.cards, sel)) offer(text, `discard ${sel[0]}`, sel);
      continue;
    }
    // a run tells its cards apart by suit too; a set only by kind (the colour of a three counts)
    const run = isRunAction(a);
    if (!cardsCovered(a.cards, sel, run ? (c) => (isWild(c) ? kindOf(c) : c) : kindOf)) continue;
    if (sel.length > a.cards.length && !extendsMeld(a, run, sel)) continue;
    const head = a.target ? `${a.verb} ${a.target}` : a.verb;
    offer(text, `${head} ${sel.join(" ")}`, sel);
  }
  return [...bySend.values()];
}

function renderActions() {
  const box = $("actions");
  // a button pressed from the keyboard leaves the focus in the same place: on the next buttons, else the hand
  const hadFocus = box.contains(document.activeElement);
  box.innerHTML = "";
  const keepFocus = () => {
    if (!hadFocus) return;
    const next = box.querySelector("button") || document.querySelector("#hand .card");
    if (next) next.focus();
  };
  if (!state || !state.legal.length) { keepFocus(); return; }
  for (const { legal, send: text, cards } of offered()) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "action" + (hinted && hinted.action === legal ? " hinted" : "");
    b.dataset.action = legal;
    b.dataset.send = text;
    b.textContent = actionLabel(legal, cards);
    b.addEventListener("click", () => sendAction(text));
    box.append(b);
  }
  if (!selected.size && state.legal.some((t) => parseActionText(t).cards.length)) {
    box.insertAdjacentHTML("beforeend", `<span class="tip">Select cards to meld, add or discard.</span>`);
  }
  keepFocus();
}

// Clicks, drops and keys on the table send what the selection says; the selection stays until the hand
// changes, so a refused attempt leaves the cards selected on screen and in the code alike.
function attemptAdd(rank) {
  const sel = selectedCards();
  if (!sel.length || !state || !state.legal.length) return;
  const target = rank === "wild" ? "W" : rank;
  sendAction(`add ${target} ${sel.join(" ")}`);
}

function attemptMeld() {
  const sel = selectedCards();
  if (!state) return;
  if (!state.legal.length) { notYourMove(); return; }
  if (!sel.length) { showMessage("Select the cards to meld first.", "error"); return; }
  sendAction(`meld ${sel.join(" ")}`);
}

function attemptPile() {
  if (!state) return;
  if (!state.legal.length) { notYourMove(); return; }  // a click out of turn is answered, not ignored
  const sel = selectedCards();
  if (state.obs.phase === "draw") sendAction(`take ${sel.join(" ")}`.trim());
  else if (sel.length === 1) sendAction(`discard ${sel[0]}`);
  else showMessage("Select one card to discard, or cards to take the pile with.", "error");
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

/** A log line in words: "Ana took the pile (7 cards: …) with 8♥ 8♦". */
function describe(e) {
  const a = parseActionText(e.action);
  const who = e.by ? moverName(e) : seatName(e.seat);  // the name recorded with the move, not the seat's now
  const cards = a.cards.map(cardName).join(" ");
  const pile = takenPiles.get(e.seq);
  const held = pile && pile.length ? ` (${plural(pile.length, "card")}: ${pile.map(cardName).join(" ")})` : "";
  switch (a.verb) {
    case "draw": return `${who} drew from the stock`;
    case "take":
      if (a.target) return `${who} took the pile${held}, its top card onto ${meldTarget(a.target)}`;
      return `${who} took the pile${held}` + (cards ? ` with ${cards}` : "");
    case "meld": {
      const laidOut = state.obs.variant === "american" ? a.cards.every((c) => parseCard(c).rank === "3")
        : state.obs.variant !== "burraco" && a.cards.every((c) => kindOf(c) === "3r");
      return `${who} ${laidOut ? "laid down" : "melded"} ${cards}`;
    }
    case "add": return `${who} added ${cards} to ${meldTarget(a.target)}`;
    case "discard": return `${who} discarded ${cards}`;
    case "ask": return `${who} asked: "Partner, may I go out?"`;
    case "yes": return `${who} answered yes`;
    case "no": return `${who} answered no`;
    case "retract": return `${who} took back the meld`;
    case "end": return `${who} declined the pile: the hand ends`;
    case "merge": return `${who} combined melds ${a.target.replace(" ", " and ")}`;
    case "keep": return `${who} kept pile ${a.target} as the foot`;
    case "special": return `${who} laid down a special hand: ${a.target}`;
    default: return `${who}: ${e.action}`;
  }
}

function renderPanel() {
  const o = state.obs;
  const log = $("log");
  log.innerHTML = "";
  let previous = null;
  for (const e of events.slice(-300)) {
    for (const line of flowLines(previous, e)) log.append(line);
    previous = e;
    const li = document.createElement("li");
    li.textContent = describe(e);
    li.dataset.seq = String(e.seq);
    li.dataset.action = e.action;  // the engine's notation, for records and tests
    log.append(li);
  }
  for (const line of flowLines(previous, null)) log.append(line);
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
  const key = open.map(([seat]) => seat).join(",");
  if (box.dataset.key === key) return;  // redrawn only when it changes: a link being copied stays put
  box.dataset.key = key;
  box.innerHTML = "";
  box.hidden = !open.length;
  if (!open.length) return;
  const head = document.createElement("h2");
  head.textContent = "Invite friends: send each the link of a seat";
  box.append(head);
  for (const [seat, link] of open) {
    const row = document.createElement("p");
    row.className = "invite-row";
    const label = document.createElement("label");
    label.textContent = `Seat ${Number(seat) + 1}`;
    const input = document.createElement("input");
    input.readOnly = true;
    input.className = "invite-link";
    input.id = `invite-${seat}`;
    label.htmlFor = input.id;
    input.value = location.origin + link;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "copy-invite";
    copy.textContent = "Copy link";
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(input.value);
        copy.textContent = "Copied";
      } catch {
        input.select();  // no clipboard permission: the link is selected, ready for Ctrl+C
        copy.textContent = "Press Ctrl+C";
      }
    });
    row.append(label, " ", input, " ", copy);
    box.append(row);
  }
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
  const reason = m.reason ? m.reason.charAt(0).toUpperCase() + m.reason.slice(1) : "";
  showMessage(`Hint: ${actionLabel(m.action)}. ${reason}`.trim(), "hint");
  renderHand();
  renderActions();
}

function showSheet(result) {
  const names = result.sides.map((_, k) => sideName(k));
  const keys = [];
  for (const s of result.sides) for (const k of Object.keys(s.items)) if (!keys.includes(k)) keys.push(k);
  let html = `<h2 id="sheet-title">End of hand ${result.hand}</h2>`;
  html += result.went_out === null ? "<p>Nobody went out.</p>"
    : `<p>${escapeHtml(seatName(result.went_out))} went out${result.concealed ? " concealed" : ""}.</p>`;
  html += `<table class="scores sheet-table"><thead><tr><th><span class="sr-only">Score item</span></th>${names.map((n) => `<th>${escapeHtml(n)}</th>`).join("")}</tr></thead><tbody>`;
  for (const k of keys) html += `<tr><td>${escapeHtml(itemLabel(k, state.obs.variant))}</td>${result.sides.map((s) => `<td>${s.items[k] ?? 0}</td>`).join("")}</tr>`;
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

// ------------------------------------------------------------ the flow of a hand, who is who
// The server pauses at a hand's end until every player clicks on (state.pause: the hand, who is still to
// click); meanwhile it sends the table as the hand ended (state.finished), shown instead of the new deal.
let idleDeadline = null;     // {seats, at, handEnd}: when the idle limit of those seats runs out (Date.now() ms)
let notesSeen = null;        // how many notes (left, back) the page has shown

/** The state to draw: during a pause, the finished table (no moves are legal until the next hand). */
function tableShown(s) {
  idleDeadline = s.idle ? { seats: s.idle.seats, at: Date.now() + s.idle.left * 1000, handEnd: s.idle.hand_end } : null;
  if (s.pause && s.finished) return { ...s, obs: s.finished, legal: [] };
  return s;
}

/** The name of who made a move, as recorded with it ("Computer for Ana" after a takeover). */
function moverName(e) {
  const info = state.seats[e.seat];
  return e.seat === mySeat() && info && e.by === (info.name || `Player ${e.seat + 1}`) ? `${e.by} (you)` : e.by;
}

function noteText(n) {
  const where = `seat ${n.seat + 1}`;
  if (n.kind === "left") return `${n.text} left the table: the computer plays ${where} now.`;
  if (n.kind === "back") return `${n.text} is back and plays ${where} again.`;
  return "";
}

function logLine(text, cls) {
  const li = document.createElement("li");
  li.className = cls;
  li.textContent = text;
  return li;
}

/** Log lines between two moves (`after` null: after the last): a hand's marker, who left or came back. */
function flowLines(before, after) {
  const out = [];
  const from = before ? before.seq : -1;
  const to = after ? after.seq : Infinity;
  for (const n of state.notes || []) {
    if (n.version >= from && n.version < to && (before || n.version < to)) out.push(logLine(noteText(n), "log-note"));
  }
  const handOf = (e) => (e && e.hand !== undefined ? e.hand : null);
  if (after && handOf(after) !== null && (!before || handOf(before) !== handOf(after))) {
    out.push(logLine(`Hand ${after.hand}`, "log-hand"));
  } else if (!after && before && state.pause) {
    out.push(logLine(`Hand ${state.pause.hand} is over`, "log-hand"));
  }
  return out;
}

/** Beside a seat's name: its number, the dealer, whether its player is connected, the idle countdown. */
function seatFlowExtras(seat) {
  const out = [];
  const span = (cls, text) => {
    const el = document.createElement("span");
    el.className = cls;
    el.textContent = text;
    return el;
  };
  out.push(span("seat-number", `seat ${seat + 1}`));
  if (state.obs.dealer === seat) out.push(span("dealer-mark", "dealer"));
  const info = state.seats[seat];
  if (state.online && info.kind === "human" && info.claimed) {
    const on = state.online.includes(seat);
    out.push(span(on ? "presence online" : "presence offline", on ? "online" : "offline"));
  }
  if (idleDeadline && idleDeadline.seats.includes(seat)) {
    const clock = span("countdown", "");
    clock.dataset.seat = String(seat);
    out.push(clock);
  }
  if (state.pause && state.pause.ready.includes(seat)) out.push(span("ready-mark", "ready for the next hand"));
  // a computer searching for its move: said, so a silent table does not look stuck
  if (info.kind === "computer" && state.obs.actor === seat && !state.obs.hand_over && state.obs.winner === null) {
    out.push(span("thinking", "thinking…"));
  }
  return out;
}

/** Every second: the countdowns of the idle limit, in minutes and seconds. */
function tickCountdowns() {
  for (const clock of document.querySelectorAll(".countdown")) {
    // at a hand's end the limit counts players ready only where the server hands idle seats over by itself
    if (!idleDeadline || (idleDeadline.handEnd && !autoTakeover)) { clock.textContent = ""; continue; }
    const left = Math.max(0, Math.round((idleDeadline.at - Date.now()) / 1000));
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    const then = idleDeadline.handEnd ? "then counted ready" : autoTakeover ? "then the computer plays" : "then the others may hand the seat to the computer";
    clock.textContent = `${time} left (${then})`;
  }
}

/** The results panel at a hand's end (and at the game's end), beside the finished table. */
function renderFlow() {
  const o = state.obs;
  const dialog = $("sheet");
  const pause = state.pause;
  const over = o.winner !== null;
  announceNotes();
  if (!pause && !over) {
    if (dialog.dataset.mode) {
      delete dialog.dataset.mode;
      delete dialog.dataset.key;
      if (dialog.open) dialog.close();
    }
    return;
  }
  if (!o.hand_results.length) return;
  const me = mySeat();
  const key = `${o.hand_results.length}/${over}/${pause ? pause.waiting.join(",") : ""}/${state.rematch}/${state.version}`;
  if (dialog.dataset.key === key) return;
  const mode = over ? "game-over" : "hand-end";
  const fresh = dialog.dataset.mode !== mode || dialog.dataset.hands !== String(o.hand_results.length);
  dialog.dataset.mode = mode;
  dialog.dataset.hands = String(o.hand_results.length);
  dialog.dataset.key = key;
  if (fresh && !dialog.open) dialog.show();  // beside the finished table, not over it (not modal)
  if (!dialog.open) return;  // the game's end, closed by the player: it stays closed
  showSheet(o.hand_results[o.hand_results.length - 1]);
  const body = $("sheet-body");
  const close = $("sheet-close");
  if (pause) {
    const waiting = pause.waiting.map(seatName);
    const line = document.createElement("p");
    line.id = "hand-end-waiting";
    line.textContent = waiting.length ? `Still to click on: ${waiting.join(", ")}.` : "";
    body.append(line);
    const mine = me !== null && pause.waiting.includes(me);
    close.textContent = `Next hand (hand ${pause.hand + 1})`;
    close.hidden = !mine;
    close.type = "button";  // the panel stays until every player has clicked on
  } else {
    close.hidden = false;
    close.type = "submit";
    close.textContent = "Close";
    const won = document.createElement("p");
    won.className = "game-won";
    won.textContent = o.winner === null ? "The game is over." : `Game over: ${sideName(o.winner)} won.`;
    body.append(won, commitmentAtEnd(), rematchBox());  // commitmentAtEnd: issue 51 (end of this file)
  }
}

/** At the game's end: a new game with the same seats, or the one another player started. */
function rematchBox() {
  const box = document.createElement("p");
  box.className = "rematch";
  if (mySeat() === null || !auth) return box;
  const b = document.createElement("button");
  b.type = "button";
  b.id = "rematch-btn";
  b.className = "primary";
  b.textContent = state.rematch ? "Join the new game with the same seats" : "New game with the same seats";
  b.addEventListener("click", rematch);
  box.append(b);
  return box;
}

async function rematch() {
  let id = state.rematch;
  if (!id) {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/rematch`, { method: "POST", headers: { "X-Seat-Token": auth.token } });
    const body = await r.json();
    if (!r.ok) { showMessage(body.message, "error"); return; }
    id = body.id;
  }
  // the seat token of this table is the seat's token at the new one too
  localStorage.setItem(`canasta.seat.${id}`, JSON.stringify(auth));
  location.href = `/table/${encodeURIComponent(id)}`;
}

/** A note that arrived since the last update (someone left or came back): said on the table and aloud. */
function announceNotes() {
  const notes = state.notes || [];
  if (notesSeen !== null && notes.length > notesSeen) {
    const text = notes.slice(notesSeen).map(noteText).join(" ");
    showNotice(text);
    $("announce").textContent = text;
  }
  notesSeen = notes.length;
}

// ------------------------------------------------------------------ wiring
function wire() {
  // a phone docks the hand and the moves at the bottom of the screen: the page keeps room for the dock
  const dock = document.querySelector(".controls");
  new ResizeObserver(() => document.body.style.setProperty("--dock-height", `${dock.offsetHeight}px`)).observe(dock);
  $("hint-btn").addEventListener("click", () => send({ type: "hint" }));
  $("speed").value = speed;
  $("speed").addEventListener("change", () => setSpeed($("speed").value));
  $("panel-btn").addEventListener("click", () => {
    const open = document.body.classList.toggle("panel-open");
    $("panel-btn").setAttribute("aria-expanded", String(open));
  });
  const draw = () => {
    if (state && state.legal.includes("draw")) sendAction("draw");
    else if (state && !state.legal.length) notYourMove();
  };
  $("hand").addEventListener("keydown", (e) => { if (e.target.closest("#hand .card")) onHandKey(e); });
  document.addEventListener("keydown", onShortcut);
  $("skip-to-hand").addEventListener("click", (e) => { e.preventDefault(); focusCard(handCursor); });
  $("stock").addEventListener("click", draw);
  $("pile").addEventListener("click", attemptPile);
  // the stock and the pile are buttons: Enter or Space on them does what a click does
  const byKey = (fn) => (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); } };
  $("stock").addEventListener("keydown", byKey(draw));
  $("pile").addEventListener("keydown", byKey(attemptPile));
  $("melds-us").addEventListener("dblclick", attemptMeld);
  for (const b of document.querySelectorAll("[data-order]")) b.addEventListener("click", () => setHandOrder(b.dataset.order));
  renderSortButtons();
  // on a phone the guide's step is cut to three lines: a tap on it shows it whole
  $("guide").addEventListener("click", (e) => { if (e.target.id !== "guide-close") $("guide").classList.toggle("open"); });
  $("guide-close").addEventListener("click", () => {
    localStorage.setItem(GUIDE_KEY, "done");
    $("guide").hidden = true;
  });
  setInterval(() => { if (state) renderTools(); }, 1000);
  setInterval(tickCountdowns, 1000);
  $("sheet-close").addEventListener("click", () => {
    // at a hand's end the button clicks on to the next hand (the panel closes when every player has)
    if ($("sheet").dataset.mode === "hand-end") send({ type: "next" });
  });
}

// what extras.js and chat.js may use: the state as last shown, seat names, and the socket
window.canastaTable = { state: () => state, seatName, sideOf, send, showMessage };

wire();
// The socket opens once every module of the page has run (they all run before DOMContentLoaded): chat.js
// and extras.js listen for the welcome and the chat history, and a loaded machine could deliver them to a
// page whose later modules had not run yet (a spectator's chat then offered no "read only" note).
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => joinByInvite().finally(connect), { once: true });
} else {
  joinByInvite().finally(connect);
}

// ------------------------------------------------------------------ issue 51: the commitment, copied and shown
// The player copies the commitment at the start (before any card) and finds it again at the end, to give
// `canasta replay --verify --commitment HEX RECORD`: a record alone only proves that it is self-consistent.
let committed = null;

function offerCommitment(note, fairness) {
  committed = fairness && fairness.commitment ? fairness.commitment : null;
  let copy = $("fairness-copy");
  if (!committed) { if (copy) copy.hidden = true; return; }
  if (!copy) {
    copy = document.createElement("button");
    copy.type = "button";
    copy.id = "fairness-copy";
    copy.textContent = "Copy commitment";
    copy.addEventListener("click", () => {
      const done = () => { copy.textContent = "Commitment copied"; };
      if (navigator.clipboard) navigator.clipboard.writeText(committed).then(done, () => window.prompt("Commitment", committed));
      else window.prompt("Commitment", committed);
    });
    note.after(copy);
  }
  copy.hidden = false;
  copy.title = committed;
}

function commitmentAtEnd() {
  const line = document.createElement("p");
  line.id = "fairness-end";
  if (!committed) return line;
  line.append("This game's commitment, shown before the first card: ");
  const code = document.createElement("code");
  code.textContent = committed;
  line.append(code, `. Check the record: canasta replay --verify --commitment ${committed} RECORD`);
  return line;
}
