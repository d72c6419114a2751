"""Keep zermelo's message catalogs in step with the code, from a source checkout.

    python scripts/catalogs.py extract    # the code -> src/zermelo/i18n/zermelo.pot
    python scripts/catalogs.py update     # the .pot -> locale/<code>/LC_MESSAGES/zermelo.po
    python scripts/catalogs.py compile    # each zermelo.po -> zermelo.mo, in the package
    python scripts/catalogs.py check      # missing, fuzzy or stale entries; status 1 if any
    python scripts/catalogs.py all        # extract, update and compile, then check
    python scripts/catalogs.py init CODE  # start the catalog of a new language

The steps are :mod:`zermelo.i18n.catalogs`; see docs/i18n.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from zermelo.i18n.catalogs import (
    TEMPLATE,
    check,
    compile_catalogs,
    extract,
    init_catalog,
    translated_languages,
    update,
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python scripts/catalogs.py",
        description="Extract, update, compile and check zermelo's message catalogs.",
    )
    parser.add_argument(
        "step", choices=["extract", "update", "compile", "check", "all", "init"], help="what to do"
    )
    parser.add_argument("codes", nargs="*", help="language codes (default: all but English)")
    args = parser.parse_args(argv)
    codes: list[str] = args.codes
    unknown = [code for code in codes if code not in translated_languages()]
    if unknown and args.step != "init":
        expected = ", ".join(translated_languages())
        parser.error(f"unknown language(s) {', '.join(unknown)}: expected {expected}")
    if args.step == "init":
        if len(codes) != 1:
            parser.error("init takes one language code")
        path = init_catalog(codes[0])
        print(f"started {path}; add {codes[0]!r} to LANGUAGES in zermelo/i18n/__init__.py")
        return 0
    if args.step in ("extract", "all"):
        print(f"{TEMPLATE.name}: {'updated' if extract() else 'unchanged'}")
    if args.step in ("update", "all"):
        changed = update(codes)
        print(f"catalogs updated: {', '.join(changed) or 'none'}")
    if args.step in ("compile", "all"):
        changed = compile_catalogs(codes)
        print(f"compiled: {', '.join(changed) or 'none changed'}")
    if args.step in ("check", "all"):
        problems = check()
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s)" if problems else "catalogs complete and up to date")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
