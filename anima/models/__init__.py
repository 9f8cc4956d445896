"""The local mind: chat models, the embedder, and structured output.

Backends sit behind two small interfaces (`ChatModel.stream_text`,
`Embedder.embed_batch`) with capability flags, so a user can drop in any GGUF
or an OpenAI-compatible server, and tests can use the queue-driven fakes.
"""

from .chat import Capabilities, ChatModel, Message, ModelError, StopReason, Stream
from .embedder import Embedder
from .structured import StructuredOutputFailed, ask_structured

__all__ = ["Capabilities", "ChatModel", "Message", "ModelError", "StopReason", "Stream", "Embedder",
           "StructuredOutputFailed", "ask_structured"]
