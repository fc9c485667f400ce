// Card Table: an open tab reconnects by itself, remembers whom it plays as, and follows the
// answer to your own command (bot/host/local_page.py).
const RUN = "/cardtable-run.json";
let run = null;
let away = false;
async function look() {
  try {
    const answer = await fetch(RUN, { cache: "no-store", signal: AbortSignal.timeout(5000) });
    if (!answer.ok) throw new Error(String(answer.status));
    const now = (await answer.json()).run;
    if (run === null) run = now;
    else if (now !== run || away) {
      sessionStorage.setItem("cardtable-reopen", "yes");  // the views this tab had open come back
      location.reload();
      return;
    }
  } catch (_) {
    if (!away) {
      away = true;
      const note = document.createElement("div");
      note.id = "cardtable-offline";
      note.setAttribute("role", "status");
      note.textContent = "The table is not running. This page reconnects by itself when it is back.";
      document.body.append(note);
    }
  }
  setTimeout(look, 2000);
}
look();

const picker = document.getElementById("viewer-picker");
const label = picker?.closest("label");
if (label?.firstChild?.nodeType === Node.TEXT_NODE) label.firstChild.textContent = "Playing as ";
// Whom this tab plays as is in its address (?as=Bob), so that each tab keeps its own member
// across a reload and a restart; a new tab without one takes the last member chosen anywhere.
const KEEP = "cardtable-playing-as";
const named = new URLSearchParams(location.search).get("as");
let restored = false;
function wantedMember() {
  return named ?? sessionStorage.getItem(KEEP) ?? localStorage.getItem(KEEP);
}
function keepMember(name) {
  if (!name) return;
  sessionStorage.setItem(KEEP, name);
  localStorage.setItem(KEEP, name);
  const address = new URL(location.href);
  if (address.searchParams.get("as") !== name) {
    address.searchParams.set("as", name);
    history.replaceState(history.state, "", address);
  }
}
let pageSwitch = false;
function switchTo(name) {
  const option = [...(picker?.options ?? [])].find((item) => item.text === name);
  if (!option || picker.value === option.value) return false;
  picker.value = option.value;
  pageSwitch = true;
  try { picker.dispatchEvent(new Event("change")); } finally { pageSwitch = false; }
  return true;
}
function restore() {
  if (restored || !picker || !picker.options.length) return;
  restored = true;
  const wanted = wantedMember();
  if (wanted) switchTo(wanted);
  keepMember(wanted || picker.options[picker.selectedIndex]?.text);
}
// Whom the page shows now: the picker is rebuilt from each page the program publishes, so this is
// the member the program took the page to be (a switch still under way is not), on the page root.
function noteShownAs() {
  const shown = picker?.options[picker.selectedIndex]?.text;
  if (shown) document.documentElement.dataset.cardtableShownAs = shown;
  if (shown && restored) keepMember(shown);  // the address names whom the page shows
}
if (picker) {
  new MutationObserver(() => { noteShownAs(); restore(); offerTurn(); reopen(); }).observe(picker, { childList: true });
  noteShownAs();
  picker.addEventListener("change", () => {
    if (restored) keepMember(picker.options[picker.selectedIndex]?.text ?? "");
    // a person who chooses whom to play as is not switched away by the turn (ticked again to follow)
    if (!pageSwitch && typeof followTurn !== "undefined" && followTurn.checked) {
      followTurn.checked = false;
      sessionStorage.setItem("cardtable-follow", "off");
    }
  });
  restore();
}

// Two people at one screen: whose move it is comes from the program (/cardtable-table.json).
// The page offers "Play as <name>" in one press, or, with "Follow the turn" on, switches by itself
// the moment the turn passes, so the panel is ready before the player reaches for it. A tab whose
// address names its member (a person playing in their own tab) does not follow unless asked.
const FOLLOW = "cardtable-follow";
const bar = document.createElement("span");
bar.id = "cardtable-turn";
const offer = document.createElement("button");
offer.type = "button";
offer.className = "toolbar-button";
offer.id = "cardtable-play-as";
offer.hidden = true;
const followLabel = document.createElement("label");
const followTurn = document.createElement("input");
followTurn.type = "checkbox";
followTurn.id = "cardtable-follow";
followTurn.checked = (sessionStorage.getItem(FOLLOW) ?? (named ? "off" : "on")) === "on";
followLabel.append(followTurn, " Follow the turn");
bar.append(offer, followLabel);
label?.after(bar);
let turn = [];
let reopenLabels = null;  // not known until the table first answers
offer.addEventListener("click", () => { if (offer.dataset.member) switchTo(offer.dataset.member); });
followTurn.addEventListener("change", () => {
  sessionStorage.setItem(FOLLOW, followTurn.checked ? "on" : "off");
  offerTurn();
});
function offerTurn() {
  const shown = document.documentElement.dataset.cardtableShownAs;
  const choosing = picker && picker.options[picker.selectedIndex]?.text !== shown;
  const other = turn.includes(shown) ? null : turn[0] ?? null;
  offer.hidden = !other;
  if (other) {
    offer.dataset.member = other;
    offer.textContent = `Play as ${other}`;
  }
  if (followTurn.checked && other && turn.length === 1 && restored && !choosing) switchTo(other);
}
async function lookAtTable() {
  try {
    // A look that is not answered in 5 s is given up (a hung request once stopped the looking,
    // and with it the turn and the views a restarted tab reopens); the next look asks again.
    const answer = await fetch("/cardtable-table.json", { cache: "no-store", signal: AbortSignal.timeout(5000) });
    if (answer.ok) {
      const state = await answer.json();
      turn = state.turn ?? [];
      reopenLabels = state.reopen ?? [];
      offerTurn();
      reopen();
    }
  } catch (_) { /* the program is away: look() says so */ }
  setTimeout(lookAtTable, 400);
}
lookAtTable();

