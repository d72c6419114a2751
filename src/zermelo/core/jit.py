"""numba behind a shim, imported only when a kernel is compiled with it.

``make_jit(True)`` gives a decorator factory: ``jit(signature=None)`` compiles a function with
``numba.njit(cache=True)``; ``make_jit(False)`` returns the function unchanged, so the kernel's
source runs as plain Python too, only slower. Setting the environment variable
``ZERMELO_NO_NUMBA=1`` forces the plain path even where numba is installed. numba itself is imported
on the first ``make_jit(True)``: importing it costs about 0.3 s, which a process that loads the
ahead-of-time Connect Four kernel (:mod:`zermelo.solvers.connect4.aot`) never pays.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar, cast

from zermelo.core.errors import InvalidPositionError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "NUMBA_AVAILABLE",
    "cached",
    "finish",
    "kernel_variant",
    "make_popcount",
    "numba_available",
    "numba_disabled",
    "numba_version",
]

F = TypeVar("F", bound=Callable[..., object])
"""A kernel function: the decorators below give it back with its own signature."""

IntArray: TypeAlias = "NDArray[np.int64] | list[int]"
"""A kernel's integer array: an int64 numpy array when compiled, a list of ints in the plain copy.
(numpy is imported for the type checker only: without numba the plain copy needs no numpy.)"""

ByteArray: TypeAlias = "NDArray[np.uint8] | bytes | bytearray"
"""A kernel's text to read: a uint8 numpy array when compiled, bytes in the plain copy."""

OutBytes: TypeAlias = "NDArray[np.uint8] | bytearray"
"""A kernel's text to write: a uint8 numpy array when compiled, a bytearray in the plain copy."""

FloatArray: TypeAlias = "NDArray[np.float64] | list[float]"
"""A kernel's float array (weights, features), compiled or plain like :data:`IntArray`."""

# Any: numba's stubs cover its decorators only; its typing and lowering API is unannotated and
# llvmlite ships no types, so what they hand an intrinsic has no type to name.
Compiler: TypeAlias = Any
"""numba's typing and lowering objects (contexts, IR builder, signatures, LLVM values)."""

A = TypeVar("A")
"""The array a compiled helper is given (a numpy array or a list)."""


class Jit(Protocol):
    """``jit(signature=None, inline=False)``: the decorator :func:`make_jit` makes."""

    def __call__(self, signature: str | None = None, inline: bool = False) -> Callable[[F], F]: ...


def numba_disabled() -> bool:
    """True when ``ZERMELO_NO_NUMBA`` asks for the plain-Python path."""
    return os.environ.get("ZERMELO_NO_NUMBA", "").strip().lower() not in ("", "0", "false", "no")


def numba_available() -> bool:
    """Whether numba is installed (found without importing it)."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # pragma: no cover - a broken installation
        return False


def numba_version() -> str | None:
    """The installed numba version, or ``None`` (read from its metadata, not by importing it)."""
    from importlib import metadata

    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None


def make_jit(enabled: bool) -> Jit:
    """A decorator factory: ``jit(signature=None)`` is ``numba.njit(signature, cache=True)`` when
    ``enabled``, else the identity.

    Recursive functions get an explicit signature: numba can load them back from its cache, which
    it does not for recursion it has to infer. Their compilation waits for :func:`finish` (which
    :func:`kernel_variant` calls before it hands the compiled kernel out), so that importing a
    kernel never compiles: a face can first ask :func:`cached` whether the work is done."""
    if enabled:
        import numba

        def jit(signature: str | None = None, inline: bool = False) -> Callable[[F], F]:
            # "never" is numba's default
            how: Literal["always", "never"] = "always" if inline else "never"

            def decorate(function: F) -> F:
                # a Dispatcher calls like the function it compiled: for the type checker, it is one
                dispatcher = numba.njit(cache=True, nogil=True, inline=how)(function)
                if signature is not None:
                    _PENDING.setdefault(function.__module__, []).append((dispatcher, signature))
                return cast(F, dispatcher)

            return decorate

        return jit

    def identity_factory(signature: str | None = None, inline: bool = False) -> Callable[[F], F]:
        def identity(function: F) -> F:
            return function

        return identity

    return identity_factory


_PENDING: dict[str, list[tuple[Compiler, str]]] = {}
"""Per kernel module, its functions with an explicit signature that wait for :func:`finish`."""
_FINISH_LOCK = threading.Lock()


def pending(kernel: ModuleType) -> int:
    """How many of ``kernel``'s functions still wait for :func:`finish` to compile them."""
    return len(_PENDING.get(kernel.__name__, ()))


