"""``python -m zermelo``: the same as the ``zermelo`` command."""

from zermelo.cli import main

if __name__ == "__main__":
    main()
