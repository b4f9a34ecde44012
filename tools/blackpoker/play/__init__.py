"""The play page's engine: a game between a person and a policy, as the page shows it.

It runs in the browser (Pyodide, in a Web Worker) from the pure-Python sources of ``core``, ``sim`` and
``render.board``, with the rules loaded from the site's JSON export: nothing here may import YAML, the schemas,
the pipeline or the command line (an import contract says so). The same code runs in CPython for the tests."""
