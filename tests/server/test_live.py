"""Whole games through the real server, and a crash in the middle of them."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from gametable.core import registry
from gametable.core.records import GameRecord, replay, start
from tests.aio import run_async
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.server

SECRET_KEYS = {"pile", "hands", "rng", "seed", "token", "token_hash", "host_hash",
               "submissions"}
RACES = {"dixit.errors.already_claimed", "dixit.errors.giver_chosen",
         "dixit.errors.not_giving", "dixit.errors.already_given",
         "dixit.errors.teammate_gives", "dixit.errors.giver_not_named",
         "server.errors.stale_version"}
"""Refusals that settle a race between seats deciding at once (Dixit): someone claimed
the storyteller role first, a teammate named the giver first, or a card given was
answered again before its state arrived (the refusals that say why a seat gives no card
now, DX-ROUND-2 and DX-TEAM-2, name each case)."""


def keys_of(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


async def create_table(http: httpx.AsyncClient, seats: int, options: dict[str, Any],
                       game: str = "sequence-cats") -> tuple[str, list[str]]:
    """A table of ``seats`` people, all joined; returns its id and the seat tokens."""
    response = await http.post("/api/tables", json={
        "game": game, "config": options, "name": "Seat 1",
        "seats": [{"kind": "human"}] * seats})
    created = response.json()
    tokens = [created["token"]]
    for seat in range(1, seats):
        joined = await http.post(f"/api/tables/{created['table']['id']}/join",
                                 json={"name": f"Seat {seat + 1}"})
        tokens.append(joined.json()["token"])
    return created["table"]["id"], tokens


async def random_client(url: str, token: str | None, seed: int) -> list[str]:
    """Play random legal moves for one seat (or watch) until the game ends.

    Returns every message received, as text.
    """
    rng = random.Random(seed)
    received: list[str] = []
    answered: Any = None  # the choices last answered: with simultaneous decisions, states
    # about others' actions arrive before our own action is applied; answer once, until
    # our own action is applied (or refused).
    me = None
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token} if token else
                                 {"type": "hello"}))
        async for text in ws:
            assert isinstance(text, str)
            received.append(text)
            message = json.loads(text)
            assert message["type"] != "error" or message["key"] in RACES, message
            if message["type"] == "welcome":
                me = message["seat"]
            if message["type"] == "error" or (message.get("type") == "state" and any(
                    event.get("seat") == me for event in message["events"])):
                answered = None
            if message["type"] != "state":
                continue
            if "outcome" in message:
                return received
            if message["legal"] and message["legal"] != answered:
                answered = message["legal"]
                await ws.send(json.dumps({"type": "action", "version": message["version"],
                                          "action": rng.choice(message["legal"])}))
    return received


Setup = tuple[str, int, dict[str, Any]]


async def play_through_server(server: LiveServer, setups: list[Setup]) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        tables = [await create_table(http, seats, options, game)
                  for game, seats, options in setups]
        games = []
        for index, (table_id, tokens) in enumerate(tables):
            url = f"{server.ws_url}/api/tables/{table_id}/ws"
            clients = [random_client(url, token, seed=index * 10 + seat)
                       for seat, token in enumerate(tokens)]
            clients.append(random_client(url, None, seed=0))
            games.append((table_id, tokens, clients))
        results = await asyncio.wait_for(
            asyncio.gather(*(asyncio.gather(*clients) for _, _, clients in games)), 240)
        finished = []
        for (table_id, tokens, _), messages in zip(games, results, strict=True):
            record = (await http.get(f"/api/tables/{table_id}/record")).json()
            finished.append({"tokens": tokens, "messages": messages, "record": record})
        return finished


def test_full_games_leak_nothing_but_each_seats_view(live_server: LiveServer) -> None:
    """Every message a client receives carries only its own view, from the first (the
    game as dealt) on: never another seat's hand, the draw pile or pool, the seed or
    anyone's token; in Dixit Party no hand at all while the first storyteller is being
    claimed (DX-PARTY-2)."""
    setups: list[Setup] = [
        ("sequence-cats", 2, {}), ("sequence-cats", 3, {}), ("sequence-cats", 4, {}),
        ("sequence-cats", 6, {"teams": 2}), ("sequence-cats", 2, {"sequences_to_win": 2}),
        ("triominos", 2, {"rounds": 2}), ("triominos", 3, {"target_score": 100}),
        ("triominos", 1, {"rounds": 1, "edition": "PRESSMAN"}),
        ("dixit", 4, {"first_storyteller": "first_seat", "target_score": 12}),
        ("dixit", 3, {"edition": "EN", "target_score": 10}),
        ("dixit", 7, {"target_score": 8}),
        ("dixit", 6, {"variant": "party"}),
        ("dixit", 6, {"variant": "team", "first_storyteller": "random"}),
    ]
    games = run_async(play_through_server(live_server, setups))
    for game in games:
        record = GameRecord.model_validate(game["record"])
        seats = len(record.seats)
        rules = registry.get(record.game)
        # The views each seat (and a spectator) should have been sent, version by version.
        expected: dict[int | None, dict[int, Any]] = {s: {} for s in [*range(seats), None]}
        for version, state in enumerate(states_of(record, initial=True)):
            for seat, views in expected.items():
                views[version] = json.loads(json.dumps(rules.view(state, seat)))
        secrets = [str(record.seed), *game["tokens"]]
        for client, messages in enumerate(game["messages"]):
            seat = client if client < seats else None
            assert messages, "a client received nothing"
            states = 0
            for text in messages:
                for secret in secrets:
                    if seat is not None and secret == game["tokens"][seat]:
                        continue
                    assert secret not in text, f"seat {seat} received a secret"
                message = json.loads(text)
                assert not SECRET_KEYS & set(keys_of(message)), message["type"]
                if message["type"] == "state":
                    states += 1
                    view = message["view"]
                    assert view == expected[seat][message["version"]]
                    if seat is None:
                        assert "hand" not in view
                    if view.get("variant") == "party" and view.get("phase") == "claim":
                        assert view.get("hand", []) == [], "DX-PARTY-2: a hand, unclaimed"
            assert states > 0


def states_of(record: GameRecord, *, initial: bool = False) -> list[Any]:
    """The state after each action of a (legal, finished) record; with ``initial``, the
    game as dealt first."""
    rules = registry.get(record.game)
    states: list[Any] = [start(record)[2]] if initial else []
    result = replay(record, on_step=lambda _n, state, _e: states.append(rules.clone(state)))
    assert result.game.outcome(result.state).finished
    return states


async def watch_until(url: str, token: str | None, done: Any, timeout: float = 180
                      ) -> dict[str, Any]:
    """Connect and return the first state message for which ``done(message)`` holds.

    ``timeout`` only bounds a table that stopped moving: on a loaded machine the rest of
    a computer players' game takes many times the few seconds it takes on an idle one."""
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token} if token else
                                 {"type": "hello"}))
        deadline = time.monotonic() + timeout
        while True:
            text = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            message = json.loads(text)
            if message["type"] == "state" and done(message):
                return message


