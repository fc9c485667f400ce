"""Spectators through the real bot: someone who is not playing presses **Watch** and, at every step
of a whole game, reads only the public table, the hands of the players who allowed it, and (once a
deal is over) that deal's hands. Every message the spectator receives is scanned for cards they
must not see; nothing they are shown lets them act, and no table button obeys them."""

from __future__ import annotations

from draw.cards import label
from tests.helpers import (
    OhHellDriver,
    ShitheadDriver,
    card_faces,
    find_component,
    message_text,
    open_table,
    table_message,
    walk_components,
)

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


def faces(codes) -> set[str]:
    return {label(c) for c in codes if not c.startswith("X")}


def embed_text(embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def only_watch_controls(message) -> None:
    ids = [c.get("custom_id") for c in walk_components(message.components) if c.get("custom_id")]
    assert ids and all(i.startswith("watch:") and i.endswith(":refresh") for i in ids), ids


class Spectator:
    """Cy, who watches: opens the view once, then presses Refresh, and checks every answer."""

    def __init__(self, env, channel, member) -> None:
        self.env, self.channel, self.member = env, channel, member
        self.message = None
        self.received = 0

    async def look(self):
        if self.message is None:
            table = table_message(self.channel, self.env.bot.user.id)
            result = await self.member.click(table, label="Watch")
        else:
            result = await self.member.click(self.message, label="Refresh")
        assert result.acknowledged and result.response is not None and result.response.ephemeral, result
        assert "⚠️" not in (result.response.content or ""), result.response.content
        self.message = result.response
        self.received += 1
        only_watch_controls(self.message)
        return self.message


async def _oh_hell_table(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy"))
    await open_table(env, channel, ann, [bob], options=SHORT, computers=1)
    return channel, ann, bob, cy, env.bot.tables.in_channel(channel.id)


async def test_a_spectator_sees_only_the_hands_players_allow_until_the_deal_is_over(simcord_env):
    env = simcord_env
    channel, ann, bob, cy, table = await _oh_hell_table(env)
    allowed = await bob.slash(channel, "ohhell spectators", hand="show")
    assert allowed.ephemeral and "can now see your hand" in allowed.response.content
    assert table.seats[1].shows_hand and not table.seats[0].shows_hand
    stored = await env.bot.store.get_game(table.id)
    assert [s.shows_hand for s in stored.seats] == [False, True, False]

    watcher = Spectator(env, channel, cy)
    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=4)
    saw_last_deal = saw_hidden_held = False
    while True:
        engine = table.engine
        message = await watcher.look()
        public = card_faces(message_text(table_message(channel, env.bot.user.id)))
        current = {s: faces(engine.view(s)["hand"]) for s in range(3)}
        hidden = current[0] | current[2]  # ann's and the computer's cards: never shown to cy
        saw_hidden_held |= bool(hidden - public)
        last_deal = engine.last_deal_hands()
        for embed in message.embeds:
            named = card_faces(embed_text(embed))
            if (embed.title or "").startswith("🂠"):
                assert last_deal is not None and named == {label(c) for s in last_deal for c in _codes(last_deal[s])}
                saw_last_deal = True
                continue
            leaked = named - public - current[1]
            assert not leaked, f"the spectator saw {leaked} held by a player who did not allow it:\n{embed_text(embed)}"
        hands = next(e for e in message.embeds if "Hands shown" in (e.title or ""))
        assert "bob" in hands.description and "ann" not in hands.description
        assert current[1] <= card_faces(hands.description)
        # nothing the spectator presses moves the game
        before = len(engine.log)
        refused = await cy.click(table_message(channel, env.bot.user.id), label="My hand")
        assert refused.ephemeral and "not playing" in refused.response.content
        assert len(table.engine.log) == before
        if not await driver.step() or table.engine.is_over:
            break
    assert saw_last_deal and saw_hidden_held and watcher.received > 10


def _codes(cards) -> list[str]:
    from games.common.cards import card_code

    return [card_code(c) for c in cards]


async def test_players_cannot_watch_and_a_hidden_hand_stays_hidden(simcord_env):
    env = simcord_env
    channel, ann, bob, cy, table = await _oh_hell_table(env)
    refused = await ann.click(table_message(channel, env.bot.user.id), label="Watch")
    assert refused.ephemeral and "You are playing at this table" in refused.response.content

    await bob.slash(channel, "ohhell spectators", hand="show")
    watcher = Spectator(env, channel, cy)
    bob_cards = faces(table.engine.view(1)["hand"])
    assert bob_cards <= card_faces(message_text(await watcher.look()))
    hid = await bob.slash(channel, "ohhell spectators", hand="hide")
    assert "no longer see your hand" in hid.response.content
    seen = card_faces(message_text(await watcher.look()))
    public = card_faces(message_text(table_message(channel, env.bot.user.id)))
    assert not (bob_cards - public) & seen
    assert "No player shows their hand" in message_text(watcher.message)
    # someone at no table here has nothing to allow
    nobody = await cy.slash(channel, "ohhell spectators", hand="show")
    assert nobody.ephemeral and "not playing" in nobody.response.content


async def test_a_shithead_spectator_sees_public_cards_and_allowed_hands_only(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy"))
    await open_table(env, channel, ann, [bob], command="shithead", computers=1)
    await ann.slash(channel, "shithead spectators", hand="show")
    driver = ShitheadDriver(env, channel, {ann.id: ann, bob.id: bob})
    watcher = Spectator(env, channel, cy)
    steps = 0
    while True:
        message = await watcher.look()
        driver.watch.update()
        leaked = card_faces(message_text(message)) - driver.watch.public - driver.watch.hand_faces(0)
        assert not leaked, f"the spectator saw {leaked}:\n{message_text(message)}"
        assert driver.watch.hand_faces(0) <= card_faces(message_text(message))
        panel = find_component(message, ":refresh")
        assert panel["custom_id"] == f"watch:{driver.live.id}:refresh"
        steps += 1
        if steps > 60 or not await driver.step() or driver.engine.is_over:
            break
    assert steps > 20
