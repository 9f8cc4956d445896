"""Chat through an OpenAI-compatible HTTP endpoint (llama.cpp's server, Ollama, LM Studio, vLLM).

The soul stays on this machine; only the text of each request travels. Every
failure of the endpoint (down, slow, garbage, an HTTP error) becomes a
ModelError with one clear sentence, within the timeout.
"""

import json
import socket
import threading
import urllib.error
import urllib.request
from typing import Generator

from .chat import Capabilities, ChatModel, Message, ModelError, StopReason

KEYCHAIN_SERVICE = "anima-endpoint"


def key_from_keychain(base_url: str) -> str | None:
    from ..store.keychain import _UNUSABLE
    import keyring
    try:
        return keyring.get_password(KEYCHAIN_SERVICE, base_url)
    except _UNUSABLE:
        return None


class OpenAIChatModel(ChatModel):
    def __init__(self, base_url: str, model: str, *, api_key: str | None = None, timeout: float = 30.0,
                 supports_schema: bool = True, context_tokens: int = 8192):
        self.base_url = base_url.rstrip("/")
        self.name = model
        self.api_key = api_key
        self.timeout = timeout
        self.capabilities = Capabilities(streaming=True, schema_constrained=supports_schema,
                                         context_tokens=context_tokens)

    def _request(self, body: dict) -> urllib.request.Request:
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return urllib.request.Request(f"{self.base_url}/chat/completions", data=json.dumps(body).encode("utf-8"),
                                      headers=headers, method="POST")

    def stream_text(self, messages: list[Message], *, max_tokens, temperature, stop, cancel: threading.Event,
                    schema) -> Generator[str, None, StopReason]:
        body = {"model": self.name, "messages": list(messages), "stream": True, "max_tokens": max_tokens,
                "temperature": temperature}
        if stop:
            body["stop"] = list(stop)
        if schema and self.capabilities.schema_constrained:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "reply", "strict": True, "schema": schema}}
        where = self.base_url
        try:
            response = urllib.request.urlopen(self._request(body), timeout=self.timeout)
        except urllib.error.HTTPError as e:
            detail = e.read(300).decode("utf-8", "replace").strip()
            e.close()
            raise ModelError(f"The model server at {where} refused the request (HTTP {e.code}): {detail}") from None
        except (urllib.error.URLError, ConnectionError) as e:
            reason = getattr(e, "reason", e)
            raise ModelError(f"Cannot reach the model server at {where}: {reason}.") from None
        except (socket.timeout, TimeoutError):
            raise ModelError(f"The model server at {where} did not answer within {self.timeout:g} s.") from None
        with response:
            try:
                for line in response:
                    if cancel.is_set():
                        return StopReason.CANCELLED
                    line = line.strip()
                    if not line or line.startswith(b":"):
                        continue
                    if not line.startswith(b"data:"):
                        raise ModelError(f"The server at {where} answered with something that is not an "
                                         f"OpenAI-compatible stream: {line[:80]!r}")
                    data = line[5:].strip()
                    if data == b"[DONE]":
                        return StopReason.END
                    choice = _choice(data, where)
                    text = (choice.get("delta") or {}).get("content")
                    if text:
                        yield text
                    finish = choice.get("finish_reason")
                    if finish == "length":
                        return StopReason.LENGTH
                    if finish is not None:
                        return StopReason.END
            except (socket.timeout, TimeoutError):
                raise ModelError(f"The model server at {where} stopped answering for {self.timeout:g} s.") from None
            except (ConnectionError, OSError) as e:
                raise ModelError(f"The connection to the model server at {where} broke: {e}.") from None
        raise ModelError(f"The model server at {where} ended its reply without finishing it.")


def _choice(data: bytes, where: str) -> dict:
    try:
        return json.loads(data)["choices"][0]
    except (ValueError, KeyError, IndexError, TypeError):
        raise ModelError(f"The server at {where} sent a reply that is not OpenAI-compatible: {data[:80]!r}") from None
