"""Model servers the person already runs on this machine: Ollama and LM Studio, on their usual local ports.

Each is asked for its list of models with a short timeout, all at once, so that looking takes a fraction of a
second whether or not they run (the window asks off its thread). A server found is used through the
OpenAI-compatible endpoint path (openai_http.py): both serve /v1, Ollama beside its own API.
"""

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Place:
    """Where a kind of server usually listens, and how it lists its models."""

    kind: str  # its name, for the person
    root: str  # http://host:port
    listing: str  # the path that lists its models
    v1: str = "/v1"  # its OpenAI-compatible root

    def models(self, answer: Any) -> tuple[str, ...]:
        """The model names in its listing's answer (Ollama: {"models": [{"name"}]}; OpenAI: {"data": [{"id"}]})."""
        if not isinstance(answer, dict):
            return ()
        rows = answer.get("models") if "models" in answer else answer.get("data")
        names = []
        for row in rows if isinstance(rows, list) else ():
            name = row.get("name") or row.get("model") or row.get("id") if isinstance(row, dict) else None
            if isinstance(name, str) and name.strip():
                names.append(name.strip())
        return tuple(names)


# Their defaults: Ollama's `ollama serve`, LM Studio's local server.
PLACES = (
    Place("Ollama", "http://127.0.0.1:11434", "/api/tags"),
    Place("LM Studio", "http://127.0.0.1:1234", "/v1/models"),
)
TIMEOUT_S = 0.8  # a server on this machine answers its list in milliseconds; a closed port is refused at once


@dataclass(frozen=True)
class Server:
    kind: str
    url: str  # its OpenAI-compatible root: what the settings' endpoint_url holds
    models: tuple[str, ...]

    def describe(self) -> str:
        listed = f"{len(self.models)} model{'s' if len(self.models) != 1 else ''}" if self.models else "no models yet"
        return f"{self.kind} at {self.url} ({listed})"


def find(places: Sequence[Place] = PLACES, timeout: float = TIMEOUT_S) -> list[Server]:
    """The servers that answered, in the order of `places`; one that is not there, or answers with something
    that is not its list, is left out."""
    found: list[Server | None] = [None] * len(places)

    def ask(i: int, place: Place) -> None:
        found[i] = _ask(place, timeout)

    threads = [
        threading.Thread(target=ask, args=(i, p), name=f"look for {p.kind}", daemon=True) for i, p in enumerate(places)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout + 1.0)
    return [server for server in found if server is not None]


def _ask(place: Place, timeout: float) -> Server | None:
    request = urllib.request.Request(place.root + place.listing, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = json.loads(response.read(1 << 20))
    except (urllib.error.URLError, OSError, ValueError):
        return None  # not there, not answering in time, or not that kind of server
    if not isinstance(answer, dict) or not ("models" in answer or "data" in answer):
        return None
    return Server(place.kind, place.root + place.v1, place.models(answer))
