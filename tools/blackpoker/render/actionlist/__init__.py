"""The players' action lists (cheat sheets): HTML per format, a filterable full list, and A5/2-up/booklet PDFs.

``html.build_html`` writes the HTML lists and ``pdf.build_pdfs`` the PDFs under ``<out_dir>/actionlist/``
(separate because the PDFs take seconds and the HTML a fraction of one). ``view`` says what each list shows;
the rulebook's appendix reads it too, so this package imports nothing itself: the rulebook's code is not keyed
by the lists' renderers.
"""
