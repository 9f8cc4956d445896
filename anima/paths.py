"""Where a companion lives on disk."""

import os
from pathlib import Path

import platformdirs

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
