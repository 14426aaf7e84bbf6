// The table chat: seated players write, everyone at the table (spectators too) reads. User text is
// only ever put in the page as text (textContent), never as HTML.
const $ = (id) => document.getElementById(id);
const table = () => window.canastaTable;

/** The quick emotes: the server knows them by name and sends everyone the same text (words, not emoji:
 *  a system without an emoji font shows empty boxes). */
const EMOTES = [["hello", "Hello!"], ["good-game", "Good game!"], ["nice", "Nice play!"], ["thanks", "Thanks!"],
  ["oops", "Oops!"], ["thinking", "Let me think…"]];
let unread = 0;
let seated = null;

function isOpen() { return !$("chat").hidden; }

function setOpen(open) {
  $("chat").hidden = !open;
  document.body.classList.toggle("chat-open", open);
  $("chat-btn").setAttribute("aria-expanded", String(open));
  if (open) {
    unread = 0;
    renderUnread();
    if (seated) $("chat-input").focus();
  }
}

function renderUnread() {
  const badge = $("chat-unread");
  badge.hidden = unread === 0;
  badge.textContent = unread ? String(unread) : "";
  $("chat-btn").setAttribute("aria-label", unread ? `Chat, ${unread} unread` : "Chat");
}

function addLine(m) {
  const line = document.createElement("li");
  line.className = "chat-line" + (m.emote ? " emote" : "");
  const who = document.createElement("strong");
  const s = table().state();
  who.textContent = s && s.obs.seat === m.seat ? `${m.name} (you)` : m.name;
  const what = document.createElement("span");
  what.textContent = m.text;
  line.append(who, ": ", what);
  const log = $("chat-log");
  log.append(line);
  while (log.children.length > 100) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function send(payload) {
  table().send({ type: "chat", ...payload });
}

function wire() {
  const emotes = document.querySelector("#chat .emotes");
  for (const [name, text] of EMOTES) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.emote = name;
    button.textContent = text;
    button.addEventListener("click", () => send({ emote: name }));
    emotes.append(button);
  }
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    send({ text });
    input.value = "";
  });
  $("chat-btn").addEventListener("click", () => setOpen(!isOpen()));
  $("chat-close").addEventListener("click", () => {
    setOpen(false);
    $("chat-btn").focus();
  });
}

document.addEventListener("canasta:message", (event) => {
  const m = event.detail;
  if (m.type === "welcome") {
    seated = m.seat !== null;
    $("chat-form").hidden = !seated;
    document.querySelector("#chat .emotes").hidden = !seated;
    $("chat-readonly").hidden = seated;
  } else if (m.type === "chat-history") {
    $("chat-log").replaceChildren();
    for (const line of m.messages) addLine(line);
  } else if (m.type === "chat") {
    addLine(m);
    if (!isOpen()) {
      unread += 1;
      renderUnread();
    }
  }
});

wire();
