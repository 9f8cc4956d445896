"""Making again what a forget flagged: "any derived references (in episodes, growth log entries, or self-model
sections that cite the memory as evidence) are flagged for regeneration during the next deep reflection" (seed
003, 5.5). Deep reflection runs this first (deep.py).

A forget takes an item and flags what cited it (store/forget.py); a flagged episode loses its words, vector and
edits in that same forget, and what cites it goes (its words may carry what the person asked to forget). What is
left is made again here, or goes:
- an episode is cut again from the messages it still cites, by deep reflection's own reading and checks, and the
  old one is forgotten in the same transaction (knowledge/episodes.py make_again); with nothing left, or no answer
  that holds, it just goes. Until then it stands for nothing: recall, reflection, the growth the model reads
  and the live session leave it out (store/kinds.py, Kind.made_again).
- a growth-log entry flagged goes (the log is never edited). Episodes made again have new numbers, so
  considering reads them again and may grow new entries from what is left.
- a rule is counted again from the evidence left; one that nothing left supports goes, unless the person wrote
  its pattern (knowledge/rules.py count_again).
A flagged memory stays: the fact outlives the message it was learned from, flagged for the person's review. (An
insight, drawn from episodes, goes with one blanked or forgotten, as a growth entry does: store/forget.py.)

All of it is written in one transaction at the end; a turn pre-empts the model's work, and what was cut before it
is written then, the rest stays flagged for the next run. A blank episode going is no forget of its own (the one
that blanked it took its words, and every program dropped it then): it is not counted again, and the file is not
rebuilt for it (Soul.forget). Only a flagged item that still holds words (a growth entry an older version
flagged, an episode a person wrote in since) costs a rebuild, once for the run.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..knowledge.episodes import Episodes, NewEpisode
from ..knowledge.messages import Messages, spoken
from ..knowledge.rules import Rules
from ..self.growth import GrowthLog
from ..store.soul import Soul

log = logging.getLogger(__name__)

EPISODES_PER_RUN = 8  # a model call each; more wait for the next run (recall leaves them out meanwhile)


@dataclass
class MadeAgain:
    """What one run made again (counts for the log)."""

    episodes: int = 0  # flagged episodes done
    anew: int = 0  # episodes that took their place
    growth: int = 0  # growth-log entries that went
    rules: int = 0  # rules counted again
    rules_gone: int = 0  # rules nothing supports any more

    @property
    def nothing(self) -> bool:
        return not (self.episodes or self.growth or self.rules)

    def summary(self) -> str:
        return (
            f"{self.episodes} flagged episode(s) done, {self.anew} made in their place, {self.growth} growth "
            f"entr(ies) gone, {self.rules} rule(s) counted again ({self.rules_gone} gone)"
        )


class Regeneration:
    def __init__(self, soul: Soul, messages: Messages, episodes: Episodes, rules: Rules):
        self.soul = soul
        self.messages = messages
        self.episodes = episodes
        self.rules = rules
        self.growth = GrowthLog(soul)

    def pending(self) -> bool:
        return bool(self.episodes.flagged() or self.growth.flagged() or self.rules.flagged())

    def run(self, cut: Callable[[list[dict[str, Any]]], list[NewEpisode] | None]) -> MadeAgain:
        """`cut(said)`: the episodes some messages make (deep reflection's reading); None when a turn pre-empted
        it (what was cut before is written, the rest stays flagged)."""
        done = MadeAgain()
        if not self.pending():  # no write transaction for nothing
            return done
        again = {}  # each flagged episode: those made again of it, embedded (its type: Episodes.ready's)
        for episode_id in self.episodes.flagged()[:EPISODES_PER_RUN]:
            said = spoken(self.messages.these(self.episodes.made_of(episode_id)))
            anew = cut(said) if said else []
            if anew is None:
                break
            again[episode_id] = self.episodes.ready(anew)
        with self.episodes.writing():
            for episode_id, ready in again.items():
                done.anew += len(self.episodes.make_again(episode_id, ready))
                done.episodes += 1
            for entry in self.growth.flagged():  # an episode made again above flags what cited it
                self.soul.forget("growth_log", entry)
                done.growth += 1
            for rule in self.rules.flagged():
                done.rules += 1
                done.rules_gone += not self.rules.count_again(rule)
        if not done.nothing:
            log.info("made again what a forget flagged: %s", done.summary())
        return done
