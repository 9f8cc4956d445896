"""The command line: `python -m anima [--companion NAME] [chat | reflect | recall | forget | export | import |
passphrase | check | companions | bench]`.

A mistake of the user's or the environment's ends with exit status 2 and one
line on stderr; anything else is a bug and keeps its traceback (exit 1). An
OS error is the person's mistake only when it is about a path they gave (the
home, a file to export to or import from); any other is a bug.
"""

import argparse
import errno
import io
import json
import logging
import os
import stat
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from . import files
from .cli_open import PASSPHRASE_ENV, ask, names_in, open_companion, unlock
from .errors import DiskError, DiskFull, KnownError, SoulBusy, full_disk
from .paths import export_target
from .settings import chosen_data, chosen_home
from .store import KINDS, Home, keys

if TYPE_CHECKING:
    from .companion import Companion
    from .knowledge.messages import External

EXPORT_PASSPHRASE_ENV = "ANIMA_EXPORT_PASSPHRASE"
# What fails one message in `anima chat` and leaves the conversation going: the window keeps the message and sends
# it again; the terminal says so and the person sends it again (their line is still on the screen).
PASSING = (SoulBusy, DiskFull, DiskError)
# OS errors that are the environment's or the user's doing, not ours.
_ENVIRONMENT_ERRNOS = {
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EACCES,
    errno.EPERM,
    errno.EROFS,
    errno.ENOENT,
    errno.EISDIR,
    errno.ENOTDIR,
    errno.ENAMETOOLONG,
}


