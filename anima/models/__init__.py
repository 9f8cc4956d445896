"""The local mind: chat models, the embedder, and structured output.

Backends sit behind two small interfaces (`chat.ChatModel.stream_text`,
`embedder.Embedder.embed_batch`) with capability flags, so a user can drop in
any GGUF or an OpenAI-compatible server, and tests can use the queue-driven
fakes in `fake`. (Nothing is imported here: the window imports what it needs
after it has painted.)
"""
