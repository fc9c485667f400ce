"""Fair play (issue 16): ``/<game> verify`` checks a finished game's shuffle (the runtime's half is
:mod:`bot.fairness`); the commands are added to each game's group by
:func:`cogs.fairness.commands.add_fairness_commands`."""