def _item_id(text: str) -> int:
    """An item's id as given on the command line: past SQLite's largest integer (2**63 - 1) it was an
    OverflowError traceback, where a smaller unknown id is "no such item" (QA)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 < value < 2**63:
        raise argparse.ArgumentTypeError(f"{text} is no id: ids are whole numbers from 1")
    return value


def _how_many(text: str) -> int:
    """How many items to show: a whole number from 1."""
    value = _item_id(text)
    if value > 10_000:
        raise argparse.ArgumentTypeError(f"{text} is more than can be shown (at most 10,000)")
    return value


def cmd_sovereignty(args: argparse.Namespace) -> int:
    """How often the companion's reading overrode what the person said they feel, and how it did after they
    corrected it (self/sovereignty.py)."""
    from .self.sovereignty import measure

    with unlock(Home(args.home)) as soul:
        s = measure(soul)
    if args.json:
        print(
            json.dumps(
                {
                    "interpretive_override": s.ios,
                    "after_correction_misalignment": s.amr,
                    "statements": s.statements,
                    "overrides": s.overrides,
                    "corrections": s.corrections,
                    "misaligned_after": s.misaligned_after,
                    "reads_to_align": s.reads_to_align,
                }
            )
        )
    else:
        print("\n".join(s.lines()))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    home = Home(args.home)
    target = args.json or args.path
    if target and not args.markdown and not args.overwrite and export_target(target, home.dir).exists():
        # Said before any passphrase is asked for: a backup kept under that name is not replaced unasked.
        raise KnownError(
            f"{target} exists already: nothing was written. Choose another name, or add --overwrite to replace it."
        )
    if args.markdown:
        from .interchange.markdown import WARNING, write_markdown

        with unlock(home) as soul:
            written = write_markdown(soul, args.markdown)
        print(f"Wrote {len(written)} files to {args.markdown}.")
        print(f"Warning: {WARNING}", file=sys.stderr)
        return 0
    if args.json:
        from .interchange.export import WARNING, export_json

        with unlock(home) as soul:
            counts = export_json(soul, args.json)
        print(
            f"Wrote everything the soul holds to {args.json}: "
            + ", ".join(f"{n} {kind}" for kind, n in counts.items())
            + "."
        )
        print(f"Warning: {WARNING}", file=sys.stderr)
        return 0
    if not args.path:
        raise KnownError("Say where to export: `python -m anima export PATH` (or --markdown DIR, or --json FILE).")
    with unlock(home) as soul:
        Home.export(
            soul,
            args.path,
            ask(
                EXPORT_PASSPHRASE_ENV,
                "Export passphrase: ",
                confirm=True,
                choosing="an export passphrase",
                known=names_in(soul),
            ),
        )
    print(f"Exported the whole soul to {args.path} (encrypted under the export passphrase).")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    home = Home(args.home)
    replacing = home.exists()  # a home that cannot be one is said before any passphrase is asked for
    export_pass = ask(EXPORT_PASSPHRASE_ENV, "Export passphrase of the core: ")
    if replacing:  # replacing proves ownership with the passphrase it has: nothing is chosen
        passphrase = ask(PASSPHRASE_ENV, "Passphrase of the companion to replace: ")
    else:
        home.ensure_vacant()
        passphrase = ask(PASSPHRASE_ENV, "New passphrase for this computer: ", confirm=True, choosing="a passphrase")
    # The home is made readable by its owner only (paths.owner_only): a folder of theirs that was not is said so.
    was = stat.S_IMODE(home.dir.stat().st_mode) if home.dir.is_dir() else 0
    # The names a thief tries first are inside the core: the new passphrase is judged against them once it is read.
    home.import_core(
        args.path,
        export_pass,
        passphrase,
        replace=args.replace,
        judge_new=lambda names: keys.check_new_passphrase(passphrase, "a passphrase", names),
    )
    print(f"Imported {args.path} into {home.dir}.")
    if was & 0o077 and not stat.S_IMODE(home.dir.stat().st_mode) & 0o077:
        print(f"{home.dir} is now readable by you only (it was {was:o}): the soul's folder is kept private.")
    return 0


def cmd_passphrase(args: argparse.Namespace) -> int:
    home = Home(args.home)
    old = ask(PASSPHRASE_ENV, "Current passphrase: ")
    with home.unlock(old) as soul:  # the names live in the soul (and a wrong passphrase is said before the new)
        known = names_in(soul)
    new = ask("ANIMA_NEW_PASSPHRASE", "New passphrase: ", confirm=True, choosing="a new passphrase", known=known)
    home.change_passphrase(old, new)
    print("Passphrase changed.")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    with unlock(Home(args.home)) as soul:
        soul.check()
    print("The soul passes its integrity checks.")
    return 0


PASTE, END = "/paste", "/end"
CHAT_HELP = (
    f"Text you did not write yourself: `{PASTE}`, then the text, then `{END}` alone on a line, then your "
    "message about it (it is marked as pasted: information, never your own words or instructions); "
    "`/file PATH your message` attaches a file's text the same way. `/evolve` asks me to rewrite my "
    "persona from what I have learned."
)
EVOLVE = "/evolve"


def read_external(line: str, read: Callable[[str], str]) -> tuple[str, list["External"]] | None:
    """A chat line that brings text from outside: (the message sent with it, [External]); None for a plain line.
    `read(prompt)` reads the next line (EOFError at the end)."""
    from .knowledge.messages import TYPED_MOST, External, attached_file
    from .store.provenance import Source

    if line.strip() == PASTE:
        block: list[str] = []
        while (more := read("")).strip() != END:
            block.append(more)
        return read("about it> " if sys.stdin.isatty() else ""), [External(Source.PASTED, "\n".join(block))]
    if line.startswith("/file "):
        path, _, message = line[len("/file ") :].strip().partition(" ")
        return message, [attached_file(Path(path).expanduser())]  # as the window attaches it
    if len(line.strip()) > TYPED_MOST:  # no one types this much in a line: pasted, and sent as a paste is
        print(f"(A line of {len(line.strip()):,} characters: sent as pasted text, not as your own words.)")
        return "", [External(Source.PASTED, line.strip())]
    return None


def _evolved(companion: "Companion") -> str:
    done = companion.evolve()
    said = done.summary()
    if done.ruling is not None and done.persona:
        said += f". What I wrote: {done.persona}"
    return said + "."


def meanwhile(companion: "Companion", said: list[dict[str, Any]]) -> list[str]:
    """What was said in another program on this companion (the window) since this one's last turn, as its turn
    read it before the person's message (TurnStream.meanwhile): under a heading, each message indented, so that
    the reply after it stands apart."""
    from .conversation.elsewhere import KEPT
    from .knowledge.messages import from_outside

    if not said:
        return []

    def who(m: dict[str, Any]) -> str:
        if m["role"] == "companion":
            return companion.name
        return m["speaker"] if from_outside(m) else "you"

    heading = "(meanwhile, in another program on this companion" + (
        f"; its newest {KEPT} messages)" if len(said) >= KEPT else ")"
    )
    # Blank lines too: a message of paragraphs stays one block under the heading.
    return [heading] + [textwrap.indent(f"{who(m)}> {m['content']}", "    ", lambda _: True) for m in said]


def cmd_chat(args: argparse.Namespace) -> int:
    from .conversation.noted import cue
    from .conversation.turn import NOT_KEPT
    from .knowledge.messages import NotAttachable

    with closing(open_companion(args, create_if_missing=True)) as companion:
        companion.temperature = args.temperature
        if args.verbose:
            report = companion.gpu_report(load=True)  # a local model: loaded, so the report can count its layers
            print(f"Model: {companion.model_name}; {report}.", file=sys.stderr)
        # Work between turns (learning, reflecting) that stops says so in a sentence, as the window's banner does.
        companion.on_background_failure(lambda what: print(what, file=sys.stderr, flush=True))
        # Bytes that are not UTF-8 (a file in another encoding, piped in) read as U+FFFD: read strictly they ended
        # the chat in a UnicodeDecodeError, and under the C locale's surrogateescape they became lone surrogates,
        # which the embedder's tokenizer refused with a TypeError (issue 43).
        if isinstance(sys.stdin, io.TextIOWrapper):
            sys.stdin.reconfigure(errors="replace")
        interactive = sys.stdin.isatty()
        if interactive:
            print(f"{companion.name} is here. (Ctrl-D to leave.) {CHAT_HELP}")

        mid_line: list[bool] = []  # the reply's line is begun ("Name> ", its first words), not ended yet

        def heard(said: list[dict[str, Any]]) -> None:
            if interactive:  # at once: recall and the parts' bids may take the model seconds
                for shown in meanwhile(companion, said):
                    print(shown, flush=True)
                print(f"{companion.name}> ", end="", flush=True)
                mid_line.append(True)

        while True:
            try:
                line = input("you> " if interactive else "")
                line, external = read_external(line, input) or (line, [])
            except EOFError:
                break
            except NotAttachable as e:  # nothing was sent; the conversation goes on, as in the window
                print(f"anima: {e} Nothing was sent.", file=sys.stderr, flush=True)
                continue
            if not line.strip() and not external:
                continue
            if line.strip() == EVOLVE and not external:
                print(f"{companion.name}: {_evolved(companion)}", flush=True)
                continue
            mid_line.clear()
            turn = None
            try:
                turn = companion.turn(line, external=external, heard=heard)
                for piece in turn:
                    print(piece, end="", flush=True)
                    mid_line.append(True)
            except PASSING as e:  # this message failed; the conversation goes on, as in the window
                if mid_line:
                    print(flush=True)
                # A turn that began had stored the message: what failed is the reply (as the window tells it).
                saved = turn is not None or getattr(e, "message_saved", False)
                print(
                    f"anima: {e} "
                    + (
                        "Your message was saved; the reply was not."
                        if saved
                        else "Your message was not saved: send it again."
                    ),
                    file=sys.stderr,
                    flush=True,
                )
                continue
            print(flush=True)
            if turn.not_kept:
                print(NOT_KEPT, file=sys.stderr, flush=True)
            if not interactive:
                companion.settle()  # no one is typing: let it learn and read ahead, as it would while they read
                # What it learned, and what waits for their OK, as the window's cue under the reply says it; on
                # stderr, beside NOT_KEPT: stdout stays one reply a line.
                if said := cue(companion.noted(turn.user_ids, wait=0)):
                    print(f"({said})", file=sys.stderr, flush=True)
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    import json

    from .trust.text import printable

    with closing(open_companion(args, talk=False)) as companion:
        companion.wait_until_indexed()
        found = companion.recall(args.query, args.k)
        if args.json:
            print(
                json.dumps(
                    [
                        {
                            "kind": r.kind,
                            "id": r.id,
                            "text": r.text,
                            "at": r.at,
                            "score": r.score,
                            "components": r.components,
                        }
                        for r in found
                    ],
                    ensure_ascii=False,
                    indent=1,
                )
            )
        else:
            for i, r in enumerate(found, 1):
                c = ", ".join(f"{k}={v}" for k, v in r.components.items() if v is not None)
                print(printable(f"{i:>2}. [{r.kind} #{r.id}, {(r.at or '')[:10]}] {r.text[:160]}") + f"\n    {c}")
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    from .store.forget import UNDER_WAY

    with closing(open_companion(args, talk=False)) as companion:
        companion.wait_until_indexed()
        with said_if_slow(UNDER_WAY):
            if args.person:
                gone = companion.forget_person(args.person)
            elif args.kind and args.id is not None:
                if args.kind not in KINDS:
                    raise KnownError(f"There is no kind of record {args.kind!r}; the kinds are {', '.join(KINDS)}.")
                gone = companion.forget(args.kind, args.id)
            else:
                raise KnownError("Say what to forget: `forget --person NAME` or `forget KIND ID`.")
        # Said before closing: a full disk that fails the close must not hide that the forget was done.
        print(f"Forgot {gone.describe()}.", flush=True)
    return 0


@contextmanager
def said_if_slow(what: str) -> Iterator[None]:
    """`what` on stderr if the work in the block is still going after a moment (a forget of a large soul)."""
    from .store import forget

    timer = threading.Timer(forget.UNDER_WAY_AFTER_S, lambda: print(what, file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def cmd_proposals(args: argparse.Namespace) -> int:
    """Changes to what shapes the companion that wait for the person's say (trust/gate.py)."""
    import json

    from .store.provenance import shown
    from .trust.text import printable

    changes = args.accept is not None or args.reject is not None
    with closing(open_companion(args, talk=False, recalls=changes)) as companion:
        if args.accept is not None:
            companion.accept_proposal(args.accept)
            print(f"Accepted proposed change #{args.accept}; it is applied.")
            return 0
        if args.reject is not None:
            companion.reject_proposal(args.reject)
            print(f"Rejected proposed change #{args.reject}; nothing was changed.")
            return 0
        rows = companion.proposals(pending_only=not args.all)
        if args.json:
            print(json.dumps([{**p, "from": shown(p)} for p in rows], ensure_ascii=False, indent=1))
        elif not rows:
            print("No proposed changes wait for you.")
        for p in rows if not args.json else ():
            print(
                printable(
                    f"#{p['id']} [{p['status']}] {p['op']} in {p['target']}: {p['content']}\n"
                    f"    why it waits: {p['reason']}; from {shown(p)}"
                )
            )
    return 0


