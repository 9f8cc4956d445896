"""How each kind of model server is asked to keep a reply to a JSON schema.

OpenAI's API has one way (`response_format` of type `json_schema`), and the
servers people run locally each speak their own variant of it:

- llama.cpp's server (llama-server), LM Studio, vLLM, Ollama's /v1: `json_schema`.
- llama-cpp-python's server: `{"type": "json_object", "schema": ...}`; it answers HTTP 500 to `json_schema`
  (its request model allows only "text" and "json_object"; tried on 0.3.36). llama.cpp's server takes it too.
- vLLM before its `structured_outputs` field: `guided_json` beside the messages.
- Ollama's native API (/api/chat, a stream of JSON lines, not server-sent events): `format: <schema>`.
- A server with none of these: the schema goes in the prompt, and the local validation does the rest.

Whatever the server does, ask_structured (structured.py) still parses, validates and retries: a server may
accept a field and ignore it. The order below is the order `auto` tries them in: the most common first, the
one that changes endpoint and stream format last, and the prompt alone when every other one was refused.
"""

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Dialect(Enum):
    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    GUIDED_JSON = "guided_json"
    OLLAMA = "ollama"
    PROMPT = "prompt"


AUTO = "auto"
ORDER = (Dialect.JSON_SCHEMA, Dialect.JSON_OBJECT, Dialect.GUIDED_JSON, Dialect.OLLAMA, Dialect.PROMPT)
CHOICES = (AUTO, *(d.value for d in ORDER))
# What each choice is called in the settings (short: a drop-down shows it in ~30 characters), and where it is
# known to be spoken (shown under it in the list, and as its tooltip).
LABELS = {
    AUTO: "Find out",
    Dialect.JSON_SCHEMA.value: "json_schema",
    Dialect.JSON_OBJECT.value: "json_object with a schema",
    Dialect.GUIDED_JSON.value: "guided_json",
    Dialect.OLLAMA.value: "format (Ollama's own API)",
    Dialect.PROMPT.value: "None",
}
SPOKEN_BY = {
    AUTO: "Try each in turn, and remember the first that works.",
    Dialect.JSON_SCHEMA.value: "llama.cpp's server, LM Studio, vLLM, Ollama's /v1.",
    Dialect.JSON_OBJECT.value: "llama-cpp-python's server.",
    Dialect.GUIDED_JSON.value: "Older vLLM.",
    Dialect.OLLAMA.value: "Ollama's native /api/chat.",
    Dialect.PROMPT.value: "Any server: the schema is only described in the prompt.",
}


@dataclass(frozen=True)
class Request:
    """Where a structured request goes and what it carries: `path` after the server's root, `body`, and whether
    the reply streams as JSON lines (Ollama's native API) rather than server-sent events."""

    path: str
    body: dict[str, Any]
    json_lines: bool = False


def native_root(base_url: str) -> str:
    """Ollama's own API lives beside its OpenAI-compatible one: http://host:11434/v1 -> http://host:11434."""
    base = base_url.rstrip("/")
    return base[:-3] if base.endswith("/v1") else base


def shape(dialect: Dialect, body: dict[str, Any], schema: dict[str, Any]) -> Request:
    """`body` (an OpenAI chat completion request) changed to ask for `schema` in `dialect`."""
    if dialect is Dialect.JSON_SCHEMA:
        return Request(
            "/chat/completions",
            {
                **body,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "reply", "strict": True, "schema": schema},
                },
            },
        )
    if dialect is Dialect.JSON_OBJECT:
        return Request("/chat/completions", {**body, "response_format": {"type": "json_object", "schema": schema}})
    if dialect is Dialect.GUIDED_JSON:
        return Request("/chat/completions", {**body, "guided_json": schema})
    if dialect is Dialect.OLLAMA:
        options = {"temperature": body["temperature"], "num_predict": body["max_tokens"]}
        if body.get("stop"):
            options["stop"] = body["stop"]
        return Request(
            "/api/chat",
            {
                "model": body["model"],
                "messages": body["messages"],
                "stream": True,
                "format": schema,
                "options": options,
            },
            json_lines=True,
        )
    return Request("/chat/completions", body)


def parse(choice: str) -> tuple[Dialect, ...]:
    """The dialects to try for a setting: all of them in order for `auto`, else the one named."""
    if choice == AUTO:
        return ORDER
    try:
        return (Dialect(choice),)
    except ValueError:
        raise ValueError(f"unknown structured-output dialect {choice!r}; one of {', '.join(CHOICES)}") from None
