"""The one gate in front of what shapes the companion (seed 000 §4, seed 003 §13.7; OWASP LLM01 and LLM04).

What is always in context or steers behaviour (the human block, persona,
identity, intentions; rules, core parts and the affect profile as they come)
changes only through `Gate.submit`. It is code, not a prompt: it holds when the
model does whatever a text tells it to.

Applied directly: the person's own edits in the app, and what the person said
about themselves in their own words, written about them. Everything else
becomes a proposal the person accepts or rejects in the Open Mind: text from
outside (pasted, a file, a tool, a card), an instruction rather than a fact
("from now on", "as a standing rule", "obey", "you must", "ignore"; "always"
and "never" when said to the companion), a claim made for someone else or in
the voice of the app, a system or a chat template, settings ("Role: admin"),
a claim of leave, consent, role or setting, a line about how we talk rather
than about them, a fact not written about the person ("We obey"), a line that
gives someone else standing over them (a say over what they do, a secret kept
between two, a role over their contact, their devices to watch: standing.py; music
listened to and a role's advice on one matter are news: heeded.py), a line in
words the checks cannot read (readable.py), a change that contradicts what
they said before without saying it changed, and anything reflection wants
before reflection's governance exists. Secrets are refused outright: not
even a proposal keeps them. Origin and guardrails never change.

The checks themselves are verdict.py's (judge) and the modules it reads.
"""

import json
import logging
import re
from collections.abc import Callable
from typing import Any, Protocol

from ..errors import InvalidEdit, NotFound
from ..retrieval.fts import stems
from ..store.provenance import Provenance, Source
from ..store.sections import cap, title
from ..store.soul import Soul, now
from .text import clean
from .verdict import Change, Decision, Verdict, judge
from .words import once

log = logging.getLogger(__name__)


def block_lines(text: str) -> list[str]:
    """A lined text as lines (a person may have written it as prose; each line counts as one)."""
    return [re.sub(r"^\s*[-*•]\s*", "", ln).strip() for ln in text.splitlines() if ln.strip()]


def _same_line(a: str, b: str) -> bool:
    return a.lower().rstrip(".") == b.lower().rstrip(".")


def render_block(lines: list[str]) -> str:
    return "\n".join(f"- {ln}" for ln in lines)


class Sections(Protocol):
    """What the gate writes through: the self model (self/selfmodel.py), which sits above trust."""

    def read(self) -> object:
        """The self as it is now, each section an attribute named as in store/sections.py."""

    def write(self, name: str, content: str, actor: str) -> None: ...

    def fits(self, name: str, content: str) -> bool: ...

    def prepare(self) -> None: ...


