"""Game-specific exact solvers, for games where a general engine is too slow. No I/O."""
