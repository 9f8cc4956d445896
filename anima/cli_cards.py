"""`python -m anima import-card FILE [--into-new]`, `import-lorebook FILE`, `export-card FILE [--lorebook FILE]`:
character cards and lorebooks (interchange/cards.py, interchange/lorebook.py) from the terminal.

Each import prints what it brings (the same preview the window shows) and then what it did, and again what
was not taken in (a persona not in English) or not kept (a card's secrets, links and words of obeying: they are
never stored nor exported); a card that cannot come in is refused with one line, and nothing is changed. An
export says what it did not write. `--into-new` makes the companion only to bring the card into it (beside the
one of the data folder, in companions/, when one lives there; `--companion NAME` names it): when the import then
fails, what the command made (the home, or what it added to a folder with no companion in it) is
removed again, so the same command can be tried again, and a home that was there is never touched.
"""

import argparse
import os
import shutil
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import CompanionExists, KnownError

if TYPE_CHECKING:
    from .companion import Companion
    from .interchange.cards import Card
    from .interchange.characters import Plan
    from .interchange.lorebook import Imported
    from .store import Home


def _new_companion(args: argparse.Namespace, name: str, home: "Home") -> "Companion":
    """A new companion named `name`, in the home given (which must have none yet)."""
    from .cli_open import PASSPHRASE_ENV, ask
    from .companion import Companion
    from .models.embedder import MiniLMEmbedder
    from .models.llama import LlamaChatModel

    passphrase = ask(PASSPHRASE_ENV, "Choose a passphrase: ", confirm=True, choosing="a passphrase", known=(name,))
    return Companion.create(home, passphrase, name, LlamaChatModel(getattr(args, "model", None)), MiniLMEmbedder())


class _Made:
    """What making a home in `directory` adds, to take away again: the folder itself and any above it that were
    not there (all of it then), or else the entries in it that were not there. Nothing that was there before."""

    def __init__(self, directory: Path):
        self.top, at = None, directory.absolute()
        while not at.exists() and at != at.parent:
            self.top, at = at, at.parent
        self.dir = directory.absolute()
        self.before = set(os.listdir(self.dir)) if self.top is None and self.dir.is_dir() else None

    def undo(self) -> None:
        if self.top is not None:
            shutil.rmtree(self.top, ignore_errors=True)
            return
        if self.before is None or not self.dir.is_dir():
            return
        for name in set(os.listdir(self.dir)) - self.before:
            path = self.dir / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def _bring(companion: "Companion", card: "Card") -> "tuple[Plan, Imported]":
    companion.wait_until_indexed()
    plan = companion.characters.plan(card)
    print("\n".join(plan.lines()))
    return plan, companion.characters.apply(plan)


def cmd_import_card(args: argparse.Namespace) -> int:
    from .cli_open import open_companion
    from .interchange import cards
    from .interchange.characters import name_kept
    from .store import Home
    from .store.companions import Companions
    from .store.home import DEFAULT_NAME

    card = cards.read(args.path)  # refused here, before anything is opened or made
    if not args.into_new:
        with closing(open_companion(args)) as companion:
            plan, done = _bring(companion, card)
    else:
        home = Home(args.home)
        name = name_kept(card, DEFAULT_NAME)  # never one the card's checks left out: export would write it
        if home.exists():
            if getattr(args, "companion", None):
                raise KnownError(
                    f"A companion already lives in {home.dir}: import the card into it (without "
                    "--into-new), or name a new one with --companion."
                )
            # The card's character becomes a companion of its own beside the one here (store/companions.py).
            companions = Companions(getattr(args, "data", None) or args.home)
            home = companions.new_home(companions.free_name(name))
        made = _Made(home.dir)
        try:
            with closing(_new_companion(args, name, home)) as companion:
                plan, done = _bring(companion, card)
        except CompanionExists:
            raise  # another program made one here while the passphrase was asked: it is theirs, and stays
        except BaseException:
            made.undo()  # the companion was made for this card: without it, it goes (closed first, above)
            raise
        print(f"Created {name} in {home.dir}.", file=sys.stderr)
    print(f"Imported {args.path}: {plan.name}, with {done.summary()}.")
    for notice in plan.notices():  # said again after the preview, so the last lines say it too
        print(notice)
    return 0


def cmd_import_lorebook(args: argparse.Namespace) -> int:
    from .cli_open import open_companion
    from .interchange import cards

    book = cards.read_lorebook(args.path)
    with closing(open_companion(args, talk=False)) as companion:
        companion.wait_until_indexed()
        print("\n".join(companion.characters.book_lines(book)))
        done = companion.characters.import_lorebook(book, Path(args.path).name)
    print(f"Imported {args.path}: {done.summary()}.")
    return 0


def cmd_export_card(args: argparse.Namespace) -> int:
    from .cli_open import open_companion

    with closing(open_companion(args, talk=False)) as companion:
        card = companion.characters.write(args.path, args.lorebook)
        notices = companion.characters.export_notices()
    entries = len((card["data"].get("character_book") or {}).get("entries", []))
    print(
        f"Wrote {card['data']['name']} to {args.path} as a chara_card_v2 "
        f"{'PNG' if Path(args.path).suffix.lower() == '.png' else 'JSON'} card with {entries} lorebook entries"
        + (f", and the world cards to {args.lorebook} as a SillyTavern World Info file." if args.lorebook else ".")
    )
    for notice in notices:
        print(notice)
    print(
        "Warning: a card is NOT encrypted: anyone who can read the file can read the persona and the world cards.",
        file=sys.stderr,
    )
    return 0


def add_parsers(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    ic = sub.add_parser(
        "import-card",
        help="bring in a character card (SillyTavern chara_card_v2 / v3, PNG or JSON, or an Agnai character)",
    )
    ic.add_argument("path", metavar="FILE")
    ic.add_argument(
        "--into-new",
        action="store_true",
        help="make a new companion from it (beside the one here, named after the card, or --companion NAME)",
    )
    ic.add_argument("--model", help=argparse.SUPPRESS)
    ic.set_defaults(func=cmd_import_card)
    il = sub.add_parser(
        "import-lorebook",
        help="bring in a lorebook (SillyTavern World Info, NovelAI, Agnai or RisuAI JSON) as world cards",
    )
    il.add_argument("path", metavar="FILE")
    il.add_argument("--model", help=argparse.SUPPRESS)
    il.set_defaults(func=cmd_import_lorebook)
    ec = sub.add_parser(
        "export-card",
        help="write the companion as a chara_card_v2 card (PNG if FILE ends in .png, "
        "JSON otherwise), its world cards as the card's lorebook",
    )
    ec.add_argument("path", metavar="FILE")
    ec.add_argument("--lorebook", metavar="FILE", help="also write the world cards as a SillyTavern World Info file")
    ec.add_argument("--model", help=argparse.SUPPRESS)
    ec.set_defaults(func=cmd_export_card)