def test_kill_9_and_restart_lose_nothing_acknowledged(live_server: LiveServer) -> None:
    """A crash (SIGKILL) mid-game; after a restart every table resumes, bots included."""

    async def before_crash() -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=live_server.url) as http:
            bots = (await http.post("/api/tables", json={
                "game": "sequence-cats",
                "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
            })).json()
            human = (await http.post("/api/tables", json={
                "game": "sequence-cats", "name": "Anna",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            })).json()
        url = f"{live_server.ws_url}/api/tables/{human['table']['id']}/ws"
        acknowledged = 0
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": human["token"]}))
            while acknowledged < 6:
                message = json.loads(await ws.recv())
                if message["type"] != "state":
                    continue
                acknowledged = message["version"]
                if message["legal"]:
                    await ws.send(json.dumps({"type": "action", "action": message["legal"][0],
                                              "version": message["version"]}))
        return {"bots": bots["table"]["id"], "human": human["table"]["id"],
                "token": human["token"], "acknowledged": acknowledged}

    # Slow bots, so that the all-bot game is still running when the server dies.
    live_server.stop()
    live_server.bot_delay = 0.05
    live_server.start()
    seen = run_async(before_crash())
    with httpx.Client(base_url=live_server.url) as http:
        bots_before = http.get(f"/api/tables/{seen['bots']}").json()["version"]
    live_server.kill()
    live_server.start()

    async def after_restart() -> tuple[dict[str, Any], dict[str, Any]]:
        human_url = f"{live_server.ws_url}/api/tables/{seen['human']}/ws"
        bots_url = f"{live_server.ws_url}/api/tables/{seen['bots']}/ws"
        resumed = await watch_until(human_url, seen["token"], lambda m: True)
        finished = await watch_until(bots_url, None, lambda m: "outcome" in m)
        return resumed, finished

    resumed, finished = run_async(after_restart())
    assert resumed["version"] >= seen["acknowledged"]
    assert resumed["view"]["seat"] == 0 and len(resumed["view"]["hand"]) == 5
    assert finished["version"] > bots_before > 0
    with httpx.Client(base_url=live_server.url) as http:
        record = GameRecord.model_validate(http.get(
            f"/api/tables/{seen['bots']}/record").json())
    assert replay(record).game.outcome(replay(record).state).finished
