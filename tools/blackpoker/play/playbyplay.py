"""The play-by-play as one player may read it: the opponent's face-down bulwarks hidden (2.11.1: 非公開 to the
viewer) and every 「action name」 linked to its entry in the action list.

The play page and the tutorial send the whole play-by-play after every move. A :class:`PlayByPlay` belongs to one
game (or lesson) and links each line once, keeping it by its text: a move costs its new lines instead of the
whole game again (linking every line at every move made a long game's moves slower and slower, most of a view's
time by the end of a game). Undo keeps working: an earlier position's lines are the same texts.
"""

from __future__ import annotations

import re

from blackpoker.core.kinds import anchor
from blackpoker.core.model import Action, Rules
from blackpoker.sim.state import PLAYER_NAMES, GameState

ACTION_LIST = "../actionlist/html/all.html"  # from play/: the list with every entry

Line = list[list[str]]  # pieces: ``[text]`` or ``[text, href]``


def action_href(action: Action) -> str:
    return f"{ACTION_LIST}#{anchor(action)}"


_HIDDEN_BULWARK = re.compile(r"(?P<who>[AB])の防壁\[[^\]]*\]\((?P<state>[^)・]*)・裏\)")


def private_to(line: str, viewer: int) -> str:
    """A play-by-play line with the opponent's face-down bulwarks' cards hidden (2.11.1: 非公開 to the viewer)."""
    other = PLAYER_NAMES[1 - viewer]
    return _HIDDEN_BULWARK.sub(lambda m: (f"{other}の防壁[伏せ]({m['state']}・裏)" if m["who"] == other else m[0]), line)


def linked(line: str, names: dict[str, str]) -> Line:
    """A line as pieces ``[text]`` or ``[text, href]``: every 「action name」 links to its entry in the list."""
    pieces: Line = []
    at = 0
    for m in re.finditer(r"「([^」]+)」", line):
        href = names.get(m[1])
        if href is None:
            continue
        if m.start() > at:
            pieces.append([line[at:m.start()]])
        pieces.append([m[0], href])
        at = m.end()
    if at < len(line):
        pieces.append([line[at:]])
    return pieces


class PlayByPlay:
    """One game's play-by-play for ``viewer``, each line linked once (see the module's docstring). The lines it
    answers are shared between calls: callers only read them (the page gets them as JSON)."""

    def __init__(self, rules: Rules, viewer: int) -> None:
        self.viewer = viewer
        self._names = {a.name: action_href(a) for a in rules.actions}
        self._lines: dict[str, Line] = {}

    def lines(self, state: GameState) -> list[Line]:
        """The play-by-play of ``state`` (a position of this game), oldest line first."""
        known = self._lines
        out = []
        for text in state.events or ():
            line = known.get(text)
            if line is None:
                line = known[text] = linked(private_to(text, self.viewer), self._names)
            out.append(line)
        return out
