"""``python -m monchat`` and the ``monchat`` console script."""

import sys

from .cli.main import main as _cli_main


def main() -> None:
    sys.exit(_cli_main())


if __name__ == "__main__":
    main()
