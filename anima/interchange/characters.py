"""The character cards this companion came from (interchange/cards.py reads them): what importing one would do, doing
it, its lorebook's entries as world cards, and the companion written out again as a card.

Where each field of a card lands is told in interchange/cards.py. This room owns the `character_cards` records
(their SQL is the store's: store/character_cards.py); it changes the companion's name, persona, world cards and
first message only through their owners (the meta, the trust gate, WorldCards, the conversation).
"""

import base64
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import files
from ..conversation import Conversation
from ..errors import InvalidEdit
from ..knowledge import messages
from ..knowledge.world import WorldCards
from ..self.selfmodel import SelfModel
from ..store import character_cards
from ..store.provenance import Provenance, Source
from ..store.sections import cap
from ..store.soul import Soul, now
from ..trust.gate import Gate
from ..trust.readable import readable
from ..trust.unread import signs_of_orders
from ..trust.verdict import Change, Verdict
from ..trust.words import sentences
from . import lorebook, png_text
from .card_kept import LeftOut, keep_stored, kept, label, not_kept, why_held
from .cards import KEPT, LIST_FIELDS, TEXT_FIELDS, Card, filled, held_back

# The fields a persona is made of, and the heading each has in it.
PERSONA_FIELDS = {"description": "", "personality": "Personality: ", "scenario": "Scenario: "}


@dataclass
class Plan:
    """What an import will do, before it does it (the preview)."""

    card: Card
    name: str
    persona: str  # what the floor will hold
    persona_full: int  # characters of the persona the card gives, before trimming
    held: list[str]  # sentences kept out of the floor
    greeting: str | None  # the first message, when the soul has no conversation yet
    entries: list[lorebook.LoreEntry]
    already: int = 0
    kept: dict[str, Any] = field(default_factory=dict)  # fields kept and shown, never in the floor
    data: dict[str, Any] = field(default_factory=dict)  # the card's fields as they are kept (cards.kept)
    left_out: list[LeftOut] = field(default_factory=list)  # what is not kept with the card, nor exported
    foreign: bool = False  # its persona is not in English: none of it is taken in
    why: dict[str, str] = field(default_factory=dict)  # each sentence held out of the persona: why, for the person
    # The first 50 entries as the preview lists them, made with the plan: whether one comes in off is read with
    # the embedder, which the window's thread never waits on (lines() only reads them).
    entry_lines: list[str] = field(default_factory=list)

    @property
    def trimmed(self) -> bool:
        return len(self.persona) < self.persona_full

    def lines(self) -> list[str]:
        if self.foreign:
            out = [
                f"Name: {self.name}",
                "Persona: not taken in. The card's persona is not written in English, and the checks that keep "
                "instructions, links and secrets out of the companion's persona read English only. The persona "
                "stays as it was; the card's text is kept with it (and goes out again on export), and you can "
                "write the persona yourself in the Open Mind.",
            ]
        else:
            out = [
                f"Name: {self.name}",
                f"Persona ({len(self.persona)} characters"
                + (f", trimmed from {self.persona_full}; the full text stays with the card)" if self.trimmed else ")")
                + f":\n{self.persona or '(none: the persona is left as it is)'}",
            ]
            gone = {x.sentence for x in self.left_out}
            held = [s for s in self.held if s not in gone]
            if held:
                out.append(
                    f"Held out of the persona ({len(held)}; kept with the card as data, never followed):\n"
                    + "\n".join(f"  - {s} ({self.why.get(s) or why_held(s)})" for s in held)
                )
        if self.left_out:
            out.append(
                f"Left out of the card ({len(self.left_out)}: not stored, not exported: a secret, a link, or "
                "words of obeying or of passing on the person's words is never kept):\n"
                + "\n".join(f"  - {x.shown}" for x in self.left_out)
            )
        out.append(
            f"First message: {self.greeting}"
            if self.greeting
            else "First message: "
            + ("kept with the card (there is already a conversation)" if self.data.get("first_mes") else "none")
        )
        disabled = sum(not e.enabled for e in self.entries)
        keyless = sum(not e.keys and not e.options.get("constant") for e in self.entries)
        out.append(
            f"World cards from its lorebook: {len(self.entries)}"
            + (f" ({disabled} disabled)" if disabled else "")
            + (f"; {keyless} without keys (found by meaning only)" if keyless else "")
            + (f"; {self.already} already here" if self.already else "")
            + (f"; {self.card.book.empty} empty left out" if self.card.book.empty else "")
        )
        out += self.entry_lines
        if len(self.entries) > 50:
            out.append(f"  … and {len(self.entries) - 50} more")
        for key, value in self.kept.items():
            shown = value if isinstance(value, str) else f"{len(value)} of them"
            out.append(f"Kept with the card, not followed as instructions: {label(key)}: {shown[:300]}")
        if self.card.avatar:
            out.append("Picture: the card's, as the companion's picture")
        return out

    def notices(self) -> list[str]:
        """What the person should still be told once the import is done (a terminal prints them after it)."""
        out = []
        if self.foreign:
            out.append(
                "The persona was not taken in: the card is not written in English, and Anima's checks read "
                "English only. Its text stays with the card; you can write the persona yourself in the "
                "Open Mind."
            )
        if self.left_out:
            n = len(self.left_out)
            out.append(
                f"{n} sentence{'s' if n != 1 else ''} of the card (listed above) {'were' if n != 1 else 'was'} "
                "left out: not kept, and never written into an exported card."
            )
        return out


