"""The drawing toolkit every game shares: card labels and suit signs (:mod:`draw.cards`), card
emojis in text (:mod:`draw.emojis`), readable suits (:mod:`draw.readable`), the card faces and
pictures drawn with Pillow (:mod:`draw.faces`, :mod:`draw.images`, :mod:`draw.pictures`), small
text helpers (:mod:`draw.common`), the ratings field (:mod:`draw.ratings`), the look options a
table may choose (:mod:`draw.looks`) and the seats' names and mentions (:mod:`draw.seats`).

It is a library, as Pillow is, and not part of the runtime (``bot/``): pure functions of what they
are given, which import only ``games/`` (the cards) and never ``bot/``, ``cogs/`` or ``db/``
(``tests/test_architecture.py`` holds it to that, and to naming no game). A game's adapter
(``cogs/<game>/``) draws with it directly, the way it would call Pillow; the runtime uses it
too (``bot/messages/emojis.py`` uploads the emoji set, ``bot/seam/contract.py`` makes every message readable).

That is the seam between the runtime and a game's drawing: the runtime hands the adapter plain
data (the table's stored record, this state's view, the seat's decision digest: see
``GameKind.table`` and ``GameKind.panel``), and the adapter turns it into a message with this
toolkit, without calling back into the runtime for a label, a name or a picture.

The one piece of state here is :data:`draw.emojis.EMOJIS`, the ids of the application's
uploaded card emojis. It stays in the toolkit as a registry the runtime fills once at start-up
(``bot/messages/emojis.py`` calls ``EMOJIS.set``), like a font a program loads before drawing: the
toolkit owns what an emoji is called and how a card is written with one, holds no reference to the
bot, and reads the same (text labels) until it is filled. Keeping it in ``bot/`` would make every
card in text a call into the runtime.
"""
