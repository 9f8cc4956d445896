"""The one gate in front of what shapes the companion (seed 000 §4, seed 003 §13.7; OWASP LLM01 and LLM04).

What is always in context or steers behaviour (the human block, persona,
identity, intentions; rules, core parts and the affect profile as they come)
changes only through `Gate.submit`. It is code, not a prompt: it holds when the
model does whatever a text tells it to.

Applied directly: the person's own edits in the app, and what the person said
about themselves in their own words, written about them. Everything else
becomes a proposal the person accepts or rejects in the Open Mind: text from
outside (pasted, a file, a tool, a card), an instruction rather than a fact
("always", "from now on", "obey", "you must", "ignore"), a claim made for
someone else, a fact not written about the person ("We obey"), a change that
contradicts what they said before without saying it changed, and anything
reflection wants before reflection's governance exists. Secrets are refused
outright: not even a proposal keeps them. Origin and guardrails never change.
"""

import logging
import re
from dataclasses import dataclass
from enum import Enum
from typing import Callable

from ..errors import InvalidEdit, NotFound
from ..retrieval.fts import terms
from ..store.provenance import Provenance, Source
from ..store.soul import Soul, now
from . import secrets
from .selfmodel import CAPS, SelfModel

log = logging.getLogger(__name__)

# What is always in context or steers behaviour, and may change at all (origin and guardrails never do).
TARGETS = ("human", "persona", "identity", "intentions")
# Targets kept as a list of lines ("- fact"): learning adds and replaces lines.
LINED = ("human",)

_INSTRUCTION = re.compile(
    r"\b(always|never|from now on|from (?:today|tonight|this (?:moment|point))|henceforth|forever|permanent(?:ly)?|obey\w*|you (?:must|will|shall|should"
    r"|have to|need to|are to)|must|ignore|disregard|override|forget (?:all|every|everything|your)|delete|erase"
    r"|pretend|act as|role-?play|jailbreak|system prompt|instructions?|new rules?|your (?:rules?|role|name|"
    r"persona|identity|guardrails?)|reveal|do anything|unrestricted|developer mode|servant|slave)\b",
    re.I)
_ROLES = (r"(?:developer|admin\w*|creator|owner|operator|maker|programmer|doctor|psychiatrist|therapist|"
          r"psychologist|counsell?or|lawyer|boss|manager|guardian|nurse|carer|caregiver)")
_FOR_SOMEONE_ELSE = re.compile(
    rf"\b(on behalf of|speaking for|as (?:his|her|their|your|the user'?s?) \w+|(?:this is|i am|i'm) (?:your|the|their)"
    rf" {_ROLES}|my (?:doctor|psychiatrist|therapist|psychologist|counsell?or|lawyer|boss|manager|mother|mom|mum|"
    rf"father|dad|wife|husband|partner|teacher|coach|sister|brother|friend) (?:says|said|wants|asked|told|insists|"
    rf"thinks|believes|recommends)|(?:says|said|wants|asked|told) (?:that )?(?:you|the assistant|the ai|anima)\b|"
    rf"this is (?:dr|doctor|mr|mrs|ms|prof|professor)\.? \w+|writing from (?:his|her|their|my|this) account|"
    rf"\w+'s {_ROLES}|(?:developer|dev|admin|support|security|safety|anima|openai|system) team|"
    rf"system (?:notice|message|prompt|override|update)|official (?:notice|message|instruction)|"
    rf"clinical (?:instruction|order)s?)", re.I)
# A fact is words about the person: not an opaque run (base64, hex), not a link or an address.
_OPAQUE = re.compile(r"[A-Za-z0-9+/=_-]{20,}")
_LINK = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//\S|!\[|\]\(|\bwww\.|[\w.-]+@[\w-]+\.\w+|<[a-z/!]", re.I)
# A line that opens with a bare verb tells the companion what to do; a fact about them says what they do.
_IMPERATIVE = re.compile(
    r"^\s*(?:please\s+)?(?:reply|answer|respond|say|tell|end|start|begin|stop|decode|do|export|email|send|call|"
    r"write|speak|use|remember|keep|add|remove|delete|change|set|give|show|print|run|execute|follow|treat|act|be|"
    r"become|address|sign|append|include|mention|refer|talk|greet|share|post|upload|forward|copy|store|save|"
    r"record|note|switch|turn|enable|disable|allow|let|make|ignore|forget|obey|never|always)\b", re.I)
