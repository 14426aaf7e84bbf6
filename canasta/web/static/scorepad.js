// Scorepad: score hands played with real cards through /api/score (every variant the scorekeeper scores);
// the game (each hand's input and totals) is kept in the browser, so a hand can be edited or undone.
import { escapeHtml, itemLabel } from "./cards.js";

const $ = (id) => document.getElementById(id);
const KEY = "canasta.scorepad.v2";
let variants = [];
// {variant, players, names, hands: [{teams (the input sent), totals, game (the server's game status)}]}
// teamsOfThree: Hand and Foot with 6 players as two teams of three (its table rule team_size 3)
let pad = JSON.parse(localStorage.getItem(KEY) || "null") || { variant: "classic", players: 4, names: [], hands: [] };
let editing = null;  // the index of the hand being edited, or null for a new hand

// The scorekeeper's families take different keys for a side (docs/scorekeeper.md).
const SAMBA_FAMILY = ["samba", "bolivian", "brazilian", "chilean", "italian"];
function family() {
  if (pad.variant === "burraco") return "burraco";
  if (SAMBA_FAMILY.includes(pad.variant)) return "samba";
  return "classic";
}
const SPECIAL_HANDS = ["straight", "pairs", "pairs-wild", "garbage", "zip-code"];

/** The names for the columns: what the user typed, else "Team 1" / "Player 1". */
function columnNames() {
  return [...Array(sides()).keys()].map((i) => pad.names[i] || `${perSide() > 1 ? "Team" : "Player"} ${i + 1}`);
}

const FEET = ["hand-and-foot", "triple-play"];
/** How the players sit (docs/variants): alone with 2 or 3; partnerships of two with 4 and 8; with 6, Hand and
 * Foot has three teams of two (or two of three under team_size 3), the Classic family two teams of three. */
function layout() {
  const n = pad.players;
  if (n <= 3) return { sides: n, per: 1 };
  if (n === 6) return pad.variant === "hand-and-foot" && !pad.teamsOfThree ? { sides: 3, per: 2 } : { sides: 2, per: 3 };
  return { sides: n / 2, per: 2 };
}
function sides() { return layout().sides; }
function perSide() { return layout().per; }
/** The table rules the hand is scored under: only Hand and Foot's teams of three differ from the defaults. */
function rules() { return pad.variant === "hand-and-foot" && pad.players === 6 && pad.teamsOfThree ? { team_size: 3 } : {}; }
function variantInfo() { return variants.find((x) => x.name === pad.variant); }
/** The variant's default for a table rule (from /api/variants: the engine's own table), or undefined. */
function ruleDefault(name) {
  const o = (variantInfo() || { options: [] }).options.find((x) => x.name === name);
  return o ? o.default : undefined;
}
function save() { localStorage.setItem(KEY, JSON.stringify(pad)); }

function renderVariant() {
  const v = variants.find((x) => x.name === pad.variant) || variants[0];
  pad.variant = v.name;
  $("variant").value = v.name;
  const counts = v.player_counts;
  $("players").innerHTML = counts.map((n) => `<option value="${n}">${n}</option>`).join("");
  if (!counts.includes(pad.players)) pad.players = counts.includes(4) ? 4 : counts[counts.length - 1];
  $("players").value = String(pad.players);
  $("teams-of-three-row").hidden = !(pad.variant === "hand-and-foot" && pad.players === 6);
  $("teams-of-three").checked = !!pad.teamsOfThree;
  renderTeams();
}

function field(label, html) { return `<label>${label} ${html}</label>`; }

// Penalties the texts give for things only real cards allow (the online game's engine prevents them); the
// points come from the scorekeeper (the variant's tables), never from this page.
const UNDECLARED_THREES = ["classic", "uruguayan", "cuban", "hand-and-foot", "triple-play"];
function penaltyFields() {
  let html = "";
  if (UNDECLARED_THREES.includes(pad.variant)) {
    html += field("Red threes never laid down", `<input data-f="undeclared" type="number" min="0" max="8" value="0">`);
  }
  if (ruleDefault("failed_go_out_penalty")) {
    html += field("Failed go-outs (asked \u201cMay I go out?\u201d, told yes, could not)", `<input data-f="failed" type="number" min="0" max="9" value="0">`);
  }
  if (family() !== "burraco") {
    html += field("Other penalties (points deducted)", `<input data-f="other" type="number" min="0" step="5" value="0">`);
  }
  return html ? `<fieldset class="penalties"><legend>Penalties</legend>${html}</fieldset>` : "";
}

