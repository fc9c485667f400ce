// Card Table: runs before SimCord's page starts (bot/host/local_page.py). The page opens as the member
// its address names (?as=Bob), asking the program for that member's page at once rather than
// Alice's first; and a picture the program did not answer at the first ask (a busy program, a
// page republished meanwhile) is asked again a few times before the page gives up on it.
(() => {
  const members = window.cardtableMembers ?? {};
  const wanted = new URLSearchParams(location.search).get("as")
    ?? sessionStorage.getItem("cardtable-playing-as") ?? localStorage.getItem("cardtable-playing-as");
  const original = window.fetch.bind(window);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  window.fetch = async (input, init) => {
    const path = new URL(typeof input === "string" ? input : input.url, location.href).pathname;
    if (path === "/api/pages" && init?.method === "POST" && wanted && members[wanted]) {
      try {
        const body = JSON.parse(init.body ?? "{}");
        if (body.viewer_id == null) init = { ...init, body: JSON.stringify({ ...body, viewer_id: members[wanted] }) };
      } catch (_) { /* sent as it was */ }
    }
    if (!path.startsWith("/api/assets/")) return original(input, init);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const answer = await original(input, init);
        if (answer.ok || attempt >= 6 || (answer.status !== 404 && answer.status < 500)) return answer;
      } catch (error) {
        if (attempt >= 6) throw error;
      }
      await pause(250 * attempt);
    }
  };
})();

// A card emoji's name in words (ct_9S: "9 of spades", ct_QH: "Q♥"; ♠ and ♣ as text are dark on the
// dark page): the page's hover and screen-reader text, and what it shows of an emoji whose picture
// it has not got (SimCord's own page said "Custom emoji unavailable"); another emoji as :its_name:.
(() => {
  const SUIT_WORD = { S: "spades", C: "clubs", H: "♥", D: "♦" };
  const RANK_WORD = { A: "ace", K: "king", Q: "queen", J: "jack" };
  function cardName(emoji) {
    const code = /^ct4?_(.+)$/.exec(emoji)?.[1];
    if (!code) return null;
    if (code === "joker") return "joker";
    if (code === "back") return "a face-down card";
    const suit = /^suit([SCHD])$/.exec(code);
    if (suit) return SUIT_WORD[suit[1]];
    const card = /^(10|11|12|13|[2-9AKQJ])([SCHD])$/.exec(code);
    if (!card) return null;
    const rank = RANK_WORD[card[1]] ?? card[1];
    return card[2] === "S" || card[2] === "C" ? `${rank} of ${SUIT_WORD[card[2]]}` : `${rank}${SUIT_WORD[card[2]]}`;
  }
  window.cardtableCardName = cardName;
  window.cardtableEmojiWords = (name) => (name ? cardName(String(name)) ?? `:${name}:` : null);
})();
