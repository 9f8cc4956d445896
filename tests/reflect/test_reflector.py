"""The reflector's jobs fail loudly: the person hears of it (the window's status line), the next turn goes on."""

from anima.models.chat import ModelError


def test_a_failing_job_is_told_and_the_next_turn_goes_on(companion):
    heard = []
    companion.on_background_failure(heard.append)
    companion.learns = True
    companion.chat.enqueue("Nice.", RuntimeError("a bug in learning"))
    companion.turn("I grow tomatoes on my balcony.").read()
    companion.settle()
    assert heard == ["Learning about the person failed (a bug; the log has the details)."]
    companion.chat.enqueue("Hello.", ModelError("The model server at http://127.0.0.1:9 is not answering."))
    companion.turn("My cat is called Miso.").read()
    companion.settle()
    assert heard[1] == "Learning about the person stopped: The model server at http://127.0.0.1:9 is not answering."
    assert all("tomatoes" not in h and "Miso" not in h for h in heard)  # never what they said
    companion.chat.enqueue("Still here.")
    assert companion.turn("are you there?").read() == "Still here."


def test_work_that_meets_its_companion_closed_tells_no_one(companion):
    # The window closed (or an import replaced the soul) while learning was under way: no "stopped" or "bug"
    # line for a window that is gone.
    import json

    heard = []
    companion.on_background_failure(heard.append)
    companion.learns = True

    class ClosingFirst(list):  # the model's answer about the person, streamed as the soul closes
        def __iter__(self):
            companion.soul.close()
            return super().__iter__()

    answer = ClosingFirst([json.dumps({"facts": [{"fact": "Grows tomatoes on their balcony", "replaces": 0}]})])
    companion.chat.enqueue("Nice.", answer)
    companion.turn("I grow tomatoes on my balcony.").read()
    companion.settle()
    assert not companion.chat.queue  # learning ran, and read the answer
    assert heard == []