// A tab keeps the private views its member opened (their panel, the spectators' Watch view):
// after a restart the channel starts empty of them, so the reloaded tab presses their buttons again.
const OPENED = "cardtable-opened";
const REOPEN = "cardtable-reopen";
function opened() {
  try { return JSON.parse(sessionStorage.getItem(OPENED) ?? "{}"); } catch (_) { return {}; }
}
document.getElementById("channel-message-list")?.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("button") : null;
  const text = button?.innerText.trim();
  const shown = document.documentElement.dataset.cardtableShownAs;
  // A press made before the table first answered (a slow first answer, under load) is kept too:
  // what is kept is filtered by the table's labels when the tab reopens its views.
  if (!text || !shown || (reopenLabels !== null && !reopenLabels.includes(text))) return;
  const all = opened();
  all[shown] = [...new Set([...(all[shown] ?? []), text])];
  sessionStorage.setItem(OPENED, JSON.stringify(all));
}, true);
// Pressed one at a time, each again until a new private message shows, waiting longer each time
// (2.5 s, 5 s, 7.5 s...: a slow answer under load is not pressed for again at once): a press made
// while the reloaded page is still settling is sometimes not taken. The tab's note that its views
// are to come back is kept until they have: a tab reloaded again meanwhile (the page reloads
// itself as it reconnects) starts over rather than forgetting them.
let reopening = null;
function privateMessages() {
  const messages = [...document.querySelectorAll(".channel-message")];
  return messages.filter((item) => item.innerText.includes("Only you can see this")).length;
}
function reopened() {
  reopening.labels = [];
  sessionStorage.removeItem(REOPEN);
}
function reopen() {
  const shown = document.documentElement.dataset.cardtableShownAs;
  if (!restored || !shown || shown !== wantedMember() || reopenLabels === null) return;
  if (reopening === null) {
    if (sessionStorage.getItem(REOPEN) !== "yes") return;
    const labels = (opened()[shown] ?? []).filter((text) => reopenLabels.includes(text));
    reopening = { labels, at: 0, tries: 0, seen: 0 };
  }
  if (!reopening.labels.length) return reopened();
  const now = Date.now();
  if (now - reopening.at < 2500 * Math.max(reopening.tries, 1)) return;
  if (reopening.at && privateMessages() > reopening.seen || reopening.tries >= 8) {  // answered, or given up
    reopening.labels.shift();
    reopening.tries = 0;
    reopening.at = 0;
    if (!reopening.labels.length) return reopened();
  }
  const text = reopening.labels[0];
  const button = [...document.querySelectorAll("#channel-message-list button:not([disabled])")]
    .filter((item) => item.innerText.trim() === text).pop();
  if (!button) return;  // the table is not back on the page yet
  reopening.seen = privateMessages();
  reopening.at = now;
  reopening.tries += 1;
  button.click();
}

// An option's suggestions as soon as its field has the focus, before a letter is typed (SimCord's
// page asks the bot only on input: a game's "set" showed an empty list until a letter was typed).
document.addEventListener("focusin", (event) => {
  const field = event.target;
  if (field instanceof HTMLInputElement && field.classList.contains("command-option-input")
      && field.getAttribute("aria-autocomplete") === "list" && field.value === "") {
    setTimeout(() => {
      if (document.activeElement !== field || field.value !== "") return;
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }, 0);
  }
});

// A picture the page could not load (the early script already asked again) is said in words rather
// than "Embed 1 image unavailable": its alt text (what the bot wrote for a screen reader). (An emoji
// without its picture is said in words where SimCord's page makes it: see bot/host/local_pictures.py.)
new MutationObserver((changes) => {
  for (const change of changes) {
    const gone = [...change.removedNodes].find((item) => item instanceof Element);
    for (const added of change.addedNodes) {
      if (!(added instanceof HTMLElement) || !added.classList.contains("media-unavailable")) continue;
      const image = gone?.matches?.("img") ? gone : gone?.querySelector?.("img");
      const words = image?.alt && !/^(Embed \d+ |Media|Preview media)/.test(image.alt) ? image.alt : "";
      added.textContent = words ? `🖼️ ${words}` : "🖼️ This picture could not be loaded.";
      added.classList.add("cardtable-said");
    }
  }
}).observe(document.body, { childList: true, subtree: true });