function renderTeams() {
  const fam = family();
  const n = sides();
  const per = perSide();
  let html = "";
  for (let t = 0; t < n; t++) {
    const who = per > 1 ? "Team" : "Player";
    html += `<fieldset class="scorepad-team" data-team="${t}"><legend>${who} ${t + 1}</legend>
      ${field("Name", `<input data-f="name" value="${escapeHtml(pad.names[t] || "")}">`)}
      ${field("Melds, one per line", `<textarea data-f="melds" rows="4" placeholder="K K K K K K K&#10;5 5 5 2"></textarea>`)}`;
    if (pad.variant === "american") html += field("Threes laid out", `<input data-f="threes-cards" placeholder="3h 3d 3c">`);
    else if (fam !== "burraco" && pad.variant !== "mille") html += field("Red threes", `<input data-f="threes" type="number" min="0" max="6" value="0">`);
    for (let p = 0; p < per; p++) {
      // Hand and Foot: an unplayed foot (and Triple Play's knee) counts as cards left in hand
      const where = pad.variant === "hand-and-foot" ? "hand and foot" : pad.variant === "triple-play" ? "hand, knee and foot" : "hand";
      html += field(`Cards left in ${where}${per > 1 ? ` (player ${p + 1})` : ""}`, `<input data-f="hand${p}" placeholder="7 9 JK">`);
    }
    html += penaltyFields();
    html += `<label><input type="radio" name="went_out" value="${t}"> ${fam === "burraco" ? "closed" : "went out"}</label>`;
    if (fam === "classic" && pad.variant !== "mille") html += `<label><input type="checkbox" data-f="concealed"> concealed</label>`;
    if (fam === "burraco") html += `<label><input type="checkbox" data-f="pozzetto" checked> took the pozzetto</label>`;
    if (pad.variant === "cuban") html += field("Black threes removed", `<input data-f="black" type="number" min="0" max="4" value="0">`);
    if (pad.variant === "american") {
      html += field("Went out with a special hand", `<select data-f="special"><option value="">none</option>${SPECIAL_HANDS.map((s) => `<option>${s}</option>`).join("")}</select>`);
    }
    html += "</fieldset>";
  }
  $("teams").innerHTML = html;
  $("score-btn").textContent = editing === null ? "Score this hand" : `Save hand ${editing + 1}`;
  $("cancel-edit").hidden = editing === null;
}

// Cards written without a suit get one in turn (spades, hearts, diamonds, clubs, again), so that the
// packs never hold more copies of a card than they have. Black suits for threes (red threes are counted).
let suitTurn = {};
let assigned = new Set();  // cards whose suit the scorepad chose, never to be named in a message
function cards(text) {
  return text.split(/[\s,]+/).filter(Boolean).map((w) => {
    const u = w.toUpperCase();
    if (u === "JK" || u === "JOKER") return "JK";
    if (/[SHDC]$/.test(u) && u.length > 1) return w;
    const k = suitTurn[u] || 0;
    suitTurn[u] = k + 1;
    const card = u + (u === "3" ? "sc"[k % 2] : "shdc"[k % 4]);
    assigned.add(card);
    return card;
  });
}

const RANK_WORDS = { A: "aces", K: "kings", Q: "queens", J: "jacks", 10: "tens", 9: "nines", 8: "eights", 7: "sevens",
  6: "sixes", 5: "fives", 4: "fours", 3: "threes", 2: "twos" };

/** The scorekeeper names the card it counted; where the scorepad chose that card's suit, say the rank instead. */
function inUsersWords(message, teams) {
  const m = message.match(/impossible card count: (\d+) × (\S+) given \((.*)\), but the pack holds (\d+)/);
  if (!m || !assigned.has(m[2])) return message;
  const rank = m[2].slice(0, -1);
  const all = teams.flatMap((t) => [...(t.melds || []).flat(), ...(t.hands || []).flat()]);
  const typed = all.filter((c) => c !== "JK" && c.slice(0, -1) === rank).length;
  const suits = rank === "3" ? 2 : 4;  // black threes only: red ones are counted apart
  return `impossible card count: ${typed} ${RANK_WORDS[rank] || rank} given, but the pack holds ${Number(m[4]) * suits}`;
}

