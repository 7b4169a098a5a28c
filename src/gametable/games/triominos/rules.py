"""Triominos rules (``docs/rules/triominos.md``) behind the game protocol.

Actions (JSON objects):

``{"type": "place", "tile": "1-2-3", "position": [row, col], "rotation": k}``
    TR-PLACE-1..3: lay a tile of your hand. ``position`` and ``rotation`` are defined in
    :mod:`.lattice` and :mod:`.tiles`; a triple only has rotation 0. The first tile of a
    round goes on ``[0, 0]`` (TR-SETUP-3/4). With the PRESSMAN start it is the highest
    triple, or 0-0-0 when the starter holds both (TR-SETUP-4, rules version 2): the
    starter's choice is which of the two placements to make.
``{"type": "draw"}``
    TR-DRAW-1: take a tile from the pool (−5), at most 3 a turn; you may then place.
``{"type": "pass"}``
    TR-DRAW-2: after 3 draws (−10 more); TR-DRAW-3: with the pool empty and nothing to
    place (no penalty, even after a third draw that emptied the pool, rules version 2).

Rounds follow one another automatically: when a round ends (TR-END-1..3) its summary is
kept in ``view["rounds"]`` and the next round is dealt, until the game ends (TR-END-4).
Most points wins, ties shared, in both editions. (By rules versions 3 and 4 only, with the
PRESSMAN edition, when more than one player reached the target in the last round, that
round's winner won, after a published Pressman sheet: "If more than one player passes 400
points during the round, the winner of that round wins the game".)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, SupportsIndex

from pydantic import BaseModel, ValidationError

from gametable.core.actions import FrozenAction, FrozenList
from gametable.core.config import config_options, option_error, options_mapping
from gametable.core.errors import (
    IllegalAction,
    bad_field,
    check_fields,
    check_own_view,
    seat_index,
    unknown_action,
)
from gametable.core.protocol import Action, Event, Observation, Outcome, ScoreLine, Seat, rank
from gametable.core.rng import check_seed, shuffle
from gametable.core.values import json_copy
from gametable.games.triominos import heuristics, planning
from gametable.games.triominos.config import ALLOWED_SEATS, TriominosConfig, tiles_per_player
from gametable.games.triominos.encoding import TriominosEncoding
from gametable.games.triominos.lattice import CELLS, ORIGIN, pack, unpack
from gametable.games.triominos.layout import Geometry, Placement
from gametable.games.triominos.state import TriominosState
from gametable.games.triominos.tiles import (
    DEMAND_TILES,
    ROTATIONS,
    TILE_COUNT,
    TILE_IDS,
    TILE_NUMBER,
    TILE_VALUE,
    TILES,
    WILD,
    hand_tiles,
    hand_value,
    is_triple,
)

NAME: Final = "triominos"
ZERO_TRIPLE: Final = TILE_NUMBER["0-0-0"]
ZERO_TRIPLE_BONUS: Final = 40
"""TR-SETUP-4: opening with 0-0-0 scores 0 + 40."""
TRIPLE_BONUS: Final = 10
"""TR-SETUP-4: opening with the highest triple scores its value + 10."""
DRAW_ACTION: Final[dict[str, Any]] = FrozenAction(type="draw")
PASS_ACTION: Final[dict[str, Any]] = FrozenAction(type="pass")
MAX_DRAWS: Final = 3
PRESSMAN_END_VERSIONS: Final = range(3, 5)
"""The rules versions (3 and 4) in which a PRESSMAN game that several players end at or
above the target went to the last round's winner, as a published Pressman sheet says.
Before and since, the most points win, as TR-END-4 says for every edition."""
_NOBODY: Final[frozenset[int]] = frozenset()
_SEAT_SETS: Final = tuple(frozenset({seat}) for seat in range(max(ALLOWED_SEATS)))
_HEXAGON_BONUS: Final = ("", "hexagon", "double_hexagon", "triple_hexagon")

STANDARD_POINTS: Final[dict[str, int]] = {
    "bridge": 40, "extended_bridge": 40, "hexagon": 50, "double_hexagon": 60,
    "triple_hexagon": 70, "draw": -5, "pass": -10, "out": 25,
}
"""TR-BONUS-1..6, TR-DRAW-1/2, TR-END-2 in points."""
CHILDREN_POINTS: Final[dict[str, int]] = {
    "bridge": 1, "extended_bridge": 1, "hexagon": 1, "double_hexagon": 2,
    "triple_hexagon": 3, "draw": 0, "pass": 0, "out": 5,
}
"""The seed's children's scoring ("ÁBENDING")."""


def position_json(p: int) -> list[int]:
    """``[row, col]`` of packed position ``p``."""
    row, col = unpack(p)
    return [row, col]


CORNER_NAMES: Final[dict[bool, tuple[str, str, str]]] = {
    True: ("top", "lower_right", "lower_left"),
    False: ("upper_left", "upper_right", "bottom"),
}
"""A position's corners as a player sees them (``triominos.corners.*``), by whether it
points up, in the lattice's clockwise order (:mod:`.lattice`)."""