// "End preview session" would quit the program for everyone: the click never reaches the page
// (the button is hidden too, and the program refuses the request anyway).
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("#close")) {
    event.stopPropagation();
    event.preventDefault();
  }
}, true);

// Card emojis (ct_9S, ct4_10D, ct_suitC …) are named as the card (the early script's
// cardtableCardName), in words where the symbol is dark: a hover shows it, a screen reader reads it
// (SimCord's alt is the emoji's name).
const cardName = window.cardtableCardName;
function nameCards(root) {
  const found = root instanceof HTMLImageElement ? [root] : root.querySelectorAll?.("img.custom-emoji") ?? [];
  for (const image of found) {
    const name = image.dataset.cardtableCard ?? cardName(image.alt);
    if (!name) continue;
    image.dataset.cardtableCard = name;
    image.dataset.cardtableEmoji ??= image.alt;
    if (image.alt !== name) image.alt = name;
    if (image.title !== name) image.title = name;
  }
}
// An emoji's markup that SimCord's server did not know (an id it never had: its page leaves the
// text as written, "<:ct_QS:1234…>", where Discord shows the emoji) is said in words as well.
const MARKUP = /<a?:(\w{2,32}):(\d{15,21})>/g;
function sayMarkup(root) {
  const texts = [];
  if (root instanceof Text) texts.push(root);
  else if (root instanceof Element) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) texts.push(walker.currentNode);
  }
  for (const text of texts) {
    const parent = text.parentElement;
    if (!text.data.includes("<:") && !text.data.includes("<a:")) continue;
    if (!parent?.closest("#channel-message-list") || parent.closest("code, pre, textarea, [contenteditable]")) continue;
    const parts = [];
    let at = 0;
    for (const match of text.data.matchAll(MARKUP)) {
      const words = window.cardtableEmojiWords(match[1]);
      const said = document.createElement("span");
      said.className = "emoji-unavailable cardtable-said";
      said.textContent = words;
      said.title = words;
      said.dataset.cardtableEmoji = match[1];
      parts.push(text.data.slice(at, match.index), said);
      at = match.index + match[0].length;
    }
    if (parts.length) text.replaceWith(...parts, text.data.slice(at));
  }
}
// A card emoji whose picture is on its way (a busy program answers late) is said in words
// meanwhile, and shown as its picture once the picture comes; if it never comes, SimCord's page
// puts the words said for good in its place (bot/host/local_pictures.py), and these go.
function waitInWords(root) {
  const found = root instanceof HTMLImageElement ? [root] : root.querySelectorAll?.("img.custom-emoji") ?? [];
  for (const image of found) {
    if (image.getAttribute("src") || image.dataset.cardtableWaiting || !image.isConnected) continue;
    const words = window.cardtableEmojiWords(image.dataset.cardtableEmoji ?? image.alt);
    if (!words) continue;
    const waiting = document.createElement("span");
    waiting.className = "cardtable-waiting";
    waiting.textContent = words;
    image.dataset.cardtableWaiting = "yes";
    image.after(waiting);
  }
}
function pictureCame(image) {
  if (!image.dataset.cardtableWaiting) return;
  delete image.dataset.cardtableWaiting;
  const next = image.nextSibling;
  if (next instanceof Element && next.matches(".cardtable-waiting")) next.remove();
}
nameCards(document.body);
sayMarkup(document.body);
waitInWords(document.body);
new MutationObserver((changes) => {
  for (const change of changes) {
    if (change.type === "attributes") {
      if (change.target instanceof HTMLImageElement && change.target.getAttribute("src")) pictureCame(change.target);
      continue;
    }
    for (const added of change.addedNodes) {
      nameCards(added);
      sayMarkup(added);
      waitInWords(added);
      // a picture that never came: its words said for good take the place of the picture
      const next = added instanceof Element && added.matches(".emoji-unavailable") ? added.nextSibling : null;
      if (next instanceof Element && next.matches(".cardtable-waiting")) next.remove();
    }
  }
}).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["src"] });

// A picture SimCord would shrink into its 280 px box is shown at its own size (the score sheet).
document.addEventListener("load", (event) => {
  const image = event.target;
  if (image instanceof HTMLImageElement && image.classList.contains("embed-image") && image.naturalHeight > 280) {
    image.classList.add("cardtable-full");
    image.closest(".embed-card")?.classList.add("cardtable-full");
  }
}, true);
