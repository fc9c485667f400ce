"""What the store raises: a failure the bot reports as "try again" (:class:`StoreError`) and its kinds
(a broken uniqueness rule, a configuration that cannot start, a commit whose outcome is unknown).

Kept apart from the interface (:mod:`db.store`) and its records (:mod:`db.records`) because the
bot's error handling, the hosts' start-up and both backends' plumbing catch or raise these without
needing either.
"""

from __future__ import annotations


class StoreError(Exception):
    """A storage failure the bot reports to the user as 'try again'."""


class StoreConflict(StoreError):
    """A write broke a uniqueness rule (an action already recorded, a busy channel)."""


class StoreConfigError(StoreError):
    """The store cannot start as configured (a wrong ``DATABASE_URL``, a server that is down…).

    Its message is one sentence saying what is wrong and what to do about it.
    """


class OutcomeUnknown(StoreError):
    """The connection to the database was lost while a write was being committed, and asking the
    database afterwards did not tell whether it was saved: the caller must say it does not know,
    never "not saved" (the server may have committed it) nor "saved"."""


class StaleAction(StoreConflict):
    """An action was recorded for a sequence number that is not the game's next one: another
    process (or task) committed a move first, so the caller's view of the game is out of date."""

    def __init__(self, game_id: int, seq: int, next_seq: int) -> None:
        super().__init__(f"game {game_id} is at action {next_seq}, not {seq}")
        self.game_id, self.seq, self.next_seq = game_id, seq, next_seq


class ChannelBusy(StoreConflict):
    """The channel already has a live (lobby or playing) game."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"channel already has game {game_id}")
        self.game_id = game_id