class Triominos:
    """The Triominos game object (registered as ``"triominos"``)."""

    name: str = NAME
    counts_rounds: bool = True
    """Its outcomes list each round's scores (``Outcome.rounds``; see
    :class:`gametable.core.protocol.CountsRounds`)."""
    config_model: type[BaseModel] = TriominosConfig

    # -- setup ----------------------------------------------------------------------

    def make_config(self, options: Mapping[str, Any] | None, seats: int) -> TriominosConfig:
        """Validate options for ``seats`` seats.

        Raises:
            ConfigError: unknown or invalid options, or a seat count outside 1–6
                (TR-SETUP-2).
            TypeError: ``seats`` is not a whole number, or ``options`` not a mapping.
        """
        try:
            config = TriominosConfig.model_validate(options_mapping(options))
        except ValidationError as error:
            raise option_error(error, TriominosConfig.option_rules, TriominosConfig) from None
        tiles_per_player(seats)
        return config

    def new_game(self, config: BaseModel | Mapping[str, Any], seats: int,
                 seed: SupportsIndex) -> TriominosState:
        """A game for ``seats`` seats; round 1 is set up at once (TR-SETUP-1..4).

        Raises:
            ValueError: ``seed`` is not a whole number from 0 to 2**63 − 1.
            ConfigError: see :meth:`make_config` (a mapping of options is validated by it).
            TypeError: ``config`` is neither a config nor a mapping of options.
        """
        if not isinstance(config, TriominosConfig):
            config = self.make_config(config_options(config), seats)
        tiles_per_player(seats)
        seed = check_seed(seed)
        state = TriominosState(config, seats, seed)
        self._start_round(state, [])
        return state

    def _start_round(self, state: TriominosState, events: list[Event]) -> None:
        """Shuffle all 56 tiles, choose the starter and deal (TR-SETUP-1..4)."""
        config = state.config
        seats = state.seats
        state.round += 1
        state.layout = type(state.layout)()
        state.board_json = []
        state.last = None
        state.out = None
        state.draws = 0
        state.forced = None
        state.openings = {}
        state.legal_cache = None
        state.round_points = [{} for _ in range(seats)]
        pool = list(range(TILE_COUNT))
        shuffle(state.rng, pool)
        event: Event = {"type": "round_start", "round": state.round}
        if config.starts_with_triple():
            self._deal(state, pool)
            starter, tile, bonus = _pressman_start(state.hands)
            state.forced = tile
            state.openings = _openings(state.hands[starter], tile, bonus, config)
            event |= {"rule": "highest_triple", "tile": TILE_IDS[tile], "bonus": bonus}
        else:
            starter, draws = _draw_for_start(pool, seats)
            # The drawn tiles go back before the deal: shuffle the pool again.
            shuffle(state.rng, pool)
            self._deal(state, pool)
            event |= {"rule": "highest_sum",
                      "draws": [[seat, TILE_IDS[tile]] for seat, tile in draws]}
        state.starter = state.current = starter
        event["starter"] = starter
        state.start = json_copy(event)  # the caller may change the event it is given
        events.append(event)

    def _deal(self, state: TriominosState, pool: list[int]) -> None:
        """TR-SETUP-2: deal each seat its tiles from the end of the shuffled pool."""
        count = tiles_per_player(state.seats)
        for seat in range(state.seats):
            mask = 0
            for _ in range(count):
                mask |= 1 << pool.pop()
            state.hands[seat] = mask
        state.pool = pool

    # -- queries --------------------------------------------------------------------

    def to_act(self, state: TriominosState) -> frozenset[Seat]:
        """The seat whose turn it is, or nobody once the game is over."""
        return _NOBODY if state.finished else _SEAT_SETS[state.current]

    def placements(self, state: TriominosState, seat: Seat) -> list[Placement]:
        """``seat``'s legal ``(tile, packed position, rotation)`` now (TR-PLACE-1..3).

        Empty when it is not ``seat``'s turn. The first tile of a round can only go on
        the origin; with the PRESSMAN start it must be one of the round's openings
        (TR-SETUP-4).
        """
        if seat != state.current or state.finished:
            return []
        hand = state.hands[seat]
        if state.openings and not state.layout.tiles:
            allowed = 0
            for tile in state.openings:
                allowed |= 1 << tile
            hand &= allowed
        return state.layout.placements(hand)

    def legal_actions(self, state: TriominosState, seat: Seat) -> list[Action]:
        """Placements, then ``draw`` and ``pass`` when the rules allow them.

        ``draw`` while the pool has tiles and fewer than 3 were drawn this turn
        (TR-DRAW-1; never before the round's first tile); ``pass`` after 3 draws
        (TR-DRAW-2) or with the pool empty and nothing to place (TR-DRAW-3). A PRESSMAN
        starter holding 0-0-0 and a higher triple gets both openings (TR-SETUP-4, rules
        version 2). Cached until the next :meth:`apply`: each call returns a new list of
        the same action objects, each a :class:`~gametable.core.actions.FrozenAction`
        (a placement's ``position`` a :class:`~gametable.core.actions.FrozenList`); copy
        one to change it (``copy.deepcopy``).
        """
        if type(seat) is not int:
            seat = seat_index(seat, state.seats)  # a seat of the table, or IllegalAction
        if seat != state.current:
            seat_index(seat, state.seats)
            return []
        if state.finished:
            return []
        cached = state.legal_cache
        if cached is not None:
            return list(cached)
        # Kept for the next call (``legal_cache``): each is frozen, as the protocol says.
        actions: list[Action] = [
            FrozenAction(type="place", tile=TILE_IDS[tile],
                         position=FrozenList(position_json(p)), rotation=rotation)
            for tile, p, rotation in self.placements(state, seat)
        ]
        if state.layout.tiles:
            if state.pool and state.draws < MAX_DRAWS:
                actions.append(DRAW_ACTION)
            if state.draws >= MAX_DRAWS or (not state.pool and not actions):
                actions.append(PASS_ACTION)
        state.legal_cache = actions
        return list(actions)

    # -- the one way to change a state ------------------------------------------------

    def apply(self, state: TriominosState, seat: Seat, action: Mapping[str, Any]
              ) -> list[Event]:
        """Validate, then carry out ``action`` for ``seat``.

        Raises:
            IllegalAction: out of turn, a tile not in hand or a position off the table
                (TR-PLACE-1..3, TR-SETUP-3/4), unmatched sides (TR-PLACE-1) or corners
                (TR-PLACE-2), a fourth draw or a draw from an empty pool (TR-DRAW-1), a
                pass the rules do not allow (TR-DRAW-2/3), a finished game (TR-END-4),
                a tile the set does not have, a mirror image such as ``"0-2-1"``
                (TR-TILE-1), or a malformed action (PROTOCOL, a tile of the set written
                from another corner among them). The state is then unchanged.
        """
        try:
            kind = action["type"]
        except (KeyError, TypeError):
            raise IllegalAction("PROTOCOL", "errors.malformed_action") from None
        if not isinstance(kind, str):
            raise IllegalAction("PROTOCOL", "errors.malformed_action")
        if state.finished:
            raise IllegalAction("TR-END-4", "errors.game_over")
        seat = seat_index(seat, state.seats)
        if seat != state.current:
            raise IllegalAction("TR-PLACE-3", "errors.not_your_turn", seat=seat,
                                current=state.current, to_play=state.current)
        state.public_view = None
        if kind == "place":
            tile, p, rotation = self._check_place(state, seat, action)
            events = self._place(state, seat, tile, p, rotation)
        elif kind == "draw":
            check_fields(action, kind)
            events = self._draw(state, seat)
        elif kind == "pass":
            check_fields(action, kind)
            events = self._pass(state, seat)
        else:
            raise unknown_action(kind, ("place", "draw", "pass"))
        state.actions += 1
        return events

    def _check_place(self, state: TriominosState, seat: Seat, action: Mapping[str, Any]
                     ) -> Placement:
        check_fields(action, "place", ("tile", "position", "rotation"))
        tile = _tile_number(action["tile"])
        position, rotation = action["position"], action["rotation"]
        if (not isinstance(position, list) or len(position) != 2
                or not all(type(x) is int for x in position)
                or not (abs(position[0]) < 256 and abs(position[1]) < 512)):
            raise bad_field("place", "position", position)
        if type(rotation) is not int:
            raise bad_field("place", "rotation", rotation)
        row, col = position
        tile_id = TILE_IDS[tile]
        if not 0 <= rotation < len(ROTATIONS[tile]):
            if len(ROTATIONS[tile]) == 1:  # a triple: it said "rotation 0 to 0"
                raise IllegalAction("PROTOCOL", "triominos.errors.rotation_fixed",
                                    tile=tile_id)
            raise IllegalAction("PROTOCOL", "triominos.errors.rotation", tile=tile_id,
                                last=len(ROTATIONS[tile]) - 1)
        if not state.hands[seat] >> tile & 1:
            raise IllegalAction("TR-PLACE-3", "triominos.errors.not_in_hand", tile=tile_id)
        p = pack(row, col)
        layout = state.layout
        where = f"{row},{col}"
        if not layout.tiles:
            if p != ORIGIN:
                raise IllegalAction("TR-SETUP-3", "triominos.errors.first_in_middle")
            if state.openings and tile not in state.openings:
                if len(state.openings) == 1:
                    raise IllegalAction("TR-SETUP-4", "triominos.errors.must_start_with",
                                        tile=TILE_IDS[next(iter(state.openings))])
                high, zero = sorted(state.openings, key=TILE_VALUE.__getitem__, reverse=True)
                raise IllegalAction("TR-SETUP-4", "triominos.errors.must_start_with_either",
                                    tile=TILE_IDS[high], zero=TILE_IDS[zero])
            return tile, p, rotation
        if p in layout.tiles:
            raise IllegalAction("TR-PLACE-1", "triominos.errors.taken", position=where)
        if p not in layout.open:
            raise IllegalAction("TR-PLACE-1", "triominos.errors.no_side", position=where)
        corners = ROTATIONS[tile][rotation]
        demand = layout.demand(p)
        cell = CELLS[p]
        on_shared_side: set[int] = set()
        for i, q in enumerate(cell.sides):
            if q in layout.tiles:
                on_shared_side.update((i, (i + 1) % 3))
        for i in sorted(on_shared_side):
            if demand[i] != corners[i]:
                raise IllegalAction("TR-PLACE-1", "triominos.errors.side_mismatch",
                                    position=where, corner=CORNER_NAMES[cell.up][i],
                                    need=demand[i], got=corners[i])
        for i in range(3):
            if demand[i] not in (WILD, corners[i]):
                raise IllegalAction("TR-PLACE-2", "triominos.errors.corner_mismatch",
                                    position=where, corner=CORNER_NAMES[cell.up][i],
                                    need=demand[i], got=corners[i])
        return tile, p, rotation

    def _place(self, state: TriominosState, seat: Seat, tile: int, p: int, rotation: int
               ) -> list[Event]:
        """TR-SCORE-1 and TR-BONUS-1..6: lay the tile and score it."""
        layout = state.layout
        first = not layout.tiles
        geometry = _NO_GEOMETRY if first else layout.geometry(p)
        bonus = self._bonus(state, geometry)
        children = state.config.children
        value = 1 if children else TILE_VALUE[tile]
        _score(state, seat, "tile", value)
        points = value
        if bonus:
            extra = _points(state, bonus)
            _score(state, seat, bonus, extra)
            points += extra
        start_bonus = state.openings.get(tile, 0) if first else 0
        if start_bonus:
            _score(state, seat, "start_bonus", start_bonus)
            points += start_bonus
        layout.place(p, tile, rotation, seat, bonus)
        laid = layout.tiles[p]
        state.board_json.append({
            "tile": TILE_IDS[tile], "position": position_json(p), "rotation": rotation,
            "corners": list(laid.corners), "seat": seat, "bonus": bonus})
        state.hands[seat] &= ~(1 << tile)
        state.last = p
        state.forced = None
        state.openings = {}
        state.legal_cache = None
        events: list[Event] = [{
            "type": "place", "seat": seat, "tile": TILE_IDS[tile],
            "position": position_json(p), "rotation": rotation, "points": points,
            "bonus": bonus,
        }]
        if not state.hands[seat] and state.out is None:
            state.out = seat
            # TR-END-1: the seats still to play before the round of turns is complete
            # (0: the round ends with this turn).
            events.append({"type": "out", "seat": seat,
                           "others_to_play": (state.starter - seat - 1) % state.seats})
        self._end_turn(state, events)
        return events

    def _bonus(self, state: TriominosState, geometry: Geometry) -> str | None:
        """The bonus a placement earns: hexagons first, then bridges (TR-BONUS-5)."""
        if geometry.hexagons:
            return _HEXAGON_BONUS[geometry.hexagons]
        if geometry.bridge:
            return "bridge"
        if geometry.extends_bridge and state.config.bridge_extends():
            return "extended_bridge"
        return None

    def _draw(self, state: TriominosState, seat: Seat) -> list[Event]:
        """TR-DRAW-1: take a tile from the pool for −5 (at most 3 a turn)."""
        if not state.layout.tiles:
            raise IllegalAction(_start_rule(state), "triominos.errors.starter_must_place")
        if not state.pool:
            raise IllegalAction("TR-DRAW-3", "triominos.errors.pool_empty")
        if state.draws >= MAX_DRAWS:
            raise IllegalAction("TR-DRAW-1", "triominos.errors.three_draws")
        tile = state.pool.pop()
        state.hands[seat] |= 1 << tile
        state.draws += 1
        state.legal_cache = None
        penalty = _points(state, "draw")
        if penalty:
            _score(state, seat, "draw", penalty)
        return [{"type": "draw", "seat": seat, "count": state.draws, "points": penalty,
                 "pool": len(state.pool)}]

    def _pass(self, state: TriominosState, seat: Seat) -> list[Event]:
        """TR-DRAW-2 (−10 after three draws) or TR-DRAW-3 (empty pool, no penalty)."""
        if not state.layout.tiles:
            # Before the round's first tile the starter neither draws nor passes.
            raise IllegalAction(_start_rule(state), "triominos.errors.starter_must_place")
        if state.draws < MAX_DRAWS:
            if state.pool:
                raise IllegalAction("TR-DRAW-1", "triominos.errors.draw_first",
                                    draws=state.draws)
            if self.placements(state, seat):
                raise IllegalAction("TR-DRAW-3", "triominos.errors.can_place")
        penalty = self.pass_points(state, seat)
        if penalty:
            _score(state, seat, "pass", penalty)
        state.legal_cache = None
        events: list[Event] = [{"type": "pass", "seat": seat, "points": penalty}]
        self._end_turn(state, events)
        return events

    def pass_points(self, state: TriominosState, seat: Seat) -> int:
        """What a pass by ``seat`` costs now, or once allowed (0 or negative points).

        TR-DRAW-2: −10 after three draws. TR-DRAW-3: nothing with the pool empty and no
        tile of the hand placeable, which wins over TR-DRAW-2 when the third draw emptied
        the pool (rules version 2; version 1 took the −10). Before the third draw with
        tiles left in the pool, the −10 a pass will cost after three draws.
        """
        if state.pool:
            return _points(state, "pass")
        if state.draws < MAX_DRAWS:
            return 0
        if state.config.rules_version >= 2 and not self.placements(state, seat):
            return 0
        return _points(state, "pass")

    def _end_turn(self, state: TriominosState, events: list[Event]) -> None:
        """Play passes clockwise; then check the end of the round (TR-END-1..3)."""
        state.turn += 1
        state.draws = 0
        state.current = (state.current + 1) % state.seats
        if state.out is not None:
            if state.current == state.starter:
                self._end_round(state, "out", events)
        elif not state.pool and not any(state.layout.can_place(h) for h in state.hands):
            self._end_round(state, "blocked", events)

    def _end_round(self, state: TriominosState, end: str, events: list[Event]) -> None:
        """TR-END-2 (went out) or TR-END-3 (blocked); then TR-END-4 or the next round."""
        values = [hand_value(h) for h in state.hands]
        children = state.config.children
        if end == "out":
            assert state.out is not None
            winners = [state.out]
            others = sum(values) - values[state.out]
            _score(state, state.out, "out", _points(state, "out"))
            if not children and others:
                _score(state, state.out, "hands_left", others)
        else:
            low = min(values)
            winners = [seat for seat, v in enumerate(values) if v == low]
            if not children:
                for seat in winners:
                    _score(state, seat, "blocked", sum(values) - 2 * values[seat])
        summary: dict[str, Any] = {
            "round": state.round,
            "end": end,
            "winners": winners,
            "tiles_left": [h.bit_count() for h in state.hands],
            "hand_values": values,
            "points": [line.to_json() for line in _lines(state)],
            "round_totals": [sum(p for _, p in d.values()) for d in state.round_points],
            "scores": list(state.scores),
            # The game's action count once this round's last action is applied: pages
            # name a seat as it was held then (``earlier``, docs/protocol.md).
            "actions": state.actions + 1,
        }
        state.history.append(summary)
        events.append({"type": "round_end"} | json_copy(summary))
        config = state.config
        if config.rounds is not None:
            over = state.round >= config.rounds
        else:
            over = max(state.scores) >= config.target_score
        if over:
            state.finished = True
            state.legal_cache = None
            events.append({"type": "game_over", "winners": _winners(state),
                           "rule": _win_rule(state)})
        else:
            self._start_round(state, events)

    # -- what players see ------------------------------------------------------------

    def view(self, state: TriominosState, seat: Seat | None) -> Observation:
        """The table, pool size, scores and tile counts, plus ``seat``'s own tiles.

        Also the table's ``options`` (those that differ from their defaults, and
        ``rules_version``).

        A seated view also has ``openings`` (the tiles this seat may open the round
        with and each one's start bonus, TR-SETUP-4; empty unless the seat lays a
        PRESSMAN round's first tile) and ``pass_points`` (what a pass costs this seat,
        now or once allowed, TR-DRAW-2/3; ``None`` when it is not the seat's turn).
        Other hands, the pool's tiles and the generator never appear.
        """
        if seat is not None:
            seat = seat_index(seat, state.seats)
        seated = seat is not None
        public = state.public_view
        if public is None:
            public = state.public_view = self._public_view(state)
        view: Observation = {"game": NAME, "seat": seat if seated else None, **public}
        if seated and seat is not None:
            view["hand"] = [TILE_IDS[t] for t in hand_tiles(state.hands[seat])]
            mine = seat == state.current and not state.finished
            view["openings"] = [{"tile": TILE_IDS[tile], "bonus": bonus}
                                for tile, bonus in state.openings.items()] if mine else []
            view["pass_points"] = self.pass_points(state, seat) if mine else None
        return view

    def _public_view(self, state: TriominosState) -> dict[str, Any]:
        """The part of every view that is the same for all seats (cached per action)."""
        config = state.config
        return {
            "round": state.round,
            "board": [{**tile, "position": list(tile["position"]),
                       "corners": list(tile["corners"])} for tile in state.board_json],
            "open": self._open_positions(state),
            "last": position_json(state.last) if state.last is not None else None,
            "pool": len(state.pool),
            "hand_sizes": [h.bit_count() for h in state.hands],
            "scores": list(state.scores),
            "round_points": [sum(p for _, p in d.values()) for d in state.round_points],
            "current": None if state.finished else state.current,
            "starter": state.starter,
            "draws": state.draws,
            "max_draws": MAX_DRAWS,
            "out": state.out,
            "forced": TILE_IDS[state.forced] if state.forced is not None else None,
            "round_start": json_copy(state.start),
            "penalties": {"draw": _points(state, "draw"), "pass": _points(state, "pass")},
            "extended_bridge": config.bridge_extends(),
            "rounds": json_copy(state.history),
            "target_score": None if config.rounds is not None else config.target_score,
            "round_limit": config.rounds,
            "turn": state.turn,
            "finished": state.finished,
            "winners": _winners(state) if state.finished else [],
            "win_rule": _win_rule(state) if state.finished else None,
            "options": json_copy(state.public_options),
        }

    def _open_positions(self, state: TriominosState) -> list[dict[str, Any]]:
        """Public facts about each open position: the numbers its corners need
        (``None``: any), whether any tile can ever fit, and the bonus a tile there earns."""
        layout = state.layout
        if not layout.tiles:
            return []
        facts = layout.facts
        found = []
        for p, key in layout.open.items():
            fact = facts.get(p)
            if fact is None:
                demand = layout.demand(p)
                fact = facts[p] = {
                    "position": position_json(p),
                    "demand": [None if n == WILD else n for n in demand],
                    "fillable": bool(DEMAND_TILES[key]),
                    "bonus": self._bonus(state, layout.geometry(p)),
                }
            found.append({**fact, "position": list(fact["position"]),
                          "demand": list(fact["demand"])})
        return found

    def sample_state(self, view: Observation, seat: Seat, rng: random.Random
                     ) -> TriominosState:
        """A state ``seat``'s ``view`` could have come from, for search (a determinization).

        The table, scores, finished rounds, turn and draws are taken from the view; the
        tiles it does not show (the 56 of TR-TILE-1 less those on the table and in the
        seat's hand) are shuffled with ``rng`` and dealt to the other hands and the pool.
        Before a PRESSMAN round's first tile the deal is drawn again until the starter
        holds the tile that made it start and nobody a higher one (TR-SETUP-4; after 200
        tries that tile is simply given to the starter). This round's points per seat are
        kept as one total each. The view does not say how many actions the game has had:
        the state counts from 0 (``actions``, which a round's summary keeps, is then
        smaller than the real game's). Never reads a real state.

        Raises:
            ValueError: not a seated view of this game, or counts that do not add up.
        """
        check_own_view(view, seat, NAME)
        sizes: list[int] = view["hand_sizes"]
        seats = len(sizes)
        config = self.make_config(view["options"], seats)
        state = TriominosState(config, seats, rng.getrandbits(64))
        state.round = view["round"]
        state.scores = list(view["scores"])
        state.history = list(view["rounds"])
        state.round_points = [{"tile": [1, points]} if points else {}
                              for points in view["round_points"]]
        layout = state.layout
        board = 0
        for laid in view["board"]:
            row, col = laid["position"]
            tile = TILE_NUMBER[laid["tile"]]
            layout.place(pack(row, col), tile, laid["rotation"], laid["seat"], laid["bonus"])
            board |= 1 << tile
        state.board_json = list(view["board"])
        last = view["last"]
        state.last = None if last is None else pack(last[0], last[1])
        own = 0
        for tile_id in view["hand"]:
            own |= 1 << TILE_NUMBER[tile_id]
        unseen = hand_tiles(((1 << TILE_COUNT) - 1) & ~board & ~own)
        if len(unseen) != sum(sizes) - sizes[seat] + view["pool"] or (
                sizes[seat] != own.bit_count()):
            raise ValueError("the view's tile counts do not add up (TR-TILE-1)")
        state.starter = view["starter"]
        forced = view["forced"]
        state.forced = None if forced is None else TILE_NUMBER[forced]
        pressman = state.forced is not None and not layout.tiles
        for attempt in range(200):
            rng.shuffle(unseen)
            pool = list(unseen)
            for other in range(seats):
                if other == seat:
                    state.hands[other] = own
                else:
                    mask = 0
                    for _ in range(sizes[other]):
                        mask |= 1 << pool.pop()
                    state.hands[other] = mask
            state.pool = pool
            if not pressman or _pressman_start(state.hands)[:2] == (state.starter,
                                                                   state.forced):
                break
            if attempt == 199 and state.starter != seat and state.forced is not None:
                # Give the starter its tile in exchange for one of its own.
                hand = state.hands[state.starter]
                if not hand >> state.forced & 1:
                    swap = hand_tiles(hand)[0]
                    for other in range(seats):
                        if state.hands[other] >> state.forced & 1:
                            state.hands[other] ^= 1 << state.forced | 1 << swap
                            break
                    else:
                        pool[pool.index(state.forced)] = swap
                    state.hands[state.starter] = hand ^ (1 << swap | 1 << state.forced)
        state.finished = view["finished"]
        state.current = seat if view["current"] is None else view["current"]
        state.draws = view["draws"]
        state.out = view["out"]
        state.start = view["round_start"]
        state.turn = view["turn"]
        if pressman and state.forced is not None:
            state.openings = _openings(state.hands[state.starter], state.forced,
                                       state.start["bonus"], config)
        return state

    def turn_key(self, state: TriominosState) -> str:
        """The round and the turn: every turn is a new decision for the turn clock
        (:class:`~gametable.core.protocol.HasTurns`, TR-TIME-1), a turn's draws
        (TR-DRAW-1) part of it."""
        return f"{state.round}:{state.turn}"

    def outcome(self, state: TriominosState) -> Outcome:
        """Points per seat; most points wins, ties shared (TR-END-4, every edition); one
        breakdown per finished round. Only a record played by rules versions 3 and 4
        with PRESSMAN ranks first the last round's winners when several reached the
        target (:func:`_round_winners_at_target`)."""
        scores = [float(s) for s in state.scores]
        rounds = state.round_lines
        if len(rounds) != len(state.history):  # a round ended since: build its lines
            rounds = state.round_lines = [
                [ScoreLine(line["seat"], line["points"], line["reason"], line["params"])
                 for line in summary["points"]] for summary in state.history]
        winners = _winners(state) if state.finished else []
        return Outcome(finished=state.finished, scores=scores, winners=winners,
                       ranking=_ranking(scores, winners), turns=state.turn,
                       rounds=[list(lines) for lines in rounds])

    def snapshot(self, state: TriominosState) -> dict[str, Any]:
        """Every field of the state, the generator's included (contains secrets): a
        copy of its own, which the caller may change."""
        fields: dict[str, Any] = json_copy({
            "round": state.round,
            "scores": list(state.scores),
            "history": list(state.history),
            "round_points": [dict(d) for d in state.round_points],
            "board": [[p, *laid] for p, laid in state.layout.tiles.items()],
            "open": dict(state.layout.open),
            "last": state.last,
            "pool": list(state.pool),
            "hands": list(state.hands),
            "starter": state.starter,
            "current": state.current,
            "draws": state.draws,
            "forced": state.forced,
            "openings": dict(state.openings),
            "out": state.out,
            "turn": state.turn,
            "actions": state.actions,
            "finished": state.finished,
            "rng": list(state.rng.getstate()[1]),
        })
        return fields

    def clone(self, state: TriominosState) -> TriominosState:
        """An independent copy of ``state``, generator included."""
        return state.copy()

    # -- static information for clients ----------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Seat counts, the options' JSON Schema and the 56 tile ids."""
        return {
            "name": NAME,
            "seats": {"allowed": list(ALLOWED_SEATS), "default": 2},
            "config_schema": TriominosConfig.model_json_schema(),
            "tiles": list(TILE_IDS),
        }

    def encoding(self, config: BaseModel, seats: int) -> TriominosEncoding:
        """Fixed-size arrays of views and a numbered action catalogue for games of
        ``seats`` seats, for learning agents (:mod:`.encoding`; the same for every
        config)."""
        return TriominosEncoding(seats)

    def public_info(self, config: BaseModel, seats: int) -> dict[str, Any]:
        """Facts fixed for a whole table: tiles per player and the scoring in use."""
        assert isinstance(config, TriominosConfig)
        return {
            "tiles_per_player": tiles_per_player(seats),
            "start_rule": "highest_triple" if config.starts_with_triple() else "highest_sum",
            "extended_bridge": config.bridge_extends(),
            "scoring": config.scoring,
            "points": CHILDREN_POINTS if config.children else STANDARD_POINTS,
            "target_score": None if config.rounds is not None else config.target_score,
            "rounds": config.rounds,
        }

    def rate_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """Greedy scores for ``actions`` from ``view`` (see :mod:`.heuristics`)."""
        return heuristics.rate_actions(view, actions)

    def rate_state_actions(self, state: TriominosState, seat: Seat,
                           actions: Sequence[Action]) -> list[float]:
        """The ratings of :meth:`rate_actions` for ``seat``'s view of ``state``, read off
        the state (its table is not rebuilt from the view): for a search player's
        determinizations."""
        mine = seat == state.current and not state.finished
        return heuristics.rate_on(
            state.layout, state.hands[seat], actions,
            penalties={"draw": _points(state, "draw"), "pass": _points(state, "pass")},
            extends=state.config.bridge_extends(),
            start_bonus={TILE_IDS[tile]: bonus for tile, bonus in state.openings.items()}
            if mine else {},
            pass_points=self.pass_points(state, seat) if mine else None)

    def plan_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """Stronger ratings for ``actions`` from ``view``, for the ``hard`` player (see
        :mod:`.planning`)."""
        return planning.plan_actions(view, actions)