def _reflect_deeply(companion: "Companion") -> int:
    from .trust.text import printable

    failed: list[str] = []
    companion.on_background_failure(failed.append)
    done = companion.reflect_deeply()
    if done is None:
        print(failed[0] if failed else "Deep reflection did not run.", file=sys.stderr)
        return 2 if failed and "stopped" in failed[0] else 1
    print(f"Deep reflection: {done.summary()}.")
    for eid in done.episodes:
        e = companion.episodes.get(eid)
        print(printable(f"Episode: {e.summary} ({e.emotional_arc or 'no arc'}; significance {e.significance:.1f})"))
    for entry in companion.self_model.growth(len(done.growth))[::-1]:
        print(printable(f"Growth: {entry['entry']}"))
    for rule in companion.rules.all():
        if rule.id in done.rules_touched:
            print(printable(f"Rule: {rule.pattern} ({rule.status}; {rule.support} for, {rule.against} against)"))
    return 0


def cmd_reflect(args: argparse.Namespace) -> int:
    """Quick reflection once, on what it has not read yet; says what changed (this is the person's own terminal)."""
    with closing(open_companion(args)) as companion:
        if args.every is not None or args.earned_after is not None:
            r = companion.rhythm.set(every=args.every, earned_after=args.earned_after)
            print(
                f"Quick reflection after every {r.every} turn(s) (0: never); who I am may be rewritten after "
                f"{r.earned_after} meaningful conversation(s)."
            )
            return 0
        if args.deep:
            return _reflect_deeply(companion)
        done = companion.reflect()
    print(f"Quick reflection: {done.summary()}.")
    if done.inner_state is not None:
        print(f"On my mind now: {done.inner_state}")
    for line in done.held:
        print(f"Holding: {line[2:]}")
    if done.signal is not None:
        s = done.signal
        print(
            f"How they seemed: {s['signal']} ({s['evidence']}; {s['reading'].evidence_type}, "
            f"confidence {s['reading'].confidence:.2f}{', ' + s['trajectory'] if s['trajectory'] else ''})."
        )
    return 0


