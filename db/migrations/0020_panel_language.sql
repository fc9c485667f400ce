-- The language an open private panel speaks (its player's Discord client's, when they opened it),
-- kept with the panel across a stop: the bot learns a member's language only from their presses,
-- so a restarted bot would otherwise redraw the panel in the table's language until its player
-- pressed again. NULL: a panel saved before this column (the table's language, as then).
ALTER TABLE panels ADD COLUMN language TEXT;
