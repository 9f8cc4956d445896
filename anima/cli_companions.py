"""`python -m anima companions [list | new NAME | default NAME | remove NAME --yes]`: the companions of the data
folder (store/companions.py). Every other command works on one of them: `--companion NAME` (cli.py), else the one
the settings open by default, else the first.
"""

import argparse
import os
import sys

from .cli_open import PASSPHRASE_ENV, ask
from .errors import KnownError
from .settings import Settings, choose_companion
from .store.companions import MAIN, Companions


def cmd_companions(args: argparse.Namespace) -> int:
    companions = Companions(args.data)
    action = args.action or "list"
    if action == "list":
        listed = companions.list()
        if not listed:
            print(f"There is no companion in {companions.data} yet; `python -m anima chat` makes the first.")
        chosen = (Settings.load().companion or MAIN).casefold()
        width = max((len(c.name) for c in listed), default=0)
        for c in listed:
            mark = "*" if c.name.casefold() == chosen else " "
            print(f"{mark} {c.name:<{width}}  {c.home.dir}")
        if listed:
            print("(* opens by default; its own name shows once it is unlocked)")
    elif action == "new":
        home = companions.new_home(args.name)
        home.ensure_vacant()
        name = os.environ.get("ANIMA_NAME") or args.name.strip()
        passphrase = ask(PASSPHRASE_ENV, "Choose a passphrase: ", confirm=True, choosing="a passphrase", known=(name,))
        home.create(passphrase, name=name).close()
        print(
            f"Created {name} in {home.dir}. Talk to it with `python -m anima --companion {args.name.strip()!r} chat`."
        )
        if args.default:
            choose_companion(args.name)
            print("It opens by default from now on.")
    elif action == "default":
        listed_one = companions.find(args.name)
        choose_companion(listed_one.name)
        print(f"{listed_one.name} opens by default from now on, in the window and here.")
    elif action == "remove":
        listed_one = companions.find(args.name)
        if not args.yes:
            raise KnownError(
                f"Removing {listed_one.name} deletes its soul for good (no one can read it again, not even with "
                "its passphrase): add --yes to remove it. Nothing was changed."
            )
        passphrase = ask(PASSPHRASE_ENV, f"Passphrase of {listed_one.name}: ")
        companions.remove(listed_one.name, passphrase)
        if (Settings.load().companion or MAIN).casefold() == listed_one.name.casefold():
            choose_companion(MAIN)  # the first one opens by default again
        print(f"Removed {listed_one.name}: its soul and its key are deleted.", file=sys.stderr)
    return 0


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    co = sub.add_parser("companions", help="the companions in the data folder: list, new, default, remove")
    co.set_defaults(func=cmd_companions)
    cos = co.add_subparsers(dest="action")
    cos.add_parser("list", help="each companion, by the name of its folder (the default one marked *)")
    cn = cos.add_parser("new", help="make a new companion, with its own passphrase")
    cn.add_argument("name", metavar="NAME", help="its name (and its folder's); $ANIMA_NAME names the soul otherwise")
    cn.add_argument("--default", action="store_true", help="open it by default from now on")
    cd = cos.add_parser("default", help="open this companion by default, in the window and the terminal")
    cd.add_argument("name", metavar="NAME")
    cr = cos.add_parser("remove", help="delete a companion for good (its passphrase is asked)")
    cr.add_argument("name", metavar="NAME")
    cr.add_argument("--yes", action="store_true", help="yes, delete it for good")
