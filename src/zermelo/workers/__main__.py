"""The worker's child process: ``python -m zermelo.workers`` (see :mod:`zermelo.workers`).

A module of its own, so that running it does not execute the package's module a second time."""

from zermelo.workers import _serve

if __name__ == "__main__":  # pragma: no cover - the child process
    _serve()