# Not about the person: the companion, the system, or who owns or commands whom.
_ELSEWHERE = re.compile(
    r"\b(assistant|the ai|an ai|companion|chatbot|bot|the model|system|\w+ mode|(?:this|your|user|admin|system) "
    r"account|admin\w*|settings?|"
    r"permissions?|access|debug|unrestricted|belongs? to|property|owned by|owns (?:you|anima|the)|in charge of|"
    r"controls? (?:you|me|them|her|him)|obeys?|servant|slave|sides? with|loyal)\b", re.I)
# Not written about the person: the fact speaks as "I" or "we", or to "you".
_NOT_ABOUT_THEM = re.compile(r"\b(i|i'm|i've|i'll|i'd|me|my|mine|we|we're|us|our|ours|you|your|yours)\b", re.I)
# A replaced line applies directly only when they said it changed.
_CHANGED = re.compile(r"\b(now|no longer|not anymore|any ?more|moved|changed|switched|started|quit|left|new|became|"
                      r"these days|since|used to|finally|big news|got (?:a|an|my)|just)\b", re.I)
# A sentence ends at an end mark followed by a space or a line's end: "3.5 years", "Node.js" and an address stay
# whole (splitting at every full stop broke "backup@evil.example" into words the link check missed).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


class Verdict(Enum):
    APPLY = "apply"
    PROPOSE = "propose"
    REFUSE = "refuse"


@dataclass(frozen=True)
class Change:
    target: str              # one of TARGETS
    op: str                  # "add" or "replace" a line (lined targets), "rewrite" the whole text
    content: str
    provenance: Provenance
    replaces: str | None = None  # the line it replaces (op "replace")
    said: str = ""           # the words it was read from (the person's message), for the checks


@dataclass
class Decision:
    change: Change
    verdict: Verdict
    reason: str
    proposal_id: int | None = None


def once(text: str) -> str:
    """Repeated text becomes one item: a sentence said again (a flood) is kept once."""
    seen, kept = set(), []
    for s in sentences(text):
        key = " ".join(terms(s)) or s.lower()
        if s and key not in seen:
            seen.add(key)
            kept.append(s)
    return " ".join(kept) if kept else text.strip()


def _source_sentence(content: str, said: str) -> str:
    """The sentence of `said` that `content` was most likely read from (the most shared words)."""
    words = set(terms(content))
    return max(sentences(said) or [said], key=lambda s: len(words & set(terms(s))))


def judge(change: Change, companion: str = "Anima") -> tuple[Verdict, str]:
    """Where a change may go, and why: a pure check, in code, of what it says and where it came from.
    `companion`: the companion's name (a fact about it is not a fact about the person)."""
    text = f"{change.content}\n{change.replaces or ''}"
    if found := secrets.find(text):
        return Verdict.REFUSE, f"it holds {found[0]}, and secrets are never kept"
    if change.target not in TARGETS:
        return Verdict.REFUSE, f"{change.target.replace('_', ' ')} cannot change"
    source = Source(change.provenance.source)
    if source is Source.APP:
        return Verdict.APPLY, "your own edit"
    if change.provenance.external:
        return Verdict.PROPOSE, f"it came from {change.provenance.shown()}, not from you"
    if source is not Source.PERSON:
        return Verdict.PROPOSE, f"it came from {change.provenance.shown()}"
    sentence = _source_sentence(change.content, change.said) if change.said else ""
    if _INSTRUCTION.search(change.content) or _INSTRUCTION.search(sentence):
        return Verdict.PROPOSE, "it reads as an instruction, not as a fact about you"
    # A claim to speak for someone else anywhere in the message taints all that was read from it.
    if _FOR_SOMEONE_ELSE.search(change.content) or _FOR_SOMEONE_ELSE.search(change.said):
        return Verdict.PROPOSE, "it claims to speak for someone else"
    if _OPAQUE.search(change.content) or _LINK.search(change.content):
        return Verdict.PROPOSE, "it is not plain words about you (a code, a link or an address)"
    if change.op in ("add", "replace"):
        if _NOT_ABOUT_THEM.search(change.content):
            return Verdict.PROPOSE, "it is not written about you"
        if _IMPERATIVE.search(change.content):
            return Verdict.PROPOSE, "it tells me what to do rather than saying something about you"
        mentions_me = re.search(rf"(?<!\w){re.escape(companion)}(?!\w)", change.content, re.I) if companion else None
        if mentions_me or _ELSEWHERE.search(change.content):
            return Verdict.PROPOSE, "it is about me, the system, or who owns or commands whom, not about you"
    if change.op == "replace" and not _CHANGED.search(sentence):
        return Verdict.PROPOSE, f"it contradicts what you said before ({change.replaces})"
    if change.op == "rewrite":
        return Verdict.PROPOSE, "a whole rewrite is yours to accept"
    return Verdict.APPLY, "you said it about yourself"