def finish(kernel: ModuleType, step: Callable[[str], None] | None = None) -> None:
    """Compile (or load from numba's cache) ``kernel``'s functions that have an explicit
    signature, as numba's eager compilation would have at import; ``step(name)`` is called after
    each. Thread-safe and idempotent."""
    with _FINISH_LOCK:
        waiting = _PENDING.get(kernel.__name__, [])
        while waiting:
            dispatcher, signature = waiting[0]
            dispatcher.compile(signature)
            dispatcher.disable_compile()
            waiting.pop(0)
            if step is not None:
                step(dispatcher.py_func.__name__)


def cached(kernel: ModuleType, names: Iterable[str]) -> bool:
    """Whether numba's cache (``NUMBA_CACHE_DIR``, else beside the source or the user's cache)
    holds compiled code, for this source, numba and machine, of every function ``names`` of the
    compiled ``kernel``: read from the cache's index files, without compiling anything. False
    for a plain kernel."""
    if not getattr(kernel, "COMPILED", False):
        return False
    for name in names:
        dispatcher: Compiler = getattr(kernel, name, None)
        cache = getattr(dispatcher, "_cache", None)
        if cache is None or not hasattr(cache, "_cache_file"):
            return False
        try:
            codegen = dispatcher.targetctx.codegen()
            index = cache._cache_file._load_index()
        except Exception:
            return False
        if not any(key == cache._index_key(key[0], codegen) for key in index):
            return False
    return True


def make_borrow(enabled: bool) -> Callable[[A], A]:
    """``borrow(array)``: the same array without its reference count, for compiled code only.

    numba counts references to an array: each call that passes one, and each return from it,
    changes the count with an atomic instruction. In the Connect Four search, called tens of
    millions of times a second, ``perf`` put a fifth of the solver's samples in those two
    functions. A borrowed array has no count to change (its ``meminfo`` is null, as for an array
    made from a raw pointer), so each becomes a test and a jump. The caller must keep the real
    array alive for as long as the borrowed one is used: an entry point borrows the array it was
    given, which its caller holds.
    Without numba, ``borrow`` returns its argument."""
    if not enabled:
        return _same

    import numba

    @numba.extending.intrinsic
    def borrow(typingctx: Compiler, array: Compiler) -> Compiler:
        def codegen(
            context: Compiler, builder: Compiler, signature: Compiler, args: Compiler
        ) -> Compiler:
            view = context.make_array(signature.args[0])(context, builder, args[0])
            view.meminfo = view.meminfo.type(None)  # a null pointer of that type
            view.parent = view.parent.type(None)
            return view._getvalue()

        return array(array), codegen

    return cast(Callable[[A], A], borrow)


def _same(value: A) -> A:
    return value


def make_prefetch(enabled: bool) -> Callable[[IntArray, int], None]:
    """``prefetch(array, index)``: ask the processor to bring ``array[index]``'s cache line in
    now (x86 ``prefetcht0``), so that a read of it a little later does not wait for memory.
    A hint with no effect on results; without numba it does nothing."""
    if not enabled:
        return _nothing

    import numba
    from llvmlite import ir
    from numba.core import cgutils, types

    @numba.extending.intrinsic
    def prefetch(typingctx: Compiler, array: Compiler, index: Compiler) -> Compiler:
        def codegen(
            context: Compiler, builder: Compiler, signature: Compiler, args: Compiler
        ) -> Compiler:
            kind = signature.args[0]
            view = context.make_array(kind)(context, builder, args[0])
            item_pointer: Compiler = cgutils.get_item_pointer
            where = item_pointer(context, builder, kind, view, [args[1]], wraparound=False)
            byte_pointer = ir.IntType(8).as_pointer()
            word = ir.IntType(32)
            hint = ir.FunctionType(ir.VoidType(), [byte_pointer, word, word, word])
            declare: Compiler = cgutils.get_or_insert_function
            intrinsic = declare(builder.module, hint, "llvm.prefetch.p0i8")
            # read (0), keep in every cache level (3), data not instructions (1)
            builder.call(
                intrinsic, [builder.bitcast(where, byte_pointer), word(0), word(3), word(1)]
            )
            return context.get_dummy_value()

        return types.none(array, index), codegen

    return cast(Callable[[IntArray, int], None], prefetch)


