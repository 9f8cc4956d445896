"""How often the companion reflects and how soon it may rewrite who it is: kept in the soul, so they travel with
the companion to another machine. One owner: the window's Self view and `python -m anima reflect --every N
--earned-after N` change them here."""

from dataclasses import dataclass

from ..errors import InvalidEdit
from ..self.identity import EARNED_AFTER, EARNED_AFTER_DEFAULT
from ..store.soul import Soul
from .quick import EVERY
from .reflector import Reflector

MOST = 1000


@dataclass(frozen=True)
class Rhythm:
    every: int  # quick reflection after every this many turns (0: never)
    earned_after: int  # meaningful conversations before the identity or persona may be rewritten


class Rhythms:
    def __init__(self, soul: Soul, reflector: Reflector):
        self.soul = soul
        self.reflector = reflector

    def read(self) -> Rhythm:
        return Rhythm(self.reflector.every, self.soul.get_int(EARNED_AFTER, EARNED_AFTER_DEFAULT))

    def set(self, every: int | None = None, earned_after: int | None = None) -> Rhythm:
        for name, value in (("every", every), ("earned after", earned_after)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MOST):
                raise InvalidEdit(f"Reflection's '{name}' is a whole number from 0 to {MOST}.")
        with self.soul.transaction():
            if every is not None:
                self.soul.set_meta(EVERY, str(every))
            if earned_after is not None:
                self.soul.set_meta(EARNED_AFTER, str(earned_after))
        if every is not None:
            self.reflector.every = every
        return self.read()
