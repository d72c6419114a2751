"""The worker's child process: ``python -m zermelo.ui.web._worker_main`` (see :mod:`.worker`).

A module of its own, so that running it does not execute :mod:`.worker` a second time."""

from zermelo.ui.web.worker import _serve

if __name__ == "__main__":  # pragma: no cover - the child process
    _serve()
