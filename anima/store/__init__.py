"""The store: the SQLCipher soul database, its keys, migrations, forgetting and the portable core."""

from .home import Home, PassphraseNeeded
from .kinds import KINDS, SOUL_TABLES
from .soul import Soul

__all__ = ["Home", "PassphraseNeeded", "Soul", "KINDS", "SOUL_TABLES"]
