// Playing cards drawn as SVG, and card arithmetic shared by the pages.
// A card is its notation text: "Ah", "10d", "Td", "3s", "JK".

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANK_ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK"];
const SVG_NS = "http://www.w3.org/2000/svg";

export function parseCard(text) {
  if (text === "JK" || text === "??") return { rank: text, suit: null };
  let rank = text.slice(0, -1).toUpperCase();
  if (rank === "T") rank = "10";
  return { rank, suit: text.slice(-1).toLowerCase() };
}

export function isRed(text) {
  const { suit } = parseCard(text);
  return suit === "h" || suit === "d";
}

export function isWild(text) {
  const { rank } = parseCard(text);
  return rank === "JK" || rank === "2";
}

/** What the rules tell apart: the rank, and the colour of a three. Suits of other cards do not matter. */
export function kindOf(text) {
  const { rank } = parseCard(text);
  if (rank === "3") return isRed(text) ? "3r" : "3b";
  return rank;
}

export function rankIndex(text) {
  const i = RANK_ORDER.indexOf(parseCard(text).rank);
  return i < 0 ? 99 : i;
}

export function sortCards(cards) {
  const suitOrder = "shcd";  // alternating colours
  return [...cards].sort((a, b) => rankIndex(a) - rankIndex(b)
    || suitOrder.indexOf(parseCard(a).suit) - suitOrder.indexOf(parseCard(b).suit));
}

function el(name, attrs, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG card face (or back, for "??"). Options: {back: bool, label: string}. */
export function cardSVG(text, opts = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img" });
  if (opts.back || text === "??") {
    svg.setAttribute("aria-label", "face-down card");
    svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-back" }));
    svg.append(el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, class: "card-back-inner" }));
    if (opts.label !== undefined) {
      svg.append(el("text", { x: 30, y: 50, "text-anchor": "middle", class: "card-back-label" }, String(opts.label)));
    }
    return svg;
  }
  const { rank, suit } = parseCard(text);
  const colour = rank === "JK" ? "joker" : (isRed(text) ? "red" : "black");
  svg.setAttribute("aria-label", cardWords(text));  // "king of hearts": a screen reader says "K" as a letter
  svg.classList.add(colour);
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "card-face" }));
  if (rank === "JK") {
    svg.append(el("text", { x: 6, y: 17, class: "card-corner" }, "JK"));
    svg.append(el("text", { x: 30, y: 56, "text-anchor": "middle", class: "card-pip" }, "★"));
    svg.append(el("text", { x: 30, y: 76, "text-anchor": "middle", class: "card-small" }, "JOKER"));
    return svg;
  }
  const pip = SUITS[suit] || "?";
  svg.append(el("text", { x: 5, y: 17, class: "card-corner" }, rank));
  svg.append(el("text", { x: 5, y: 30, class: "card-corner-suit" }, pip));
  svg.append(el("text", { x: 32, y: 60, "text-anchor": "middle", class: "card-pip" }, pip));
  const bottom = el("text", { x: 55, y: 80, "text-anchor": "end", class: "card-corner" }, rank);
  svg.append(bottom);
  return svg;
}

/** A card element (div holding an SVG) with data-card set. */
export function cardElement(text, opts = {}) {
  const div = document.createElement("div");
  div.className = "card" + (opts.small ? " small" : "");
  div.dataset.card = text;
  div.append(cardSVG(text, opts));
  return div;
}

/** Split an action text into verb, target (for add) and cards. */
export function parseActionText(text) {
  const words = text.trim().split(/\s+/);
  const verb = words[0];
  let rest = words.slice(1);
  let target = null;
  // Samba's "merge #3 #5" names two melds and no card: a button of its own
  if (verb === "merge") return { verb, target: rest.join(" "), cards: [] };
  // Modern American's "special straight" names a special hand, no card: a button of its own
  if (verb === "special") return { verb, target: rest.join(" "), cards: [] };
  // Hand and Foot's hand-passing deal: "keep 1" / "keep 2" names a dealt pile, no card
  if (verb === "keep") return { verb, target: rest.join(" "), cards: [] };
  // "add K Kc", "add #3 7h", and Samba's "take #3" (the top card onto meld #3) name a meld first
  if ((verb === "add" && rest.length && !/[shdc]$/i.test(rest[0]) && rest[0] !== "JK")
      || (verb === "take" && rest.length && rest[0].startsWith("#"))) {
    target = rest[0];
    rest = rest.slice(1);
  }
  return { verb, target, cards: rest };
}

export function sameKinds(a, b) {
  if (a.length !== b.length) return false;
  const ka = a.map(kindOf).sort();
  const kb = b.map(kindOf).sort();
  return ka.every((k, i) => k === kb[i]);
}

/** A card in words for labels and screen readers: "K♠", "10♦", "joker". */
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six",
  5: "five", 4: "four", 3: "three", 2: "two" };
const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };

