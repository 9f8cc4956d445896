import sys

if sys.argv[1:] == ["--version"]:
    from . import __version__
    print(f"Anima {__version__}")
    raise SystemExit(0)

from .cli import main  # noqa: E402  (after --version, which needs none of it)

raise SystemExit(main())
