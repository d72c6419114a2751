"""zermelo's version, in one place below every layer (the package's ``__version__`` and the
cluster's check that every worker runs the same zermelo read it)."""

__all__ = ["VERSION"]

VERSION = "0.1.0"