def _nothing(array: IntArray, index: int) -> None:
    return None


def _popcount_word(x: int) -> int:
    """Set bits of a 64-bit word, h8's sign bit included (SWAR: every step masks off what an
    arithmetic shift of a negative word smears; LLVM turns it into one ``popcnt``)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0x7F


def _popcount_int(x: int) -> int:
    """Set bits of a non-negative int."""
    return x.bit_count()


_COMPILED_POPCOUNT: list[Callable[[int], int]] = []


def make_popcount(enabled: bool) -> Callable[[int], int]:
    """``popcount(x)``, the number of set bits of ``x``, for the kernels: compiled by numba (one
    function, compiled once, that every kernel's compiled code calls) when ``enabled``, else
    Python's ``int.bit_count`` for the plain-Python copies, whose words are non-negative ints."""
    if not enabled:
        return _popcount_int
    if not _COMPILED_POPCOUNT:
        _COMPILED_POPCOUNT.append(make_jit(True)()(_popcount_word))
    return _COMPILED_POPCOUNT[0]


NUMBA_AVAILABLE: bool = numba_available()
"""Whether numba is installed (found without importing it)."""


_PLAIN_COPIES: dict[str, ModuleType] = {}
_SERVE_PLAIN: set[str] = set()


def serve_plain(module_name: str, plain: bool) -> None:
    """While ``plain``, ``kernel_variant(kernel, None, ...)`` of the kernel module named
    ``module_name`` gives its plain copy: its compiled code is being built in the background
    (:mod:`zermelo.solvers.kernels`), and the plain copy plays meanwhile."""
    if plain:
        _SERVE_PLAIN.add(module_name)
    else:
        _SERVE_PLAIN.discard(module_name)


def serving_plain(module_name: str) -> bool:
    """Whether :func:`serve_plain` holds the kernel module ``module_name`` on its plain copy."""
    return module_name in _SERVE_PLAIN


def kernel_variant(kernel: ModuleType, compiled: bool | None, what: str) -> ModuleType:
    """``kernel`` (a module whose functions ``make_jit`` compiled when numba is usable) or a
    plain-Python copy of it.

    ``compiled=None`` takes ``kernel`` itself (its pending functions compiled first, see
    :func:`finish`), unless :func:`serve_plain` asked for the plain copy while the compiled one is
    built elsewhere; ``True`` insists on the compiled functions (an
    error naming ``what`` when numba is unavailable); ``False`` always gives the plain copy,
    loaded once from the same source file with ``FORCE_PURE`` set."""
    is_compiled = bool(getattr(kernel, "COMPILED", False))
    if compiled and not is_compiled:
        raise InvalidPositionError(
            f"the compiled {what} is unavailable: install numba ('zermelo[fast]') and unset "
            "ZERMELO_NO_NUMBA"
        )
    if compiled or not is_compiled:
        finish(kernel)
        return kernel
    if compiled is None and not serving_plain(kernel.__name__):
        finish(kernel)
        return kernel
    # one copy per module: two kernels of one package (the draughts search and its endgame
    # database) must not share a name ("kernel" modules keep their old "_kernel_pure")
    package, _, leaf = kernel.__name__.rpartition(".")
    name = f"{package}._{leaf}_pure"
    copy = _PLAIN_COPIES.get(name)
    if copy is None:
        spec = importlib.util.spec_from_file_location(name, kernel.__file__)
        assert spec is not None and spec.loader is not None
        copy = importlib.util.module_from_spec(spec)
        copy.__dict__["FORCE_PURE"] = True
        sys.modules[name] = copy
        spec.loader.exec_module(copy)
        _PLAIN_COPIES[name] = copy
    return copy
