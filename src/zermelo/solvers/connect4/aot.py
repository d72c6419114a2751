"""The compiled kernel ahead of time: a CPython extension that numba builds once, loaded without
numba.

A process that solves one position pays for importing numba (about 0.3 s of CPU) and for numba's
first dispatch, which loads its compiler's registries (0.2 s more), before the first node is
searched, even when every function comes from numba's cache. ``numba.pycc`` compiles the same
kernel functions into an ordinary extension module; importing it takes a millisecond and needs
neither numba nor LLVM at run time.

The module is built from the kernel's source into a per-user cache folder
(``$ZERMELO_CACHE_DIR``, else ``$XDG_CACHE_HOME/zermelo``, else ``~/.cache/zermelo``), under a
name derived from the kernel's source, the numba and Python versions, the machine and the CPU
level it is compiled for (:func:`target_cpu`), so a new kernel or numba never loads a stale build,
and a cache folder shared by machines of different CPUs never loads one built for another.
Building needs a C compiler and takes about 20 s of CPU: the first process that loads the kernel
with numba starts it in the background (one at a time, with a lock file; ``ZERMELO_NO_AOT=1``
turns all of this off), and the processes started after it is ready load it instead of the numba
kernel. A build that fails is not tried again for that
name. The answers are the same: it is the same source compiled by the same compiler.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = [
    "ENTRY_POINTS",
    "aot_disabled",
    "build",
    "build_in_background",
    "cpu_level",
    "load",
    "module_path",
    "target_cpu",
]

_ARRAY = "int64[::1]"
ENTRY_POINTS = {
    "solve": f"int64(int64, int64, int64, boolean, {_ARRAY})",
    "solve_many": (
        f"void({_ARRAY}, {_ARRAY}, {_ARRAY}, boolean, boolean, {_ARRAY}, {_ARRAY}, {_ARRAY})"
    ),
    "at_most": f"boolean(int64, int64, int64, int64, {_ARRAY})",
    "mirror": "int64(int64, int64, int64)",
    "has_alignment": "boolean(int64, int64)",
    "canonical": "int64(int64, int64, int64, int64, int64)",
    "parse_lines": f"int64(uint8[::1], int64, int64, boolean, {_ARRAY}, {_ARRAY})",
    "solve_rows": f"int64({_ARRAY}, int64, boolean, {_ARRAY})",
    "format_rows": f"int64(uint8[::1], {_ARRAY}, int64, uint8[::1])",
}
"""The kernel functions the solver calls from Python, with their numba signatures."""

_STALE_LOCK = 900.0
"""Seconds after which a build's lock file is taken to belong to a build that died."""


def aot_disabled() -> bool:
    """True when ``ZERMELO_NO_AOT`` asks for the numba kernel only."""
    return os.environ.get("ZERMELO_NO_AOT", "").strip().lower() not in ("", "0", "false", "no")


def cache_dir() -> Path:
    override = os.environ.get("ZERMELO_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zermelo"


_X86_64_V3 = frozenset({"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"})
"""The CPU flags (as Linux's ``/proc/cpuinfo`` names them) of the x86-64-v3 level."""


def target_cpu() -> str:
    """The CPU model the extension is compiled for: ``"x86-64-v3"`` (AVX2, BMI, LZCNT: a tenth
    faster on Connect Four than the baseline) where Linux says this x86-64 processor has all of
    that level's features, else ``""``, numba's portable baseline. Never the host's own model
    name: under a virtual machine that can claim instructions the guest may not use."""
    if platform.machine().lower() not in ("x86_64", "amd64") or not sys.platform.startswith(
        "linux"
    ):
        return ""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("flags"):
                    return cpu_level(line.partition(":")[2].split())
    except OSError:
        pass
    return ""


def cpu_level(flags: Iterable[str]) -> str:
    """``"x86-64-v3"`` when ``flags`` (an x86-64 processor's, as Linux names them) include all of
    that level's, else ``""``."""
    return "x86-64-v3" if _X86_64_V3.issubset(flags) else ""


def _module_name() -> str:
    from zermelo.core.jit import numba_version

    source = (Path(__file__).parent / "kernel.py").read_bytes()
    shared = (
        Path(__file__).parents[2] / "core" / "jit.py"
    ).read_bytes()  # popcount is compiled from it
    facts = [
        source,
        shared,
        str(numba_version()).encode(),
        sys.version.encode(),
        platform.machine().encode(),
        target_cpu().encode(),
    ]
    digest = hashlib.sha256(b"\0".join(facts))
    return "_c4kernel_" + digest.hexdigest()[:16]


def module_path() -> Path:
    """Where the extension for this kernel, numba, Python and machine is (or would be)."""
    return cache_dir() / (_module_name() + importlib.machinery.EXTENSION_SUFFIXES[0])


def load() -> ModuleType | None:
    """The ahead-of-time kernel if it has been built (and is not disabled), else ``None``."""
    if aot_disabled():
        return None
    try:
        path = module_path()
        if not path.is_file():
            return None
        spec = importlib.util.spec_from_file_location(_module_name(), path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError):
        return None
    if not all(hasattr(module, name) for name in ENTRY_POINTS):
        return None
    return module


def build(kernel: ModuleType) -> Path:
    """Compile the extension now from ``kernel``, the numba kernel module (its functions' Python
    source is what numba compiles), and return its path. Minutes of waiting on a busy machine;
    raises what the compilation raises."""
    import warnings

    if not kernel.COMPILED or not hasattr(kernel.solve, "py_func"):
        raise RuntimeError("the ahead-of-time build needs numba's kernel (set ZERMELO_NO_AOT=1)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc announces its deprecation
        import numba.pycc

        compiler_class: Any = getattr(numba.pycc, "CC")  # noqa: B009 - untyped module

        target = module_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            compiler = compiler_class(_module_name())
            compiler.output_dir = scratch
            compiler.verbose = False
            compiler.target_cpu = target_cpu()
            for name, signature in ENTRY_POINTS.items():
                compiler.export(name, signature)(getattr(kernel, name).py_func)
            compiler.compile()
            built = next(Path(scratch).glob(_module_name() + "*"))
            os.replace(built, target)
    return target


def build_in_background() -> bool:
    """Start :func:`build` in a detached, low-priority process unless it is built, being built,
    known to fail, or disabled. Returns whether a build was started."""
    if aot_disabled():
        return False
    try:
        path = module_path()
        failed = path.with_suffix(".failed")
        if path.exists() or failed.exists():
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path.with_suffix(".lock")
        if lock.exists() and time.time() - lock.stat().st_mtime < _STALE_LOCK:
            return False
        lock.unlink(missing_ok=True)
        handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        os.close(handle)
    except OSError:
        return False
    code = (
        "import os\n"
        "if hasattr(os, 'nice'):\n"
        "    os.nice(10)\n"
        "from pathlib import Path\n"
        "from zermelo.solvers.connect4 import aot, kernel\n"
        f"lock, failed = Path({str(lock)!r}), Path({str(failed)!r})\n"
        "try:\n"
        "    aot.build(kernel)\n"
        "except BaseException as error:\n"
        "    failed.write_text(repr(error))\n"
        "finally:\n"
        "    lock.unlink(missing_ok=True)\n"
    )
    environment = dict(os.environ, ZERMELO_NO_AOT="1")
    try:
        subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=environment,
            start_new_session=True,
        )
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    return True
