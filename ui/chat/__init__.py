"""The chat: the transcript, the message box, and the why of each reply."""
