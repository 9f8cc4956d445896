"""The local mind: chat models, the embedder, and structured output.

Backends sit behind two small interfaces (`chat.ChatModel.stream_text`,
`embedder.Embedder.embed_batch`) with capability flags, so a user can drop in
any GGUF or an OpenAI-compatible server, and tests can use the queue-driven
fakes in `fake`. (Nothing is imported here: the window imports what it needs
after it has painted.)
"""

import os

# ONNX Runtime (the embedder's) writes a device id and a queue of telemetry events (the program's path, the
# machine, the model files) under ~/.cache/Microsoft/DeveloperTools and a session file in the temporary folder,
# as soon as it is imported, outside the companion's folders (found by a helper's QA; onnxruntime 1.32 on
# Linux). Its switch is read from the environment when the library loads, so it is set before any import.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