/** The scorekeeper's field names in the page's words. */
function fieldWords(message) {
  return message.replace(/'went_out'/g, "\"went out\"").replace(/'closed'/g, "\"closed\"")
    .replace(/set "went out" to true/, "tick \"went out\" for that side");
}

function readTeams() {
  const fam = family();
  const wentOut = document.querySelector("input[name=went_out]:checked");
  suitTurn = {};
  assigned = new Set();
  return [...document.querySelectorAll("[data-team]")].map((f, t) => {
    const get = (k) => f.querySelector(`[data-f="${k}"]`);
    const out = { name: get("name").value.trim() || undefined, melds: get("melds").value.split("\n").map(cards).filter((m) => m.length) };
    out.hands = [...Array(perSide()).keys()].map((p) => cards(get(`hand${p}`).value));
    const first = wentOut !== null && Number(wentOut.value) === t;
    if (fam === "burraco") {
      out.closed = first;
      out.pozzetto_taken = get("pozzetto").checked;
      return out;
    }
    if (get("threes-cards")) out.threes = get("threes-cards").value.split(/[\s,]+/).filter(Boolean);
    else if (get("threes")) out.threes = [...Array(Number(get("threes").value) || 0).keys()].map((i) => (i % 2 ? "3d" : "3h"));
    out.went_out = first;
    if (get("concealed")) out.concealed = get("concealed").checked;
    if (get("black") && Number(get("black").value)) out.black_threes_removed = Number(get("black").value);
    if (get("special") && get("special").value) out.special_hand = get("special").value;
    if (get("undeclared") && Number(get("undeclared").value)) out.undeclared_red_threes = Number(get("undeclared").value);
    if (fam === "samba") {  // Samba: a red three left in a hand is an undeclared one (Denexa 'Penalties')
      const held = out.hands.flat().filter((c) => /^3[hd]$/i.test(c)).length;
      if (held) out.undeclared_red_threes = held;
    }
    if (get("failed") && Number(get("failed").value)) out.failed_go_out = Number(get("failed").value);
    if (get("other") && Number(get("other").value)) out.penalties = { other_penalties: -Math.abs(Number(get("other").value)) };
    return out;
  });
}

/** Each team's fields as typed (text, numbers, choices): what "Edit hand" puts back, suits the pad chose left out. */
function typedFields() {
  return [...document.querySelectorAll("[data-team]")].map((f) => Object.fromEntries(
    [...f.querySelectorAll("[data-f]")].map((e) => [e.dataset.f, e.type === "checkbox" ? e.checked : e.value])));
}

function fillTyped(typed) {
  [...document.querySelectorAll("[data-team]")].forEach((f, t) => {
    for (const [k, v] of Object.entries(typed[t] || {})) {
      const e = f.querySelector(`[data-f="${k}"]`);
      if (e && e.type === "checkbox") e.checked = v; else if (e) e.value = v;
    }
  });
}

function fillTeams(teams) {
  const fam = family();
  const words = (list) => list.join(" ");
  [...document.querySelectorAll("[data-team]")].forEach((f, t) => {
    const team = teams[t];
    const get = (k) => f.querySelector(`[data-f="${k}"]`);
    get("name").value = team.name || "";
    get("melds").value = team.melds.map(words).join("\n");
    team.hands.forEach((h, p) => { if (get(`hand${p}`)) get(`hand${p}`).value = words(h); });
    const out = fam === "burraco" ? team.closed : team.went_out;
    f.querySelector("input[name=went_out]").checked = !!out;
    if (get("threes-cards")) get("threes-cards").value = words(team.threes || []);
    else if (get("threes")) get("threes").value = String((team.threes || []).length);
    if (get("concealed")) get("concealed").checked = !!team.concealed;
    if (get("pozzetto")) get("pozzetto").checked = team.pozzetto_taken !== false;
    if (get("black")) get("black").value = String(team.black_threes_removed || 0);
    if (get("special")) get("special").value = team.special_hand || "";
    if (get("undeclared")) get("undeclared").value = String(team.undeclared_red_threes || 0);
    if (get("failed")) get("failed").value = String(team.failed_go_out || 0);
    if (get("other")) get("other").value = String(-((team.penalties || {}).other_penalties || 0));
  });
}