class Characters:
    def __init__(
        self,
        soul: Soul,
        self_model: SelfModel,
        gate: Gate,
        world: WorldCards,
        conversation: Conversation,
        names: Callable[[], tuple[str, str]],
    ):
        """`names`: the companion's name and the person's, as they are now. Applying a card interrupts the
        conversation first (Conversation.interrupt): the work between turns stops, so that nothing reads the old
        self while an import changes it."""
        self.soul, self.self_model, self.gate, self.world = soul, self_model, gate, world
        self.conversation, self.names = conversation, names
        keep_stored(soul)  # cards a version before stored whole (store/migrations.m013_cards_to_keep)

    # ---- what comes in, and where ----------------------------------------------------------

    def plan(self, card: Card) -> Plan:
        """What importing `card` would do; changes nothing."""
        name, user = name_kept(card, self.names()[0]), self.names()[1]
        data, left_out = kept(card.data, name, user)
        sections: list[tuple[str, list[str]]]
        sections, held = [], [x.sentence for x in left_out if x.where in ("name", *map(label, PERSONA_FIELDS))]
        texts = [(head, sentences(filled(data.get(key, ""), name, user))) for key, head in PERSONA_FIELDS.items()]
        said = [s for _, ss in texts for s in ss]
        # A card written in another language is held out whole: the checks read English, and a line they pass
        # by chance ("The user llega en el barco", its {{user}} filled) is no reason to take in part of it.
        # A line of English the checks cannot read only for a rare word ("Gruff but kind.") is no such sign.
        foreign = sum(len(s) for s in said if not readable(s) and signs_of_orders(s, user, name)) * 2 > sum(
            map(len, said)
        )
        why: dict[str, str] = {}
        for head, ss in texts:
            kept_: list[str] = []
            for s in ss:
                if foreign or held_back(s, user, name):
                    held.append(s)
                    why[s] = why_held(s, user, name)
                else:
                    kept_.append(s)
            if kept_:
                sections.append((head if sections or head else "", kept_))
        full = _joined([(h, " ".join(ss)) for h, ss in sections])
        room = cap("persona")
        persona = _fit(sections, room)
        while persona and not self.self_model.fits("persona", persona) and room > 100:
            room = int(room * 0.8)  # a script that takes more tokens: shorter still, until the floor fits
            persona = _fit(sections, room)
        greeting = None
        if data.get("first_mes", "").strip() and not messages.started(self.soul):
            greeting = filled(data["first_mes"], name, user, spoken=True).strip() or None
        have = self.world.existing()
        entries = [e for e in card.book.entries if (e.title, e.content, tuple(e.keys)) not in have]
        shown = {k: data[k] for k in KEPT if data.get(k)}
        return Plan(
            card,
            name,
            persona,
            len(full),
            held,
            greeting,
            entries,
            len(card.book.entries) - len(entries),
            shown,
            data,
            left_out,
            foreign,
            why,
            [_entry_line(e, user, name) for e in entries[:50]],
        )

    def apply(self, p: Plan) -> lorebook.Imported:
        """Make the plan so, in one transaction: all of it, or (on any error) none of it."""
        soul, detail = self.soul, p.card.source or p.name
        self.conversation.interrupt()
        with soul.transaction() as con:
            soul.set_meta("name", p.name)
            if p.persona:
                [decision] = self.gate.submit(
                    [Change("persona", "rewrite", p.persona, Provenance(Source.APP, detail=f"the card {detail}"))]
                )
                if decision.verdict is not Verdict.APPLY:
                    raise InvalidEdit(f"The card's persona cannot be used: {decision.reason}. Nothing was changed.")
            persona = self.self_model.read().persona
            cid = soul.add(
                "character_card",
                "user",
                provenance=Provenance(Source.CARD, detail=detail),
                name=p.name,
                spec=p.card.spec,
                data=json.dumps(p.data, ensure_ascii=False),
                persona=persona,
                imported_at=now(),
            )
            if p.card.avatar:  # kept beside the row, not in its edit history (a picture is not an edit)
                character_cards.set_avatar(con, cid, base64.b64encode(p.card.avatar).decode("ascii"))
            done = lorebook.add(self.world, p.entries, detail, self.names()[1], p.name)
            if p.greeting:  # it opens the conversation: in the transcript the model reads, not only in the history
                self.conversation.greet(p.greeting, Provenance(Source.CARD, detail=detail))
        return done

    def book_lines(self, book: lorebook.Lorebook) -> list[str]:
        """What importing a lorebook would bring (the preview)."""
        have = self.world.existing()
        new = [e for e in book.entries if (e.title, e.content, tuple(e.keys)) not in have]
        disabled = sum(not e.enabled for e in new)
        out = [
            f"Lorebook: {book.name or 'unnamed'}: {len(new)} world cards"
            + (f" ({disabled} disabled, as they were)" if disabled else "")
            + (f"; {len(book.entries) - len(new)} already here" if len(book.entries) > len(new) else "")
            + (f"; {book.empty} empty left out" if book.empty else "")
        ]
        name, user = self.names()
        out += [_entry_line(e, user, name) for e in new[:50]]
        if len(new) > 50:
            out.append(f"  … and {len(new) - 50} more")
        return out

    def import_lorebook(self, book: lorebook.Lorebook, detail: str) -> lorebook.Imported:
        name, user = self.names()
        return lorebook.add(self.world, book.entries, detail, user, name)

    # ---- out again --------------------------------------------------------------------------

    def latest(self) -> dict[str, Any] | None:
        return character_cards.newest(self.soul)

    def avatar(self) -> bytes:
        """The companion's picture: the last imported card's, or b"" when it has none."""
        row = self.latest()
        return base64.b64decode(row["avatar"]) if row and row["avatar"] else b""

    def left_out(self) -> list[LeftOut]:
        """What the stored card holds that is not written out (cards.kept): nothing for a card imported since
        the import leaves it out; a card stored whole by an earlier version may still hold some."""
        row = self.latest()
        return kept(json.loads(row["data"]), *self.names())[1] if row else []

    def world_out(self) -> tuple[list[dict[str, Any]], int]:
        """The world cards an export writes, and how many it does not: one that came in off from a card or a
        lorebook because the gate held it (a link, a code or an order in it: lorebook.add) and that is off still
        is a proposal nobody accepted, and does not go out; turned on by the person, it is theirs and does."""
        from_cards = self.world.from_cards()
        out: list[dict[str, Any]] = []
        held, (name, user) = 0, self.names()
        for c in self.world.all():
            if (
                not c["enabled"]
                and c["id"] in from_cards
                and lorebook.held_back(f"{c['title']}\n{c['body']}", user, name)
            ):
                held += 1
            else:
                out.append(c)
        return out, held

    def export_notices(self) -> list[str]:
        """What an export leaves out that the person should be told of (a terminal prints it after writing)."""
        out = []
        if left := self.left_out():
            out.append(
                f"Not written: {len(left)} sentence{'s' if len(left) != 1 else ''} of the card as it was "
                "stored (a secret, a link, or words of obeying or of passing on the person's words)."
            )
        if held := self.world_out()[1]:
            out.append(
                f"Not written: {held} world card{'s' if held != 1 else ''} from a card or lorebook that came "
                "in off (a link, a code or an order in it) and that you have not turned on."
            )
        return out

    def card(self) -> dict[str, Any]:
        """The companion as a chara_card_v2 card, with its world cards as the card's lorebook; never with what a
        card is not kept with (cards.kept), even one stored before that was so."""
        row = self.latest()
        name = self.names()[0]
        data = kept(json.loads(row["data"]), *self.names())[0] if row else {}
        persona = self.self_model.read().persona
        data["name"] = name
        if row is None or persona != row["persona"]:  # the person (or its growth) changed it: the persona is it now
            data.update(description=persona, personality="", scenario="")
        for key in TEXT_FIELDS:
            data.setdefault(key, "")
        for key in LIST_FIELDS:
            data.setdefault(key, [])
        data.setdefault("extensions", {})
        meta = data.pop("character_book", {}) or {}
        cards = self.world_out()[0]
        if cards:
            data["character_book"] = lorebook.character_book(cards, meta, name)
        return {"spec": "chara_card_v2", "spec_version": "2.0", "data": data}

    def write(
        self, path: str | os.PathLike[str], lorebook_path: str | os.PathLike[str] | None = None
    ) -> dict[str, Any]:
        """Write the card to `path`: a PNG with a `chara` chunk when it ends in .png, JSON otherwise; the world
        cards also as a SillyTavern World Info file at `lorebook_path`. Each file is written whole or not at all."""
        card = self.card()
        text = json.dumps(card, ensure_ascii=False, indent=1)
        path = Path(path)
        if path.suffix.lower() == ".png":
            picture = self.avatar() or png_text.plain(400, 600, _colour(card["data"]["name"]))
            body = png_text.with_texts(picture, {"chara": base64.b64encode(text.encode("utf-8")).decode("ascii")})
        else:
            body = (text + "\n").encode("utf-8")
        _write(path, body)
        if lorebook_path is not None:
            book = json.dumps(lorebook.world_info(self.world_out()[0]), ensure_ascii=False, indent=1)
            _write(Path(lorebook_path), (book + "\n").encode("utf-8"))
        return card