/** A card in words, for screen readers: "king of hearts", "joker". */
export function cardWords(text) {
  if (text === "JK") return "joker";
  if (text === "??") return "face-down card";
  const { rank, suit } = parseCard(text);
  return SUIT_NAMES[suit] ? `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit]}` : (RANK_NAMES[rank] || rank);
}

export function cardName(text) {
  if (text === "JK") return "joker";
  const { rank, suit } = parseCard(text);
  return `${rank}${SUITS[suit] || ""}`;
}

/** "1 card", "2 cards" (or the plural given). */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

/** Whether every card of `need` is in `have` (as a multiset, cards compared by `key`). */
export function cardsCovered(need, have, key) {
  const left = new Map();
  for (const c of have) left.set(key(c), (left.get(key(c)) || 0) + 1);
  for (const c of need) {
    const n = left.get(key(c)) || 0;
    if (!n) return false;
    left.set(key(c), n - 1);
  }
  return true;
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// Score items in each variant's words (keys from canasta/scoring.py and the variants' scoring).
export const ITEM_LABELS = {
  melded_cards: "Melded cards", cards_in_hand: "Cards in hand", natural_canastas: "Natural canastas",
  mixed_canastas: "Mixed canastas", red_threes: "Red threes", going_out: "Going out",
  concealed: "Concealed (extra)", seven_canastas: "Seven canastas", undeclared_red_threes: "Undeclared red threes",
  failed_go_out: "Failed go-out", retract: "Retracted meld", wild_canastas: "Wild canastas",
  black_threes_removed: "Black threes removed", natural_melds: "Natural melds (extra)",
  no_twos_natural: "No twos melded (doubled)", clean_burracos: "Clean burracos", dirty_burracos: "Dirty burracos",
  closing: "Closing", pozzetto_not_taken: "Pozzetto not taken", sambas: "Sambas", bolivias: "Bolivias",
  short_sequence: "Short escalera", deuce_canastas: "Canastas of deuces", aces_sevens_in_hand: "Aces and sevens in hand",
  incomplete_melds: "Incomplete melds", threes: "Threes", special_hand: "Special hand",
};

/** A table rule's name in words: "target_score" → "Target score". */
export function optionWords(name) {
  return name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

// Hand and Foot's table calls its completed piles clean, dirty and wild piles: its score items say the same
const PILE_LABELS = { natural_canastas: "Clean piles", mixed_canastas: "Dirty piles", wild_canastas: "Wild piles" };

export function itemLabel(key, variant = null) {
  if (variant === "hand-and-foot" && PILE_LABELS[key]) return PILE_LABELS[key];
  return ITEM_LABELS[key] || key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** A small SVG line chart of running totals: series = [[t0, t1, ...], ...] one per side. */
export function scoreChart(series, names) {
  const w = 320, h = 160, pad = 28;
  const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, class: "chart", role: "img", "aria-label": "score history chart" });
  const all = series.flat().concat([0]);
  const lo = Math.min(...all), hi = Math.max(...all, lo + 1);
  const n = Math.max(1, ...series.map((s) => s.length));
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, n);
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo);
  svg.append(el("line", { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: "chart-axis" }));
  svg.append(el("text", { x: 2, y: y(hi) + 4, class: "chart-label" }, String(hi)));
  svg.append(el("text", { x: 2, y: y(lo) + 4, class: "chart-label" }, String(lo)));
  series.forEach((s, k) => {
    const pts = [[x(0), y(0)], ...s.map((v, i) => [x(i + 1), y(v)])];
    svg.append(el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: `chart-line side${k}` }));
    const last = pts[pts.length - 1];
    svg.append(el("text", { x: last[0] - 4, y: last[1] - 4, class: `chart-label side${k}`, "text-anchor": "end" },
      names[k] || `Side ${k + 1}`));
  });
  return svg;
}

/** A move in words, without who made it ("drew from the stock", "added 2♣ to the 4s"): for the replay. */
export function moveWords(action) {
  const a = parseActionText(action);
  const cards = a.cards.map(cardName).join(" ");
  const meld = (t) => (t === "W" ? "the wild meld" : t.startsWith("#") ? `meld ${t}` : `the ${t}s`);
  switch (a.verb) {
    case "draw": return "drew from the stock";
    case "take": return a.target ? `took the pile, its top card onto ${meld(a.target)}` : `took the pile${cards ? ` with ${cards}` : ""}`;
    case "meld": return `melded ${cards}`;
    case "add": return `added ${cards} to ${meld(a.target)}`;
    case "discard": return `discarded ${cards}`;
    case "ask": return "asked: \"Partner, may I go out?\"";
    case "yes": return "answered yes";
    case "no": return "answered no";
    case "retract": return "took back the meld";
    case "end": return "declined the pile: the hand ends";
    case "merge": return `combined melds ${a.target.replace(" ", " and ")}`;
    case "keep": return `kept pile ${a.target} as the foot`;
    case "special": return `laid down a special hand: ${a.target}`;
    default: return action;
  }
}
