"""A second program on the same soul, for tests/store/test_two_programs.py: `python -m tests.store.other_program`.

It unlocks the soul in ANIMA_HOME (ANIMA_PASSPHRASE), then does what each line on stdin says and answers each
with one line of JSON: `say TEXT` (stores a message; its id), `forget ID`, `every N` (quick reflection's
rhythm), `self SECTION TEXT` (the person's edit of the self-model), `write SECONDS` (stores messages and recalls
as fast as it can; how many, and every error), `quit` (closes the soul). The fake embedder: no model needed.
"""

import json
import os
import sys
import time


def main() -> None:
    from anima.knowledge.messages import Messages
    from anima.models.fake import FakeEmbedder
    from anima.reflect.quick import EVERY
    from anima.retrieval.indexer import Indexer
    from anima.retrieval.recall import Recall
    from anima.self.selfmodel import SelfModel
    from anima.store import Home

    soul = Home(os.environ["ANIMA_HOME"]).unlock(os.environ["ANIMA_PASSPHRASE"])
    indexer = Indexer(soul, FakeEmbedder())
    indexer.load()
    messages, recall = Messages(soul, indexer), Recall(soul, indexer)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        command, _, rest = line.rstrip("\n").partition(" ")
        try:
            if command == "say":
                out = {"id": messages.record("user", rest, speaker="Bo", session="other")}
            elif command == "forget":
                out = {"gone": soul.forget("message", int(rest)).describe()}
            elif command == "every":
                soul.set_meta(EVERY, rest)
                out = {}
            elif command == "self":
                section, _, text = rest.partition(" ")
                SelfModel(soul).write(section, text, "user")
                out = {}
            elif command == "write":
                out = write_for(float(rest), messages, recall)
            elif command == "quit":
                indexer.close()
                soul.close()
                print(json.dumps({"closed": True}), flush=True)
                return
            else:
                out = {"error": f"unknown command {command}"}
        except Exception as e:  # everything a person could meet, reported to the test
            out = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(out), flush=True)


def write_for(seconds: float, messages, recall) -> dict:
    ids, errors, n = [], [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        n += 1
        try:
            ids.append(messages.record("user", f"program b writes line {n} about lanterns", session="other"))
            if n % 5 == 0:
                recall.search("lanterns", 5)
        except Exception as e:
            errors.append(f"{type(e).__name__}: {e}")
    return {"ids": ids, "errors": errors}


if __name__ == "__main__":
    main()
