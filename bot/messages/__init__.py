"""What the bot posts and edits on Discord, in whose language, and how it answers a refusal."""