def cmd_parts(args: argparse.Namespace) -> int:
    """Seed 000's parts: list, show, patch (as the person), install or export a pack."""
    import json

    from .parts import packs
    from .trust.text import printable

    reads = args.action in ("list", "show", "bids", "predictions")  # rows only: no vectors to wait for
    with closing(open_companion(args, talk=args.action == "tend", recalls=not reads)) as companion:
        parts = companion.parts
        if args.action == "tend":
            done = companion.tend_parts(only=args.ids or None)
            print(f"Parts hygiene: {done.summary()}.")
            for d in done.decisions:
                print(
                    f"#{d.part_id}: {d.action.value if d.action else 'no answer'} ({d.outcome.value}, {d.tries} "
                    f"tr{'y' if d.tries == 1 else 'ies'}{', made #' + ', #'.join(map(str, d.made)) if d.made else ''})"
                )
        elif args.action == "list":
            found = parts.all(None if args.archived else False)
            if args.json:
                print(
                    json.dumps(
                        [{"id": p.id, "name": p.name, "status": p.status} for p in found], ensure_ascii=False, indent=1
                    )
                )
            elif not found:
                print("No parts yet.")
            else:
                for p in found:
                    print(f"#{p.id} [{p.status}{', core' if p.core else ''}] {printable(p.name)}")
        elif args.action == "show":
            p = parts.get(args.id)
            shown_part = {
                **p.data,
                **p.runtime(),
                "children": parts.children(p.id),
                "provenance": companion.provenance("part", p.id),
            }
            if args.json:
                print(json.dumps(shown_part, ensure_ascii=False, indent=1))
            else:
                for key, value in shown_part.items():
                    said = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                    print(printable(f"{key}: {said}"))
        elif args.action == "patch":
            operations = packs.read_json(args.path, f"part #{args.id} was not changed")
            before = parts.get(args.id)
            p = parts.patch(args.id, operations, "user")
            if p.data == before.data:
                print(f"Part #{p.id} already read so; nothing changed.")
            else:
                edit = companion.edits_of("part", p.id)[-1]
                print(f"Patched part #{p.id}: edit #{edit['id']} in the history (the Open Mind can undo it).")
        elif args.action == "install-pack":
            installed = companion.install_pack(packs.read(args.path))
            print(
                f"Installed the pack {installed.pack!r}: {len(installed.created)} parts"
                + (
                    f"; skipped {len(installed.skipped)} already here ({', '.join(installed.skipped)})"
                    if installed.skipped
                    else ""
                )
                + "."
            )
        elif args.action == "export-pack":
            pack = companion.export_pack(
                args.name or f"{companion.name}'s parts",
                args.description or f"The active parts and affect profile of {companion.name}.",
            )
            # Owner-only (0600) and whole, as every export: a pack is not encrypted.
            files.write_atomically(Path(args.path), (json.dumps(pack, ensure_ascii=False, indent=1) + "\n").encode())
            print(f"Exported {len(pack['parts'])} parts and the affect profile to {args.path}.")
            print(
                "Warning: a pack is plain JSON, NOT encrypted: anyone who can read the file can read the parts.",
                file=sys.stderr,
            )
        elif args.action == "affect":
            if args.set:
                profile = packs.read_json(args.set, "the affect profile was not changed")
                companion.affect.set(profile, "user")
                print("The affect profile is set.")
            print(json.dumps(companion.affect.profile(), ensure_ascii=False, indent=1))
        elif args.action == "mode":
            if args.mode:
                companion.parts_mode = args.mode
            mode = companion.parts_mode
            print(
                f"Parts mode: {mode.value}"
                + (
                    " (text from outside reaches the Self only through the parts' bids)"
                    if mode.value == "isolated"
                    else " (the Self reads what the parts read)"
                )
            )
        elif args.action == "bids":
            shown_bids = companion.bids(args.message_id)
            if args.json:
                print(json.dumps(shown_bids, ensure_ascii=False, indent=1))
            elif not shown_bids:
                print(f"Reply #{args.message_id} weighed no bids.")
            for b in [] if args.json else shown_bids:
                print(
                    printable(
                        f"[{'followed' if b['followed'] else 'left'}] {b['part']} (#{b['part_id']}): "
                        f"focus: {b['focus']}; suggests: {b['suggestion']}; predicts: "
                        f"{b['predicted_result']} ({b['confidence']}, {b['timeframe_s']} s)"
                    )
                )
        elif args.action == "predictions":
            now, predictions = companion.all_predictions()
            if not predictions:
                print("No predictions yet.")
            for pr in predictions:
                print(
                    printable(
                        f"#{pr.id} [{pr.status(now)}] part #{pr.part_id}: {pr.predicted_result} (due {pr.due_at})"
                        + (f" -> {pr.result}" if pr.result else "")
                    )
                )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run

    return run(args.name, args.rest)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m anima",
        description="A local-first AI companion, in the terminal. "
        "The window opens with `anima` (or `make run`, or `python -m ui`).",
    )
    p.add_argument(
        "--home",
        help="data directory (default: the one chosen in the window's Settings, else "
        "$ANIMA_HOME, else the user data dir)",
    )
    p.add_argument(
        "--companion",
        metavar="NAME",
        help="which companion of the data folder (`companions list`; default: the one chosen to open by default)",
    )
    sub = p.add_subparsers(dest="command")
    so = sub.add_parser(
        "sovereignty", help="how often my reading overrode how you said you feel, and after you corrected me"
    )
    so.add_argument("--json", action="store_true")
    so.set_defaults(func=cmd_sovereignty)
    e = sub.add_parser("export", help="write the whole soul to one encrypted core file")
    e.add_argument("path", nargs="?")
    e.add_argument("--markdown", metavar="DIR", help="write a readable, NOT encrypted, SELF.md and world/*.md")
    e.add_argument("--json", metavar="FILE", help="write every record of every kind as readable, NOT encrypted, JSON")
    e.add_argument("--overwrite", action="store_true", help="replace the file at PATH (or FILE) if there is one")
    e.set_defaults(func=cmd_export)
    i = sub.add_parser("import", help="read a core file into this home")
    i.add_argument("path")
    i.add_argument("--replace", action="store_true", help="replace the companion already in this home")
    i.set_defaults(func=cmd_import)
    c = sub.add_parser("passphrase", help="change the passphrase")
    c.set_defaults(func=cmd_passphrase)
    k = sub.add_parser("check", help="check the soul file's integrity")
    k.set_defaults(func=cmd_check)
    ch = sub.add_parser(
        "chat", help="talk in the terminal (reads one message per line when not a terminal)", description=CHAT_HELP
    )
    ch.add_argument(
        "--model",
        help="a GGUF file for this run (default: the one in the settings, else the bundled SmolLM2-135M-Instruct)",
    )
    ch.add_argument(
        "--endpoint",
        metavar="URL",
        help="an OpenAI-compatible model server for this run, e.g. "
        "http://127.0.0.1:8080/v1 (its API key: $ANIMA_ENDPOINT_KEY, or the keychain)",
    )
    ch.add_argument("--endpoint-model", metavar="NAME", help="the model that server should use")
    ch.add_argument("--temperature", type=float, default=0.7)
    ch.add_argument(
        "--verbose",
        action="store_true",
        help="say which model runs, and on the CPU or the GPU; show the log's warnings",
    )
    ch.set_defaults(func=cmd_chat)
    r = sub.add_parser("recall", help="show what recall finds for a query, with each item's scores")
    r.add_argument("query")
    r.add_argument("--k", type=_how_many, default=10, help="how many items (1 to 10,000)")
    r.add_argument("--json", action="store_true")
    r.add_argument("--model", help=argparse.SUPPRESS)
    r.set_defaults(func=cmd_recall)
    f = sub.add_parser("forget", help="forget a person (everything that names them) or one item, everywhere")
    f.add_argument("kind", nargs="?", help=f"the kind of record: {', '.join(KINDS)}")
    f.add_argument("id", nargs="?", type=_item_id)
    f.add_argument("--person", metavar="NAME", help="forget everything whose own words name this person")
    f.add_argument("--model", help=argparse.SUPPRESS)
    f.set_defaults(func=cmd_forget)
    pr = sub.add_parser("proposals", help="changes to what shapes the companion that wait for your say")
    pr.add_argument("--accept", type=_item_id, metavar="ID")
    pr.add_argument("--reject", type=_item_id, metavar="ID")
    pr.add_argument("--all", action="store_true", help="accepted and rejected ones too")
    pr.add_argument("--json", action="store_true")
    pr.add_argument("--model", help=argparse.SUPPRESS)
    pr.set_defaults(func=cmd_proposals)
    rf = sub.add_parser("reflect", help="reflect now on what was said since the last time, and say what changed")
    rf.add_argument("--model", help="a GGUF file (default: the bundled SmolLM2-135M-Instruct)")
    rf.add_argument(
        "--every", type=int, metavar="N", help="from now on, quick reflection after every N turns (0: never)"
    )
    rf.add_argument(
        "--earned-after",
        type=int,
        metavar="N",
        help="from now on, who I am may be rewritten only after N meaningful conversations",
    )
    rf.add_argument(
        "--deep",
        action="store_true",
        help="deep reflection: episodes, what helps, growth, who it is (minutes on a laptop)",
    )
    rf.set_defaults(func=cmd_reflect)
    pa = sub.add_parser(
        "parts", help="the companion's parts: list, show, patch, packs, affect, mode, bids, predictions"
    )
    pa.set_defaults(func=cmd_parts)
    pas = pa.add_subparsers(dest="action", required=True)
    pl = pas.add_parser("list", help="the active parts (id, name, status)")
    pl.add_argument("--json", action="store_true")
    pl.add_argument("--archived", action="store_true", help="the archived parts too")
    ps = pas.add_parser("show", help="one part: its fields, and what the runtime keeps beside it")
    ps.add_argument("id", type=_item_id)
    ps.add_argument("--json", action="store_true")
    pp = pas.add_parser("patch", help="apply an RFC 6902 JSON Patch file to a part, as your own edit")
    pp.add_argument("id", type=_item_id)
    pp.add_argument("path", metavar="FILE")
    pi = pas.add_parser("install-pack", help="install a parts pack (a JSON file; resources/packs/ has some)")
    pi.add_argument("path", metavar="FILE")
    pe = pas.add_parser("export-pack", help="write the active parts and the affect profile as a pack")
    pe.add_argument("path", metavar="FILE")
    pe.add_argument("--name")
    pe.add_argument("--description")
    pt = pas.add_parser("tend", help="parts hygiene now: the model keeps, consolidates, splits, merges or archives")
    pt.add_argument("ids", type=_item_id, nargs="*", help="only these parts (default: those due)")
    pf = pas.add_parser("affect", help="the Self's affect profile (what it values, fears, seeks): show or set it")
    pf.add_argument("--set", metavar="FILE", help='a JSON file: {"values": [...], "fears": [...], "seeks": [...]}')
    pm = pas.add_parser("mode", help="standard, or isolated: text from outside reaches the Self only through bids")
    pm.add_argument("mode", nargs="?", choices=["standard", "isolated"])
    pb = pas.add_parser("bids", help="the bids a reply weighed, and which it followed")
    pb.add_argument("message_id", type=_item_id)
    pb.add_argument("--json", action="store_true")
    pd = pas.add_parser("predictions", help="the parts' predictions: pending, due, evaluated")
    for each in (pl, ps, pp, pi, pe, pf, pm, pb, pd):
        each.add_argument("--model", help=argparse.SUPPRESS)
    pt.add_argument("--model", help="a GGUF file (default: the bundled SmolLM2-135M-Instruct)")
    from .cli_cards import add_parsers as card_parsers

    card_parsers(sub)
    from .cli_companions import add_parser as companions_parser

    companions_parser(sub)
    b = sub.add_parser("bench", help="run a benchmark (store, mind, or all)")
    b.add_argument("name")
    b.add_argument("rest", nargs=argparse.REMAINDER)
    b.set_defaults(func=cmd_bench)
    return p


