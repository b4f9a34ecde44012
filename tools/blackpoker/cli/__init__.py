"""The ``blackpoker`` command line: ``main`` is the entry point (see ``main.py``)."""
