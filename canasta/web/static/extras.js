// The table's extras beside table.js: the taken pile waiting for an initial meld, undo against
// computers, and optional sound. Everything comes from the table's messages ("canasta:message").
import { cardElement, cardName, parseActionText, plural } from "./cards.js";

const $ = (id) => document.getElementById(id);
const table = () => window.canastaTable;

// ------------------------------------------------------------ the taken pile set aside
// Classic family: a pile taken before the side's initial meld is complete waits beside the table
// until the meld completes (then it joins the hand) or is retracted (then it goes back to the pile).
function renderAside(s) {
  const box = $("pile-aside");
  const cards = s.obs.pile_taken_aside || [];
  box.hidden = cards.length === 0;
  if (!cards.length) return;
  const o = s.obs;
  const mine = o.seat !== null && o.turn === o.seat;
  const who = mine ? "your" : `${table().seatName(o.turn)}'s`;
  $("pile-aside-caption").textContent = `Taken, waiting for ${who} initial meld (${plural(cards.length, "card")})`;
  const row = $("pile-aside-cards");
  row.replaceChildren(...cards.map((c) => cardElement(c, { small: true })));  // each card names itself
}

// ------------------------------------------------------------ undo (games against computers)
let undoVersion = null;

function renderUndo(s) {
  const button = $("undo-btn");
  button.hidden = !s.can_undo;
  button.disabled = !s.can_undo || undoVersion === s.version;
}

function undo() {
  const s = table().state();
  if (!s || !s.can_undo || undoVersion === s.version) return;
  undoVersion = s.version;
  table().send({ type: "undo", version: s.version });
}

function onUndone(m) {
  undoVersion = null;
  // in words, as the log says it: "Taken back: your meld of 7 of spades, 7 of hearts, 2 of hearts."
  const { verb, cards } = parseActionText(m.action);
  const what = { meld: "meld", add: "addition", merge: "combined melds" }[verb] || verb;
  table().showMessage(`Taken back: your ${what}` + (cards.length ? ` of ${cards.map(cardName).join(", ")}.` : "."));
}

// ------------------------------------------------------------ sound
// Off by default; the choice is kept in localStorage. Short beeps made with WebAudio (no files).
const SOUND_KEY = "canasta.sound";
let soundOn = localStorage.getItem(SOUND_KEY) === "on";
let audio = null;
let wasMyTurn = null;
let resultsSeen = null;

function renderSoundButton() {
  const button = $("sound-btn");
  button.setAttribute("aria-pressed", String(soundOn));
  button.textContent = soundOn ? "Sound on" : "Sound off";
}

function toggleSound() {
  soundOn = !soundOn;
  localStorage.setItem(SOUND_KEY, soundOn ? "on" : "off");
  renderSoundButton();
  if (soundOn) beep("turn");  // the click lets the browser start audio, and says what a beep sounds like
}

/** Tones of a beep: your turn is one short high note, a hand's end three notes going down. */
const TUNES = { turn: [[880, 0.12]], "hand-end": [[784, 0.14], [659, 0.14], [523, 0.24]] };

function beep(kind) {
  if (!soundOn) return;
  // counted for the browser tests (a headless browser may keep its audio suspended)
  document.body.dataset.beeps = `${Number(document.body.dataset.beeps || 0) + 1}`;
  document.body.dataset.lastBeep = kind;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  let at = audio.currentTime;
  for (const [frequency, seconds] of TUNES[kind]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + seconds);
    at += seconds;
  }
}

function soundFor(s) {
  const myTurn = s.legal.length > 0;
  const results = s.obs.hand_results.length;
  if (resultsSeen !== null && results > resultsSeen) beep("hand-end");
  else if (wasMyTurn === false && myTurn) beep("turn");
  wasMyTurn = myTurn;
  resultsSeen = results;
}

// ------------------------------------------------------------ wiring
document.addEventListener("canasta:message", (event) => {
  const m = event.detail;
  if (m.type === "update") {
    renderAside(m.state);
    renderUndo(m.state);
    soundFor(m.state);
  } else if (m.type === "undone") {
    onUndone(m);
  } else if (m.type === "error") {
    undoVersion = null;
    const s = table().state();
    if (s) renderUndo(s);
  }
});

$("undo-btn").addEventListener("click", undo);
document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof HTMLElement && e.target.closest("input, textarea, select, [contenteditable]");
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "z" && !typing) {
    e.preventDefault();
    undo();
  }
});
$("sound-btn").addEventListener("click", toggleSound);
renderSoundButton();
