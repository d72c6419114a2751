"""Game-specific engines and exact solvers where a general search is too slow or too wide."""