_NO_GEOMETRY: Final = Geometry(0, False, 0, False)


def _points(state: TriominosState, what: str) -> int:
    return (CHILDREN_POINTS if state.config.children else STANDARD_POINTS)[what]


def _score(state: TriominosState, seat: Seat, reason: str, points: int) -> None:
    """Add ``points`` to ``seat`` and to this round's breakdown under ``reason``."""
    state.scores[seat] += points
    entry = state.round_points[seat].get(reason)
    if entry is None:
        state.round_points[seat][reason] = [1, points]
    else:
        entry[0] += 1
        entry[1] += points


def _lines(state: TriominosState) -> list[ScoreLine]:
    """This round's points per seat and reason, with how many times each happened."""
    return [ScoreLine(seat, points, f"triominos.reasons.{reason}", {"count": count})
            for seat, reasons in enumerate(state.round_points)
            for reason, (count, points) in reasons.items()]


def _leaders(state: TriominosState) -> list[Seat]:
    """TR-END-4: the seats with most points (ties share the win)."""
    best = max(state.scores)
    return [seat for seat, s in enumerate(state.scores) if s == best]


def _round_winners_at_target(state: TriominosState) -> list[Seat] | None:
    """A published Pressman sheet's end (PRESSMAN, rules versions 3 and 4 only, a game to
    a target; TR-END-4 gives the most points in every edition): when more than one
    player ended the last round at or above the target, the winners of that round (who
    went out first, or the lowest hand of a blocked round, TR-END-2/3) who are among
    them; ``None`` when the rule does not decide.

    Where the sheet is silent: a round winner below the target does not win (the game's
    object is to reach it), and the most points decide then (TR-END-4).
    """
    config = state.config
    if (config.edition != "PRESSMAN" or config.rules_version not in PRESSMAN_END_VERSIONS
            or config.rounds is not None or not state.history):
        return None
    reached = {seat for seat, s in enumerate(state.scores) if s >= config.target_score}
    if len(reached) < 2:
        return None
    chosen = [seat for seat in state.history[-1]["winners"] if seat in reached]
    return chosen or None


