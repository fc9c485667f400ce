// Card Table (bot/host/local_pictures.py): an emoji without its picture is said in words, the card's
// name (ct_QS: "queen of spades"), rather than "Custom emoji unavailable" (which once was all a
// player saw of the only card in their hand and of the turn-up).
function cardtableEmojiSaid(emoji, label) {
  const name = emoji?.name ? String(emoji.name) : "";
  const words = name ? globalThis.cardtableEmojiWords?.(name) ?? `:${name}:` : "❔";
  const said = node("span", "emoji-unavailable cardtable-said", words);
  said.title = name ? words : `${label} (this page has no picture of it)`;
  if (name) said.dataset.cardtableEmoji = name;
  return said;
}