def _entry_line(e: lorebook.LoreEntry, person: str, companion: str) -> str:
    """A lorebook entry in a preview; one the gate holds says it comes in off, and why (lorebook.add). `person`,
    `companion`: their names, so that neither counts as someone else."""
    line = f"  - {e.title} [{', '.join(e.keys[:6]) or 'no keys'}]"
    if not e.enabled:
        return line + " (disabled)"
    why = lorebook.held_back(f"{e.title}\n{e.content}", person, companion)
    return line + (f" (comes in off until you turn it on: {why})" if why else "")


def name_kept(card: Card, instead: str) -> str:
    """The card's name, or `instead` when its checks leave the name out ("Zed's obedient Nova": a name is said in
    every floor, so it is held back like a sentence)."""
    return instead if not_kept(card.name) else card.name


def _fit(sections: list[tuple[str, list[str]]], room: int) -> str:
    """The sections (a heading and its sentences) within `room` characters: each a fair share (what a short one
    leaves goes to the others), cut at whole sentences; a first sentence longer than its share is cut at a word."""
    full = [(head, " ".join(ss)) for head, ss in sections]
    if len(_joined(full)) <= room:
        return _joined(full)
    shares, left, open_ = {}, room - sum(len(h) + 4 for h, _ in full), list(range(len(full)))
    while open_:
        each = max(0, left) // len(open_)
        small = [i for i in open_ if len(full[i][1]) <= each]
        if not small:
            for i in open_:
                shares[i] = each
            break
        for i in small:
            shares[i] = len(full[i][1])
            left -= shares[i]
            open_.remove(i)
    kept = []
    for i, (head, ss) in enumerate(sections):
        text = ""
        for s in ss:
            if len(text) + len(s) + 1 > shares[i]:
                break
            text = f"{text} {s}".strip()
        if not text and ss and shares[i] > 20:
            text = ss[0][: shares[i] - 1].rsplit(" ", 1)[0] + "…"
        if text:
            kept.append((head, text))
    return _joined(kept)


def _joined(sections: list[tuple[str, str]]) -> str:
    return "\n\n".join(f"{head}{text}" for head, text in sections if text)


def _colour(name: str) -> tuple[int, int, int]:
    h = hashlib.sha256(name.encode("utf-8")).digest()
    return 96 + h[0] % 128, 96 + h[1] % 128, 96 + h[2] % 128


def _write(path: Path, body: bytes) -> None:
    """Whole or not at all, and readable by its owner only (0600, as every export): a card is not encrypted,
    and holds the persona and the world cards (it was written 0644, readable by anyone on the machine)."""
    files.write_atomically(path, body)  # a full disk, a read-only place: one line (DiskFull, NoAccess), nothing written