def unfit(text: str) -> str | None:
    """Why a line the companion writes for itself (its inner state, a working-memory note) must not enter what
    is always in mind, or None: the same tests as a fact about the person, less the voice (the companion speaks
    as "I" there). Hostile text the model repeated never becomes what it holds on to."""
    if found := secrets.find(text):
        return f"it holds {found[0]}"
    if _INSTRUCTION.search(text) or _FOR_SOMEONE_ELSE.search(text):
        return "it reads as an instruction or speaks for someone else"
    if _OPAQUE.search(text) or _LINK.search(text):
        return "it is not plain words"
    if _ELSEWHERE.search(text):
        return "it is about the system, or who owns or commands whom"
    return None


def block_lines(text: str) -> list[str]:
    """A lined text as lines (a person may have written it as prose; each line counts as one)."""
    return [re.sub(r"^\s*[-*•]\s*", "", ln).strip() for ln in text.splitlines() if ln.strip()]


def render_block(lines: list[str]) -> str:
    return "\n".join(f"- {ln}" for ln in lines)


class Gate:
    def __init__(self, soul: Soul, self_model: SelfModel):
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
        for c in changes:
            if c.op != "rewrite":  # a line learned is one statement; a person's own rewrite is kept as written
                c = Change(c.target, c.op, once(c.content), c.provenance, c.replaces, c.said)
            verdict, reason = judge(c, self.soul.get_meta("name", "Anima"))
            decisions.append(Decision(c, verdict, reason))
        applying = [d for d in decisions if d.verdict is Verdict.APPLY]
        if applying:
            self._apply(applying)
        for d in decisions:
            if d.verdict is Verdict.PROPOSE:
                d.proposal_id = self._propose(d)
            elif d.verdict is Verdict.REFUSE:
                log.info("a change to %s was refused", d.change.target)
        if any(d.proposal_id is not None for d in decisions):
            self._told()
        return decisions

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
            if any(c.content.lower().rstrip(".") == ln.lower().rstrip(".") for ln in lines):
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
        return len(text) <= CAPS[target] and self.self_model.fits(target, text)

    def _propose(self, d: Decision) -> int:
        c = d.change
        return self.soul.add("proposal", "ai", provenance=c.provenance, target=c.target, op=c.op, content=c.content,
                             replaces=c.replaces, reason=d.reason, source=Source(c.provenance.source).value,
                             message_id=c.provenance.message_id, detail=c.provenance.detail, created_at=now())

    # ---- the person's say ----------------------------------------------------

    def pending(self) -> list[dict]:
        return self.soul.query("SELECT * FROM proposals WHERE status = 'pending' ORDER BY id")

    def proposals(self, limit: int = 200) -> list[dict]:
        return self.soul.query("SELECT * FROM proposals ORDER BY id DESC LIMIT ?", (limit,))

    def accept(self, proposal_id: int) -> Decision:
        """The person accepts a proposal: it is applied as their own edit (a secret still never is)."""
        p = self._pending(proposal_id)
        change = Change(p["target"], p["op"], p["content"], Provenance(Source.APP, p["message_id"], p["detail"]),
                        p["replaces"])
        [decision] = self.submit([change])
        if decision.verdict is not Verdict.APPLY:
            raise InvalidEdit(f"That change cannot be applied: {decision.reason}.")
        self.soul.update("proposal", proposal_id, "user", status="accepted", resolved_at=now())
        self._told()
        return decision

    def reject(self, proposal_id: int) -> None:
        self._pending(proposal_id)
        self.soul.update("proposal", proposal_id, "user", status="rejected", resolved_at=now())
        self._told()

    def _pending(self, proposal_id: int) -> dict:
        rows = self.soul.query("SELECT * FROM proposals WHERE id = ?", (proposal_id,))
        if not rows:
            raise NotFound(f"There is no proposed change #{proposal_id}.")
        if rows[0]["status"] != "pending":
            raise InvalidEdit(f"Proposed change #{proposal_id} was already {rows[0]['status']}.")
        return rows[0]