def _winners(state: TriominosState) -> list[Seat]:
    """The winners of a finished game: the Pressman round winners where that rule
    decides (:func:`_round_winners_at_target`), else the most points (TR-END-4)."""
    return _round_winners_at_target(state) or _leaders(state)


def _win_rule(state: TriominosState) -> str:
    """What decided a finished game: ``"round_winner"`` (the Pressman sheet's rule for
    several players at the target) or ``"points"`` (most points, TR-END-4)."""
    return "round_winner" if _round_winners_at_target(state) else "points"


def _ranking(scores: Sequence[float], winners: Sequence[Seat]) -> list[int]:
    """Competition ranks (1 = best) with ``winners`` first whatever their points, the
    others by points behind them."""
    if not winners or set(winners) == {s for s, v in enumerate(scores) if v == max(scores)}:
        return rank(scores)
    others = [v for s, v in enumerate(scores) if s not in winners]
    return [1 if seat in winners
            else 1 + len(winners) + sum(1 for o in others if o > v)
            for seat, v in enumerate(scores)]


def _draw_for_start(pool: list[int], seats: int) -> tuple[int, list[tuple[int, int]]]:
    """TR-SETUP-3: each seat draws a tile, highest sum starts, tied seats draw again.

    The drawn tiles stay in ``pool`` (they go back before the deal). Returns the
    starter and every ``(seat, tile)`` drawn, in order.
    """
    contenders = list(range(seats))
    drawn: list[tuple[int, int]] = []
    position = len(pool)
    while True:
        if len(contenders) == 1 or position < len(contenders):
            return contenders[0], drawn
        sums = []
        for seat in contenders:
            position -= 1
            tile = pool[position]
            drawn.append((seat, tile))
            sums.append(TILE_VALUE[tile])
        best = max(sums)
        contenders = [seat for seat, s in zip(contenders, sums, strict=True) if s == best]


