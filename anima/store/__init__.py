"""The store: the SQLCipher soul database, its keys, migrations, forgetting and the portable core."""

from .home import Home, PassphraseNeeded
from .soul import KINDS, SOUL_TABLES, Soul

__all__ = ["Home", "PassphraseNeeded", "Soul", "KINDS", "SOUL_TABLES"]
