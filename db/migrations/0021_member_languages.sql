-- The language each member's Discord client spoke in their last interaction (Discord's locale
-- tag, e.g. "de" or "es-ES"): the only way the bot learns it, so that after a restart a member's
-- restored panel and their hand by DM speak it before they press anything again.
CREATE TABLE member_languages (
    user_id   INTEGER PRIMARY KEY,
    locale    TEXT NOT NULL
);
