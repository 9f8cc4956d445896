"""Chat through an OpenAI-compatible HTTP endpoint (llama.cpp's server, Ollama, LM Studio, vLLM).

The soul stays on this machine; only the text of each request travels. Every
failure of the endpoint (down, slow, garbage, an HTTP error, gone mid-reply)
becomes a ModelError with one clear sentence, within the timeout.

A structured call asks the server to keep to the schema in its own dialect
(dialects.py). With the `auto` setting the first structured call tries them
in order, moving on when the server refuses one (an HTTP 4xx or 5xx other than
a refused key or too many requests), and the first that is accepted is kept
for the rest of the run.
"""

import http.client
import json
import logging
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Generator, Iterable
from typing import Any, cast

from .chat import Capabilities, ChatModel, Message, ModelError, StopReason
from .dialects import AUTO, Dialect, Request, native_root, parse, shape

log = logging.getLogger(__name__)

# Answers that say nothing about the dialect: trying another one would only be refused the same way.
_NOT_THE_DIALECT = {401, 403, 429}


def address_problem(url: str) -> str | None:
    """Why `url` cannot be a model server's address (said for Settings), or None. "http://exa mple.com" and
    "http://[::1" were saved, then every message met http.client.InvalidURL or ValueError: the window's bug
    dialog (QA)."""
    if not url.startswith(("http://", "https://")):
        return "The endpoint must be an http:// or https:// address."
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port
        host = parts.hostname
    except ValueError as e:
        return f"The endpoint's address cannot be read ({e})."
    if not host or any(c.isspace() or not c.isprintable() for c in url):
        return "The endpoint's address names no server (or holds a space): write it as http://host:port/v1."
    return None


class _Refused(Exception):
    def __init__(self, code: int, detail: str):
        super().__init__(code)
        self.code, self.detail = code, detail