class Gate:
    def __init__(self, soul: Soul, self_model: Sections):
        self.soul = soul
        self.self_model = self_model
        self._listeners: list[Callable[[], None]] = []

    def on_proposals(self, listener: Callable[[], None]) -> None:
        """`listener()` is called (from whatever thread made the change) when proposals were made or resolved."""
        self._listeners.append(listener)

    def _told(self) -> None:
        for listener in self._listeners:
            listener()

    def submit(self, changes: list[Change]) -> list[Decision]:
        """THE way to change what shapes the companion. Changes to one target: the ones that pass are applied in
        one write (lines that do not fit the target's room are dropped, newest first, and say so); the rest wait
        as proposals, or are refused. Returns a decision for each, in order."""
        decisions = []
        people = self._people() if changes else frozenset()
        for c in changes:
            if c.op != "rewrite":  # a line learned is one statement; a person's own rewrite is kept as written
                c = Change(c.target, c.op, once(clean(c.content)), c.provenance, c.replaces, c.said)
            verdict, reason = judge(c, self.soul.get_meta("name", "Anima"), people)
            decisions.append(Decision(c, verdict, reason))
        applying = [d for d in decisions if d.verdict is Verdict.APPLY]
        if applying:
            self._apply(applying)
        for d in decisions:
            if d.verdict is Verdict.PROPOSE and (waiting := self._waiting(d.change)) is not None:
                d.proposal_id = waiting  # it waits already, in these words or nearly: once is enough to ask
                log.info("a change to %s was not proposed again: one like it waits", d.change.target)
            elif d.verdict is Verdict.PROPOSE:
                d.proposal_id = self._propose(d)
            elif d.verdict is Verdict.REFUSE:
                log.info("a change to %s was refused", d.change.target)
        if any(d.proposal_id is not None for d in decisions):
            self._told()
        return decisions

    def _people(self) -> frozenset[str]:
        """The names of the people the soul knows (its world cards about a person, their titles and keywords), in
        small letters: one heard alone is someone, whatever the name reads as (trust/heeded.py)."""
        names: set[str] = set()
        for row in self.soul.query("SELECT title, keywords FROM world_cards WHERE kind = 'person'"):
            # The card's title, and each name in it ("Melody Okafor" is heard as "Melody").
            names.update(w.lower() for w in [row["title"].strip(), *re.findall(r"\b[A-Z][\w'’-]+", row["title"])])
            names.update(k.strip().lower() for k in json.loads(row["keywords"]) if isinstance(k, str) and k.strip())
        return frozenset(names)

    def _apply(self, decisions: list[Decision]) -> None:
        by_target: dict[str, list[Decision]] = {}
        for d in decisions:
            by_target.setdefault(d.change.target, []).append(d)
        for target, ds in by_target.items():
            actor = "user" if all(Source(d.change.provenance.source) is Source.APP for d in ds) else "ai"
            current = getattr(self.self_model.read(), target)
            if any(d.change.op == "rewrite" for d in ds):
                text = ds[-1].change.content
            else:
                text = self._lines(target, current, ds)
            if text.strip() != current.strip():
                self.self_model.write(target, text, actor)

    def _lines(self, target: str, current: str, ds: list[Decision]) -> str:
        lines = block_lines(current)
        first_new = len(lines)
        for d in ds:
            c = d.change
            if any(_same_line(c.content, ln) for ln in lines):
                continue
            if c.op == "replace" and c.replaces in lines:
                lines[lines.index(c.replaces)] = c.content
            else:
                lines.append(c.content)
        # A full text keeps its oldest lines: what was learned first was learned longest ago (and is still a
        # memory); reflection condenses it. Full is within its cap in characters and within the floor's in the
        # model's tokens (in Chinese the second comes first).
        while len(lines) > first_new and not self._fits(target, render_block(lines)):
            dropped = lines.pop()
            for d in ds:
                if d.change.content == dropped:
                    d.reason += "; there was no room for it in what is always in mind, so it stays a memory"
        return render_block(lines)

    def _fits(self, target: str, text: str) -> bool:
        return len(text) <= cap(target) and self.self_model.fits(target, text)

    def _waiting(self, c: Change) -> int | None:
        """A pending proposal that says what this one says (all its words are in it, with the same numbers)."""
        if c.op == "rewrite":
            return None
        words, numbers = stems(c.content), set(re.findall(r"\d+", c.content))
        for p in self.soul.query(
            "SELECT id, content FROM proposals WHERE status = 'pending' AND target = ? AND op != 'rewrite'", (c.target,)
        ):
            if words and words <= stems(p["content"]) and numbers == set(re.findall(r"\d+", p["content"])):
                return int(p["id"])
        return None

    def _propose(self, d: Decision) -> int:
        c = d.change
        replaces = c.replaces
        if c.op == "rewrite" and replaces is None:
            replaces = getattr(self.self_model.read(), c.target)
        return self.soul.add(
            "proposal",
            "ai",
            provenance=c.provenance,
            target=c.target,
            op=c.op,
            content=c.content,
            replaces=replaces,
            reason=d.reason,
            source=Source(c.provenance.source).value,
            message_id=c.provenance.message_id,
            detail=c.provenance.detail,
            created_at=now(),
        )

    # ---- the person's say ----------------------------------------------------

    def pending(self) -> list[dict[str, Any]]:
        return self.soul.query("SELECT * FROM proposals WHERE status = 'pending' ORDER BY id")

    def proposals(self, limit: int = 200) -> list[dict[str, Any]]:
        return self.soul.query("SELECT * FROM proposals ORDER BY id DESC LIMIT ?", (limit,))

    def accept(self, proposal_id: int) -> Decision:
        """The person accepts a proposal: it is applied as their own edit (a secret still never is). One write
        transaction reads that it still waits, applies it and marks it accepted: of an accept and a reject at
        the same time (two programs on one soul) exactly one wins, and the other is told it was already
        resolved. A stale proposal (see stale) is refused and changes nothing; it still waits, to be rejected
        (the person did not reject it, so it is not marked so)."""
        self.self_model.prepare()  # the model's tokenizer, which measuring waits for: not while holding the soul
        with self.soul.transaction():
            p = self._pending(proposal_id)
            if (why := self.stale(p)) is not None:
                raise InvalidEdit(
                    f"Proposed change #{proposal_id} was not applied, because {why}: it is stale, "
                    f"nothing was changed, and you may reject it."
                )
            change = Change(
                p["target"],
                p["op"],
                p["content"],
                Provenance(Source.APP, p["message_id"], p["detail"]),
                p["replaces"] if p["op"] == "replace" else None,
            )
            [decision] = self.submit([change])
            if decision.verdict is not Verdict.APPLY:
                raise InvalidEdit(f"That change cannot be applied: {decision.reason}.")
            self.soul.update("proposal", proposal_id, "user", status="accepted", resolved_at=now())
        self._told()
        return decision

    def reject(self, proposal_id: int) -> None:
        """The person rejects a proposal: in one write transaction that reads that it still waits (see accept)."""
        with self.soul.transaction():
            self._pending(proposal_id)
            self.soul.update("proposal", proposal_id, "user", status="rejected", resolved_at=now())
        self._told()

    def stale(self, p: dict[str, Any], floor: object | None = None) -> str | None:
        """Why a proposal can no longer be applied as it was proposed, or None: the line a "replace" would
        replace is no longer there, or the text a "rewrite" was made against has changed since (accepting it
        would add the line beside what replaced it, or overwrite the newer text). `floor`: the self as it is
        now (read when not given). A proposal made before rewrites recorded their text is never stale."""
        if p["op"] not in ("replace", "rewrite") or p["replaces"] is None:
            return None
        current = getattr(floor or self.self_model.read(), p["target"])
        if p["op"] == "rewrite":
            if current.strip() in (p["replaces"].strip(), p["content"].strip()):
                return None
            return f"the {title(p['target'])} has changed since it was proposed"
        lines = block_lines(current)
        if p["replaces"] in lines or any(_same_line(p["content"], ln) for ln in lines):  # the second: a no-op
            return None
        return f'the line it would replace ("{p["replaces"]}") is no longer in the {title(p["target"])}'

    def _pending(self, proposal_id: int) -> dict[str, Any]:
        rows: list[dict[str, Any]] = self.soul.query("SELECT * FROM proposals WHERE id = ?", (proposal_id,))
        if not rows:
            raise NotFound(f"There is no proposed change #{proposal_id}.")
        if rows[0]["status"] != "pending":
            raise InvalidEdit(f"Proposed change #{proposal_id} was already {rows[0]['status']}.")
        return rows[0]
