"""The store: the SQLCipher soul database, its keys, migrations, forgetting and the portable core."""

from .home import Home, PassphraseNeeded
from .kinds import KINDS, SOUL_TABLES
from .soul import Soul

__all__ = ["KINDS", "SOUL_TABLES", "Home", "PassphraseNeeded", "Soul"]
