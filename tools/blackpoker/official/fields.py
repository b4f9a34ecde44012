"""The field tables of the conversion: which official fields each kind of entry has (the official files' order,
in which the export writes a new entry), and the order our definitions write theirs, read from our JSON Schemas
(one place for a definitions file's field order: the schema that describes it)."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from blackpoker.core.paths import SCHEMAS
from blackpoker.official.reader import ACT, ACT_FRAME, FRAME, VERSION

ACTION_CATEGORIES = ("基本", "召喚", "速攻魔法", "通常魔法", "基礎魔法", "中級魔法", "上級魔法", "魔法", "誘発魔法",
                     "パック", "パック操作", "レアカード操作", "切札", "切札操作", "兵士起因")
CHARACTER_CATEGORIES = ("兵士", "防壁")
FOG_CATEGORIES = ("滞留魔法",)
TRUMP_CATEGORIES = ("立ち上がる兵", "表切札", "裏切札")
HEADER_KEYS = ("id", "ver", "lastupdate", "pdfurl_std", "pdfurl_lite", "pdfurl_pro", "pdfurl_mast",
               "qrStd", "qrLite", "qrPro", "qrMast")
HEADER_NAMES = {ACT: "act", ACT_FRAME: "act_frame", FRAME: "frame", VERSION: "version"}
UNIT_DRIVE = {"letter": "C", "name": "UnitDrive", "payment": "キーユニットをドライブする"}
PICTURE_NAME = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*/)?[A-Za-z0-9][A-Za-z0-9._-]*$")

# The official fields of each kind, in the order the export writes a new entry. Prose fields keep their text.
ACTION_FIELDS = ("format", "frame", "actName", "ruby", "actId", "actType", "actTrigger", "actSpeed", "actTime",
                 "actUnit", "actCost", "actKey", "actActCond", "actTriggerCond", "actNote", "actTarget", "actEffect",
                 "story", "flavor", "flavorSpeaker", "since", "update", "changed", "devNote")
CHARACTER_FIELDS = ("format", "frame", "charName", "ruby", "charId", "charType", "charKey", "charSize", "charNote",
                    "charLabel", "charAbility", "story", "flavor", "flavorSpeaker", "since", "update", "changed",
                    "devNote")
FOG_FIELDS = ("format", "frame", "fogName", "ruby", "fogId", "fogType", "fogKey", "fogTarget", "fogAbility",
              "story", "flavor", "flavorSpeaker", "since", "update", "changed", "devNote")
TRUMP_FIELDS = ("frame", "trumpName", "ruby", "trumpId", "trumpType", "trumpKey", "trumpAbility", "trumpLabel",
                "image", "story", "flavor", "flavorSpeaker", "since", "update", "changed", "devNote")
FRAME_FIELDS = ("name", "ruby", "image", "frameId", "format", "deck", "start", "actionList", "accessLevel", "inherits")
LISTS = {"actList": ("acts", ACTION_FIELDS), "charList": ("chars", CHARACTER_FIELDS),
         "fogList": ("fogs", FOG_FIELDS), "trumpList": ("trumps", TRUMP_FIELDS)}
TOP_KEYS = {ACT: ("data", "actList", "charList", "fogList"),
            ACT_FRAME: ("data", "actList", "charList", "fogList", "trumpList", "trumpData"),
            FRAME: ("data", "frames"), VERSION: ("ver", "lastupdate")}
PREFIX_KINDS = {"act": "action", "char": "character", "fog": "fog", "trump": "trump"}
PROSE = (("story", "story"), ("flavor", "flavor"), ("flavorSpeaker", "flavor_speaker"))


@cache
def schema_order(schema: str, definition: str) -> tuple[str, ...]:
    """The fields of one of our definitions entries (``actions.schema.json``, ``action``) in the order its schema
    lists them: the order the import writes them."""
    data: Any = json.loads((SCHEMAS / schema).read_text(encoding="utf-8"))
    return tuple(data["definitions"][definition]["properties"])


def ordered(data: dict[str, Any], schema: str, definition: str) -> dict[str, Any]:
    """The entry's fields in their schema's order (every field: a name the schema lacks is a bug)."""
    order = schema_order(schema, definition)
    missing = set(data) - set(order)
    assert not missing, missing
    return {key: data[key] for key in order if key in data}