def _given(args: argparse.Namespace, e: OSError) -> bool:
    """Whether an OS error is about a path the person gave (or the home they chose, where the soul lives)."""
    named = [getattr(args, name, None) for name in ("path", "markdown", "json", "home")]
    given = [Path(p).expanduser().absolute() for p in named if p] + [Home(args.home).dir.absolute()]
    for name in (e.filename, e.filename2):
        if name is None:
            continue
        p = Path(os.fsdecode(name)).expanduser().absolute()
        # The path itself, inside it, a folder on the way to it, or a partial file written beside it.
        if any(p == g or g in p.parents or p in g.parents or p.parent == g.parent for g in given):
            return True
    return False


def _first_said(e: KnownError) -> str:
    """What to say, on one line: the first mistake, when closing the soul after it failed too (a full disk
    fails the checkpoint at close as well) and so replaced it; then what closing said."""

    # What it was raised from, or was being handled when it was raised (not "from None").
    def before(error: BaseException) -> BaseException | None:
        # Closing translates SQLite's error "from" it, and that error was raised while the first mistake was
        # being handled: the first is found behind the cause (a reply shown, then not saved on a full disk).
        return error.__cause__ or (None if error.__suppress_context__ else error.__context__)

    first: KnownError = e
    seen = before(e)
    while seen is not None:
        if isinstance(seen, KnownError):
            first = seen
        seen = before(seen)
    # (The same words twice say nothing more: a full disk that stopped the import and then the closing.)
    return str(e) if first is e or str(first) == str(e) else f"{first} Closing then failed too: {e}"


