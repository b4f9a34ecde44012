"""``{numref}`` without re-reading the target page for every reference.

Sphinx resolves each ``{numref}`` by loading its target's whole doctree (unpickled anew for every
reference) just to look at the labelled node. The rulebook has some forty of them, mostly into its
biggest pages, and the single page resolves them all at once: that was a quarter of an edit's Sphinx time.
This standard domain reads each target doctree once per builder run and shares it between the numref
lookups, which only read it; everything else gets a fresh doctree as before.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.domains.std import StandardDomain


class NumrefStandardDomain(StandardDomain):
    def resolve_xref(self, env: Any, fromdocname: str, builder: Any, typ: str, target: str,
                     node: Any, contnode: nodes.Element) -> nodes.reference | None:
        if typ != "numref":
            return super().resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
        shared: dict[str, nodes.document] = builder.__dict__.setdefault("_bp_numref_doctrees", {})
        read = env.get_doctree

        def get_doctree(docname: str) -> nodes.document:
            if docname not in shared:
                shared[docname] = read(docname)
            return shared[docname]

        env.get_doctree = get_doctree  # for this lookup only (an instance attribute shadows the method)
        try:
            return super().resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
        finally:
            del env.get_doctree
