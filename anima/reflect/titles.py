"""A conversation's title from its first exchange, written by the model (issue 39).

One tiny call, aside (the conversation's computed prefix survives it), in the reflector's thread after the work
between turns, and pre-empted like it by a turn. The model's answer is kept only if it is one short line without
quotes (knowledge/conversations.py valid_title); a tiny model's rambling, an empty answer or a stopped call leave
the conversation untitled, and it reads as the first line of the person's first message.
"""

import threading

from ..knowledge.conversations import TITLE_MOST, Conversations, valid_title
from ..models.chat import ChatModel, Message

TITLE_TOKENS = 16
READ_MOST = 600  # characters of each message of the exchange the model reads: a title needs the gist
INSTRUCTIONS = (
    "Write a title for this conversation: three to six words that say what it is about. Answer with the title "
    f"alone, on one line, without quotes, at most {TITLE_MOST} characters."
)


class Titling:
    def __init__(self, chat: ChatModel, conversations: Conversations):
        self.chat = chat
        self.conversations = conversations

    def title(self, session: str, cancel: threading.Event) -> str | None:
        """Title a conversation from its first exchange, if it has none yet; returns the title kept, or None (it
        has one, has no exchange yet, the answer was not a title, or a turn stopped the call)."""
        exchange = self.conversations.untitled_exchange(session)
        if exchange is None:
            return None
        said, reply, upto = exchange
        messages: list[Message] = [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": f"Person: {said[:READ_MOST]}\n\nCompanion: {reply[:READ_MOST]}"},
        ]
        with self.chat.aside():
            answer = self.chat.stream(
                messages, max_tokens=TITLE_TOKENS, temperature=0.2, stop=("\n\n",), cancel=cancel
            ).read()
        title = valid_title(answer)
        if cancel.is_set() or title is None:
            return None
        return title if self.conversations.titled(session, title, upto) else None
