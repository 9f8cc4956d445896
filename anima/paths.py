"""Where a companion lives on disk."""

import logging
import os
import stat
from pathlib import Path

import platformdirs

log = logging.getLogger(__name__)

HOME_ENV = "ANIMA_HOME"


def home(explicit: str | os.PathLike | None = None) -> Path:
    """The data directory: an explicit path, else $ANIMA_HOME, else the platform's user data dir."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("anima", appauthor=False))


def soul_path(home_dir: Path) -> Path:
    return home_dir / "soul.db"


def key_path(home_dir: Path) -> Path:
    return home_dir / "soul.key"


CACHE_ENV = "ANIMA_CACHE"


def cache() -> Path:
    """Where derived files that can always be made again live (never the soul): $ANIMA_CACHE, else the platform's
    user cache dir."""
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("anima", appauthor=False))


def owner_only(folder: Path) -> None:
    """Take group and others' access away from a folder of the companion's (its home, its logs). mkdir's mode does
    nothing to a folder that exists, and one made by the person or by an older Anima may be 0755: anyone on the
    machine could list it. Only a folder this user owns is changed; one that cannot be is a warning, not a refusal
    (the soul in it is encrypted all the same)."""
    if os.name != "posix":
        return  # Windows: chmod only sets the read-only flag
    st = folder.stat()
    if not st.st_mode & 0o077 or st.st_uid != os.getuid():
        return
    try:
        os.chmod(folder, stat.S_IMODE(st.st_mode) & ~0o077)  # the owner's own bits as they were
    except OSError as e:
        log.warning("could not make a folder of the companion's readable by its owner only (%s)", type(e).__name__)
