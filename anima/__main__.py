import sys

if sys.argv[1:] == ["--version"]:
    from . import __version__

    print(f"Anima {__version__}")
    raise SystemExit(0)

from .cli import main

raise SystemExit(main())
