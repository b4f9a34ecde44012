"""The bottom layer: atomic files, the worker pool, the step cache, the toolchain key and the build locks.

Nothing here knows the rules, Sphinx or the renderers; it imports nothing else of the package, so every layer
above may use it (the contracts in pyproject.toml keep it so).
"""
