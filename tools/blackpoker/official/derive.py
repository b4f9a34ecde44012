"""What the official files leave implicit: which action summons a character (summoned_by), places a fog
(placed_by), is enabled by a trump (enables). The official files say these only in effect texts and names."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from blackpoker.official.context import Context, Entry


def _texts(blocks: list[Any]) -> Iterator[str]:
    for block in blocks:
        if isinstance(block, str):
            yield block
        else:
            for items in block.values():
                for item in items:
                    if isinstance(item, str):
                        yield item
                    else:
                        yield item["text"]
                        yield from _texts(item["sub"])


def effect_text(a: Entry) -> str:
    """An action's whole effect as one text, for the wording that names what it summons or places."""
    return "".join(_texts(a.data["effect"]))


def derive(ctx: Context, actions: list[Entry], characters: list[Entry], fogs: list[Entry],
           trumps: list[Entry]) -> None:
    """summoned_by, placed_by and enables. Summoning wording the check cannot read (「…召喚」を参照) is a warning:
    the character is kept with no summoning action, as the edition the import writes is not simulated."""
    for c in characters:
        name = c.data["name"]
        c.data["summoned_by"] = [a.data["id"] for a in actions
                                 if re.search(f"{re.escape(name)}と(して|する)", effect_text(a))]
        if not c.data["summoned_by"]:
            del c.data["summoned_by"]
            ctx.warn(c.src, c.path + ("charName",), f"no action's effect makes a card {name} ('{name}として'): "
                     "kept without a summoning action; the simulator cannot summon it")
    for f in list(fogs):
        named = [a for a in actions if a.data["name"] == f.data["name"]]
        placing = [a for a in named if "フォグにキーカードを置" in effect_text(a)] or named
        if len(placing) != 1:
            ctx.error(f.src, f.path + ("fogName",), f"no single action named '{f.data['name']}' that puts its "
                      "key card in the fog; expected the action that places this fog to have the fog's name")
            fogs.remove(f)
            continue
        action = placing[0]
        f.data["placed_by"] = action.data["id"]
        key = f.data.pop("key_card")
        if key != action.data.get("key_card"):
            ctx.error(f.src, f.path + ("fogKey",), f"'{key}' is not the key card of action "
                      f"'{action.data['name']}' ('{action.data.get('key_card')}'); a fog's key card is that "
                      "of the action that places it")
            fogs.remove(f)
            continue
        if (f.data.get("formats"), f.frames) != (action.data.get("formats"), action.frames):
            where = "format" if "formats" in f.data else "frame"
            ctx.error(f.src, f.path + (where,), f"the fog's {where} is not that of action "
                      f"'{action.data['name']}'; a fog is available where the action that places it is")
            fogs.remove(f)
            continue
        f.data.pop("formats", None)  # a fog is available where its action is: not stored twice
    for t in trumps:
        label = t.data.get("grants_label")
        if label:
            enabling = [a.data["id"] for a in actions
                        if re.fullmatch(f"<{re.escape(label)}> を持つ兵士[0-9]+体", a.data.get("key_card", ""))]
            if len(enabling) == 1:
                t.data["enables"] = enabling[0]

