"""Everything a reader sees, rendered from the one model: action lists, print parts, imposition,
the book and the Sphinx runner."""