def _start_rule(state: TriominosState) -> str:
    """The rule by which the round's starter opens: TR-SETUP-4 (the highest triple) or
    TR-SETUP-3 (the highest drawn sum)."""
    return "TR-SETUP-4" if state.config.starts_with_triple() else "TR-SETUP-3"


def _pressman_start(hands: list[int]) -> tuple[int, int, int]:
    """TR-SETUP-4: ``(starter, tile, bonus)``: the highest triple (+10, 0-0-0 +40), or
    without triples the highest tile (no bonus; equal sums: the tile with the higher
    numbers, largest first, **[decision]**)."""
    _, _, _, seat, tile = max(
        (is_triple(tile), TILE_VALUE[tile], TILES[tile][::-1], seat, tile)
        for seat, hand in enumerate(hands) for tile in hand_tiles(hand)
    )
    if not is_triple(tile):
        return seat, tile, 0
    return seat, tile, ZERO_TRIPLE_BONUS if tile == ZERO_TRIPLE else TRIPLE_BONUS


def _openings(hand: int, tile: int, bonus: int, config: TriominosConfig) -> dict[int, int]:
    """TR-SETUP-4: the tiles the starter may open with, each with its start bonus.

    ``tile`` (which made the starter start) with ``bonus``; with rules version 2 also
    0-0-0 (+40) when the starter holds it beside a higher triple (version 1 opened with
    the highest triple). Children's scoring has no start bonus.
    """
    openings = {tile: 0 if config.children else bonus}
    if (config.rules_version >= 2 and tile != ZERO_TRIPLE and is_triple(tile)
            and hand >> ZERO_TRIPLE & 1):
        openings[ZERO_TRIPLE] = 0 if config.children else ZERO_TRIPLE_BONUS
    return openings


