"""What the companion knows: the messages, memories, world cards, episodes, what each reply recalled, the edits,
and how recalled items are worded."""