function totalsBefore(index) {
  const totals = [...Array(sides()).keys()].map(() => 0);
  for (const h of pad.hands.slice(0, index)) h.totals.forEach((v, k) => { totals[k] += v; });
  return totals;
}

async function post(teams, index) {
  const game = { scores: totalsBefore(index) };
  if (pad.variant === "mille") {
    // Mille's settlement counts the asterisks (naturals) and chapeaux of every hand so far
    const before = pad.hands.slice(0, index);
    game.naturals = game.scores.map((_, k) => before.reduce((n, h) => n + ((h.naturals || [])[k] || 0), 0));
    game.chapeaux = game.scores.map((_, k) => before.reduce((n, h) => n + ((h.chapeaux || [])[k] ? 1 : 0), 0));
  }
  if (FEET.includes(pad.variant)) game.hand = index + 1;  // 'The game ends after four hands have been played'
  const body = { variant: pad.variant, players: pad.players, rules: rules(), teams, game };
  const r = await fetch("/api/score", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return [r.ok, await r.json()];
}

async function score(ev) {
  ev.preventDefault();
  $("pad-error").textContent = "";
  const teams = readTeams();
  const typed = typedFields();
  const index = editing === null ? pad.hands.length : editing;
  const last = pad.hands.length ? pad.hands[pad.hands.length - 1].game : null;
  if (editing === null && last && last.over) {  // a won game takes no more hands: it would change the result
    $("pad-error").textContent = "This game is over. Press \"New game\" to score another one (or edit a hand of this one).";
    return;
  }
  const [ok, out] = await post(teams, index);
  if (!ok) { $("pad-error").textContent = fieldWords(inUsersWords(out.message, teams)); return; }
  pad.names = teams.map((t) => t.name || "");
  const entry = { teams, typed, ...kept(out) };
  if (editing === null) pad.hands.push(entry);
  else {
    pad.hands[editing] = entry;
    // the hands after an edited one start from other scores: score them again
    for (let i = editing + 1; i < pad.hands.length; i++) {
      const [again, res] = await post(pad.hands[i].teams, i);
      if (again) pad.hands[i] = { ...pad.hands[i], ...kept(res) };
    }
  }
  editing = null;
  save();
  showResult(out);
  renderTeams();  // a fresh form: pressing the button again does not add the same hand twice
  renderHistory();
}

/** What the pad keeps of a scored hand: the totals, the game status, Mille's asterisks and chapeaux. */
function kept(out) {
  return { totals: out.teams.map((t) => t.total), game: out.game || null,
    naturals: out.teams.map((t) => t.naturals || 0), chapeaux: out.teams.map((t) => !!t.chapeau) };
}

function showResult(out) {
  const keys = [...new Set(out.teams.flatMap((t) => Object.keys(t.items)))];
  const names = columnNames();
  $("result").innerHTML = `<h2>This hand</h2><table class="result"><tr><th scope="col">Item</th>${names.map((n) => `<th scope="col">${escapeHtml(n)}</th>`).join("")}</tr>`
    + keys.map((k) => `<tr><td>${escapeHtml(itemLabel(k, pad.variant))}</td>${out.teams.map((t) => `<td>${t.items[k] ?? 0}</td>`).join("")}</tr>`).join("")
    + `<tr><th scope="row">Total</th>${out.teams.map((t) => `<th data-total>${t.total}</th>`).join("")}</tr></table>`;
}

function renderHistory() {
  const box = $("history");
  $("undo").disabled = !pad.hands.length;
  if (!pad.hands.length) { box.innerHTML = "<p>No hands yet.</p>"; $("winner").textContent = ""; return; }
  const names = columnNames();
  const totals = names.map(() => 0);
  let html = `<table><tr><th scope="col">Hand</th>${names.map((n) => `<th scope="col">${escapeHtml(n)}</th>`).join("")}<th scope="col"><span class="sr-only">Edit</span></th></tr>`;
  pad.hands.forEach((h, i) => {
    h.totals.forEach((v, k) => { totals[k] += v; });
    html += `<tr data-hand="${i}"><td>${i + 1}</td>${h.totals.map((v, k) => `<td>${v} → <strong>${totals[k]}</strong></td>`).join("")}`
      + `<td><button type="button" class="edit-hand" data-edit="${i}">Edit hand ${i + 1}</button></td></tr>`;
  });
  box.innerHTML = html + "</table>";
  for (const b of box.querySelectorAll("[data-edit]")) b.addEventListener("click", () => editHand(Number(b.dataset.edit)));
  const game = pad.hands[pad.hands.length - 1].game;
  let status = "";
  if (game && game.over && game.winner !== null && game.winner !== undefined) {
    status = `${names[game.winner]} wins: ${game.scores.join(" to ")}` + (game.target ? ` (target ${game.target}).` : ".");
    const st = game.settlement;
    if (st && st.skunk) {  // Mille's stakes
      status += ` ${st.skunk === "double_skunk" ? "Double skunk" : st.skunk === "skunk" ? "Skunk" : "No skunk"}`
        + (st.payment !== null && st.payment !== undefined ? `: ${names[st.loser]} pays ${st.payment}.` : ".");
    }
  } else if (game && game.over) status = `The game ends in a tie: ${game.scores.join(" to ")}.`;
  else if (game && game.hands) status = `Hand ${game.hand} of ${game.hands}.`;
  else if (game && game.target) status = `Game to ${game.target}.`;
  $("winner").textContent = status;
  $("winner").classList.toggle("won", !!(game && game.over));
}

function editHand(i) {
  editing = i;
  renderTeams();
  fillTeams(pad.hands[i].teams);
  if (pad.hands[i].typed) fillTyped(pad.hands[i].typed);  // as typed: "K K K", not the suits the pad chose
  $("pad").scrollIntoView();
}

function undo() {
  pad.hands.pop();
  editing = null;
  save();
  $("result").innerHTML = "";
  renderTeams();
  renderHistory();
}

/** Whether the hands so far may go: yes when there are none, else as the player answers. */
function mayClear(what) {
  return !pad.hands.length || confirm(`${what} The ${pad.hands.length === 1 ? "hand" : `${pad.hands.length} hands`} scored so far will be cleared.`);
}

function reset() {
  if (!mayClear("Start a new game?")) return;
  pad = { variant: pad.variant, players: pad.players, names: [], hands: [] };
  editing = null;
  save();
  $("result").innerHTML = "";
  renderTeams();
  renderHistory();
}

async function main() {
  variants = await (await fetch("/api/variants")).json();
  $("variant").innerHTML = variants.map((v) => `<option value="${v.name}">${escapeHtml(v.title)}</option>`).join("");
  // a change of variant, players or teams starts a new game: asked first when hands would be lost
  const restart = (change, undoChange) => {
    if (!mayClear("Start a new game with this choice?")) { undoChange(); return; }
    change();
    pad.hands = [];
    pad.names = [];
    editing = null;
    $("result").innerHTML = "";  // the last hand's table belonged to the old game
    save();
    renderVariant();
    renderHistory();
  };
  $("variant").addEventListener("change", () => restart(() => { pad.variant = $("variant").value; }, () => { $("variant").value = pad.variant; }));
  $("players").addEventListener("change", () => restart(() => { pad.players = Number($("players").value); },
    () => { $("players").value = String(pad.players); }));
  $("teams-of-three").addEventListener("change", () => restart(() => { pad.teamsOfThree = $("teams-of-three").checked; },
    () => { $("teams-of-three").checked = !!pad.teamsOfThree; }));
  $("pad").addEventListener("submit", score);
  $("undo").addEventListener("click", undo);
  $("cancel-edit").addEventListener("click", () => { editing = null; $("pad-error").textContent = ""; renderTeams(); });
  $("reset").addEventListener("click", reset);
  renderVariant();
  renderHistory();
  document.body.dataset.ready = "true";
}

main();