def _tile_number(tile: object) -> int:
    """The tile a ``place`` action names (TR-TILE-1's ids: ``"0-1-2"``, the numbers
    read clockwise from the lowest, so never decreasing).

    Raises:
        IllegalAction: ``PROTOCOL`` / ``triominos.errors.tile_order`` for a tile's numbers
            written from another corner (``"1-2-0"``: 0-1-2 turned); ``TR-TILE-1`` /
            ``triominos.errors.mirror_tile`` for numbers that read clockwise make no tile
            of the set (``"0-2-1"``: the mirror image of 0-1-2, a different tile);
            ``errors.action_bad_value`` for anything else.
    """
    number = TILE_NUMBER.get(tile, -1) if isinstance(tile, str) else -1
    if number >= 0:
        return number
    if isinstance(tile, str):
        written = tile.split("-")
        lowest_first = sorted(written)
        ordered = "-".join(lowest_first)
        if ordered in TILE_NUMBER:
            if any(written[k:] + written[:k] == lowest_first for k in range(3)):
                raise IllegalAction("PROTOCOL", "triominos.errors.tile_order", tile=ordered,
                                    written=tile)
            raise IllegalAction("TR-TILE-1", "triominos.errors.mirror_tile", tile=ordered,
                                written=tile)
    raise bad_field("place", "tile", tile)
