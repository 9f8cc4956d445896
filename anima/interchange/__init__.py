"""Files to and from other apps: character cards, lorebooks, the Markdown and JSON exports. Above the
conversation: a card's greeting opens it."""
