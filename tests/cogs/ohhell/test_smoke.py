"""A first whole game through the real bot."""

from tests.helpers import OhHellDriver, open_table


async def test_three_players_spades_to_the_end(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "2,1", "sequence": "fixed"}
    )
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    await driver.play_to_end()
    last = channel.last_message
    assert "Game over" in last.content
