"""The rules as data: cards, key cards, targets, the YAML loader with positions, the schema, the model,
its semantic checks and the JSON export. Nothing here knows Sphinx, WeasyPrint, pypdf or process pools."""
