"""Keep a run of ``zermelo learn`` in the repository, so that a later session goes on with it.

    python scripts/learn_snapshot.py RUN_DIR data/learn/connect4-run.tar.xz

The archive holds what the loop needs to go on: ``run.json``, ``metrics.jsonl``, the last
generation's checkpoint (model, optimizer, the best net so far), ``best.npz`` and the self-play
games of the generations the replay buffer still uses. Unpack it as a run directory and run the
same ``zermelo learn`` command with ``--run-dir`` (docs/learning.md, "Going on with the shipped
run").
"""

from __future__ import annotations

import argparse
import json
import sys
import tarfile
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("archive", type=Path)
    parser.add_argument("--window", type=int, default=12, help="generations of self-play kept")
    args = parser.parse_args(argv)
    try:
        meta = json.loads((args.run / "run.json").read_text(encoding="utf-8"))
        generation = int(meta["generation"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(
            f"learn_snapshot: {args.run} is not a run of zermelo learn ({error})", file=sys.stderr
        )
        return 1
    names = ["run.json", "metrics.jsonl", "best.npz", f"checkpoints/gen-{generation:04d}.pt"]
    names.append(f"checkpoints/gen-{generation:04d}.npz")
    for g in range(max(1, generation - args.window + 1), generation + 1):
        names.append(f"selfplay/gen-{g:04d}.jsonl")
    missing = [name for name in names if not (args.run / name).is_file()]
    if missing:
        print(f"learn_snapshot: {args.run} lacks {', '.join(missing)}", file=sys.stderr)
        return 1
    args.archive.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(args.archive, "w:xz") as archive:
        for name in names:
            archive.add(args.run / name, arcname=name)
    print(f"{args.archive}: generation {generation}, {args.archive.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