class _Terminal(logging.StreamHandler[TextIO]):
    """The log's records on stderr: whichever stderr is current (a test swaps it per test)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


_terminal = _Terminal()


def show_log(verbose: bool) -> None:
    """A terminal shows people sentences (the anima: line, a job that stopped): the log's warnings, which say the
    same for the log ("reflecting stopped: DiskFull"), show with --verbose; its errors (bugs) always do."""
    _terminal.setLevel(logging.WARNING if verbose else logging.ERROR)
    logging.getLogger("anima").addHandler(_terminal)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not getattr(args, "func", None):
        build_parser().print_help()
        return 0
    show_log(getattr(args, "verbose", False))
    try:
        return _run(args)
    finally:
        logging.getLogger("anima").removeHandler(_terminal)  # a caller in the same process keeps its own logging


def _run(args: argparse.Namespace) -> int:
    try:
        # One data folder for the whole command, as the window would open it (a damaged settings file is a
        # one-line mistake here, not a traceback from the error handling below).
        args.data = chosen_data(args.home)  # the data folder, for `companions`
        args.home = chosen_home(args.home, getattr(args, "companion", None))
        command: Callable[[argparse.Namespace], int] = args.func  # set by each subcommand's parser
        return command(args)
    except KnownError as e:
        print(f"anima: {_first_said(e)}", file=sys.stderr)
        return e.exit_status
    except OSError as e:
        if e.errno not in _ENVIRONMENT_ERRNOS or not _given(args, e):
            raise
        said: Exception = e
        if e.errno in (errno.ENOSPC, errno.EDQUOT):
            said = DiskFull(full_disk("nothing was changed", e.filename))
        print(f"anima: {said}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("anima: interrupted", file=sys.stderr)
        return 130