class OpenAIChatModel(ChatModel):
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | Callable[[], str | None] | None = None,
        timeout: float = 30.0,
        dialect: str = AUTO,
        context_tokens: int = 8192,
    ):
        """`api_key`: the key, or a function that finds it when a request is made (settings.py's, which asks
        the keychain once and says what to do when none is at hand)."""
        self.base_url = base_url.rstrip("/")
        self.name = model
        self._key = api_key
        self.timeout = timeout
        try:
            self._dialects = parse(dialect)
        except ValueError as e:  # a hand-edited settings file
            raise ModelError(f"The settings name {e}.") from None
        self.dialect: Dialect | None = self._dialects[0] if len(self._dialects) == 1 else None  # None: not yet known
        self.capabilities = Capabilities(
            streaming=True, schema_constrained=self._dialects[0] is not Dialect.PROMPT, context_tokens=context_tokens
        )

    @property
    def api_key(self) -> str | None:
        return self._key() if callable(self._key) else self._key

    def _url(self, request: Request) -> str:
        root = native_root(self.base_url) if request.json_lines else self.base_url
        return root + request.path

    def _open(self, request: Request) -> http.client.HTTPResponse:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/x-ndjson" if request.json_lines else "text/event-stream",
        }
        key = self.api_key
        if key:
            headers["Authorization"] = f"Bearer {key}"
        where = self.base_url
        try:
            http_request = urllib.request.Request(
                self._url(request), data=json.dumps(request.body).encode("utf-8"), headers=headers, method="POST"
            )
            # An http:// or https:// request: urlopen answers with an HTTPResponse (typeshed says Any).
            return cast(http.client.HTTPResponse, urllib.request.urlopen(http_request, timeout=self.timeout))
        except urllib.error.HTTPError as e:
            try:
                detail = e.read(300).decode("utf-8", "replace").strip()
            except OSError:
                detail = ""
            e.close()
            raise _Refused(e.code, detail) from None
        except (urllib.error.URLError, ConnectionError) as e:
            reason = getattr(e, "reason", e)
            raise ModelError(f"Cannot reach the model server at {where}: {reason}.") from None
        except TimeoutError:
            raise ModelError(f"The model server at {where} did not answer within {self.timeout:g} s.") from None
        except (http.client.InvalidURL, ValueError):  # an address written by hand in the settings file
            raise ModelError(
                address_problem(where) or f"The model server's address {where} cannot be used: fix it in Settings."
            ) from None

    def _refused(self, e: _Refused) -> ModelError:
        if e.code == 401 or e.code == 403:
            return ModelError(
                f"The model server at {self.base_url} refused the API key (HTTP {e.code}). Enter the "
                "right key in Settings, or set ANIMA_ENDPOINT_KEY."
            )
        return ModelError(f"The model server at {self.base_url} refused the request (HTTP {e.code}): {e.detail}")

    def _open_structured(
        self, body: dict[str, Any], schema: dict[str, Any]
    ) -> tuple[http.client.HTTPResponse, Request]:
        """Open a structured request in the known dialect, or find one: (response, request)."""
        tried = (self.dialect,) if self.dialect is not None else self._dialects
        for i, dialect in enumerate(tried):
            request = shape(dialect, body, schema)
            try:
                response = self._open(request)
            except _Refused as e:
                if e.code in _NOT_THE_DIALECT or e.code < 400 or i == len(tried) - 1:
                    raise self._refused(e) from None
                # The status only, never the detail: a server may quote the request, and so the person's words.
                log.warning(
                    "the model server at %s refused structured output as %s (HTTP %d); trying %s",
                    self.base_url,
                    dialect.value,
                    e.code,
                    tried[i + 1].value,
                )
                continue
            if self.dialect is None:
                log.info("the model server at %s takes structured output as %s", self.base_url, dialect.value)
                self.dialect = dialect
                self.capabilities = Capabilities(
                    streaming=True,
                    schema_constrained=dialect is not Dialect.PROMPT,
                    context_tokens=self.capabilities.context_tokens,
                )
            return response, request
        raise AssertionError("unreachable: the last dialect raises")

    def stream_text(
        self,
        messages: list[Message],
        *,
        max_tokens: int,
        temperature: float,
        stop: tuple[str, ...],
        cancel: threading.Event,
        schema: dict[str, Any] | None,
    ) -> Generator[str, None, StopReason]:
        body: dict[str, Any] = {
            "model": self.name,
            "messages": list(messages),
            "stream": True,
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        if stop:
            body["stop"] = list(stop)
        if schema:
            response, request = self._open_structured(body, schema)
        else:
            request = Request("/chat/completions", body)
            try:
                response = self._open(request)
            except _Refused as e:
                raise self._refused(e) from None
        with response:
            return (yield from self._read(response, request.json_lines, cancel))

    def _read(
        self, response: Iterable[bytes], json_lines: bool, cancel: threading.Event
    ) -> Generator[str, None, StopReason]:
        where = self.base_url
        try:
            for line in response:
                if cancel.is_set():
                    return StopReason.CANCELLED
                line = line.strip()
                if not line or line.startswith(b":"):
                    continue
                if json_lines:
                    text, finish = _ollama_line(line, where)
                else:
                    if not line.startswith(b"data:"):
                        raise ModelError(
                            f"The server at {where} answered with something that is not an "
                            f"OpenAI-compatible stream: {line[:80]!r}"
                        )
                    data = line[5:].strip()
                    if data == b"[DONE]":
                        return StopReason.END
                    choice = _choice(data, where)
                    text, finish = (choice.get("delta") or {}).get("content"), choice.get("finish_reason")
                if text:
                    yield text
                if finish == "length":
                    return StopReason.LENGTH
                if finish is not None:
                    return StopReason.END
        except TimeoutError:
            raise ModelError(f"The model server at {where} stopped answering for {self.timeout:g} s.") from None
        except (ConnectionError, OSError, http.client.HTTPException) as e:
            # IncompleteRead (an HTTPException): the server went away in the middle of a chunk.
            raise ModelError(
                f"The connection to the model server at {where} broke in the middle of the reply ({type(e).__name__})."
            ) from None
        raise ModelError(f"The model server at {where} went away before finishing its reply.")


def _choice(data: bytes, where: str) -> dict[str, Any]:
    try:
        choice: dict[str, Any] = json.loads(data)["choices"][0]
        return choice
    except (ValueError, KeyError, IndexError, TypeError):
        raise ModelError(f"The server at {where} sent a reply that is not OpenAI-compatible: {data[:80]!r}") from None


def _ollama_line(line: bytes, where: str) -> tuple[str | None, str | None]:
    """One line of Ollama's native stream: (text, why it finished or None)."""
    try:
        obj = json.loads(line)
        if "error" in obj:
            raise ModelError(f"The model server at {where} failed mid-reply: {str(obj['error'])[:200]}")
        text = (obj.get("message") or {}).get("content")
        return text, (obj.get("done_reason") or "stop") if obj.get("done") else None
    except (ValueError, AttributeError, TypeError):
        raise ModelError(f"The server at {where} sent a line that is not Ollama's stream: {line[:80]!r}") from None
