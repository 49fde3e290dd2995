"""The bundle's entry point: the same ``main`` as the ``monchat`` console script (PyInstaller needs a file)."""

from monchat.__main__ import main

if __name__ == "__main__":
    main()
