"""Ship a net a run of ``zermelo learn`` made: copy it into the package as the game's learned net.

    python scripts/ship_net.py /path/to/run/best.npz connect4

The net keeps its arrays (float16) and its meta; the description gains the machine it was
trained on, so `zermelo games`, the arena and benchmarks/learn.py can say where it came from. The
package's nets live in src/zermelo/agents/nets/<game>.npz, the file the game's record names.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from zermelo.agents.az import NETS, Net
from zermelo.core.errors import ZermeloError
from zermelo.games.registry import get_game


def machine() -> str:
    """The CPU model and the number of cores of this machine."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores of {model}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("net", type=Path, help="a net of a run (best.npz or a checkpoint's .npz)")
    parser.add_argument("game", help="the game it is for")
    parser.add_argument("--machine", default=None, help="where it was trained (default: here)")
    args = parser.parse_args(argv)
    try:
        net = Net.load(args.net)
        spec = get_game(args.game)
    except ZermeloError as error:
        print(f"ship_net: {error}", file=sys.stderr)
        return 1
    if net.game != spec.name:
        print(f"ship_net: {args.net} is a net for {net.game}, not {spec.name}", file=sys.stderr)
        return 1
    where = args.machine or machine()
    description = str(net.meta.get("description", ""))
    if " on " not in description:
        description = f"{description}, on {where}"
    net.meta["description"] = description
    net.meta["machine"] = where
    target = NETS / f"{spec.name}.npz"
    NETS.mkdir(parents=True, exist_ok=True)
    net.save(target)
    Net.load(target)  # it reads back
    print(f"{target}: {description} ({target.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
