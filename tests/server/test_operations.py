"""Operations: liveness and readiness, Prometheus metrics, JSON logs, and a graceful
shutdown that stops taking actions, stores what it took and tells clients to reconnect."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gametable.server import app as app_module
from gametable.server.app import Settings, create_app
from gametable.server.folderlock import HOLDERS
from gametable.server.storage import StorageError
from tests.aio import run_async
from tests.server.conftest import LiveServer, free_port
from tests.server.test_http import HUMAN, create
from tests.server.test_socket import connect, hello, next_of


async def state_of(ws: websockets.ClientConnection) -> dict[str, Any]:
    """The next ``state`` message."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state":
            return dict(message)


def metric(text: str, name: str) -> float:
    """The value of the sample ``name`` (with its labels) in Prometheus' text format."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise LookupError(name)


def test_health_readiness_and_metrics(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
    with TestClient(create_app(settings), client=("127.0.0.1", 4000)) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ready", "tables": 0}
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        client.post(f"/api/tables/{table_id}/join", json={})
        with connect(client, table_id) as ws:
            _, state = hello(ws, created["token"])
            ws.send_json({"type": "action", "action": state["legal"][0], "version": 0})
            next_of(ws, "state")
            ws.send_json({"type": "action", "action": {"type": "dance"}})
            assert next_of(ws, "error")["code"] == "illegal_action"
            text = client.get("/metrics").text
            assert client.get("/metrics").headers["content-type"].startswith("text/plain")
            assert metric(text, "gametable_connections") == 1
        assert metric(text, "gametable_open_tables") == 1
        assert metric(text, "gametable_tables_in_play") == 1
        assert metric(text, 'gametable_actions_total{by="person",code="",outcome="accepted"}'
                      ) == 1
        assert metric(text, 'gametable_actions_total{by="person",code="illegal_action",'
                      'outcome="refused"}') == 1
        # The process's own figures: memory, open files, CPU.
        assert metric(text, "process_resident_memory_bytes") > 0
        assert metric(text, "process_open_fds") > 0
        assert metric(text, "gametable_action_update_seconds_count") == 1
        assert metric(text, "gametable_storage_write_seconds_count") >= 1
        assert "gametable_bot_decision_seconds_count" in text


def test_the_actions_metric_tells_computer_players_from_people(tmp_path: Path) -> None:
    """Nearly all refusals counted in a soak were the server's own computer players
    losing Dixit's race to claim the storyteller (615 of 620): the actions' counter says
    who sent each, ``person`` or ``computer``."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
    with TestClient(create_app(settings), client=("127.0.0.1", 4000)) as client:
        made = client.post("/api/tables", json={
            "game": "dixit", "name": "Anna",
            "seats": [HUMAN] + [{"kind": "bot", "bot": "random"}] * 3})
        assert made.status_code == 201, made.text
        with connect(client, made.json()["table"]["id"]) as ws:
            hello(ws, made.json()["token"])
            # The computer players claim the storyteller; the first claim wins.
            while next_of(ws, "state")["view"].get("storyteller") is None:
                pass
            text = client.get("/metrics").text
        assert metric(text, 'gametable_actions_total{by="computer",code="",'
                      'outcome="accepted"}') >= 1
        assert 'by="person"' not in text


def test_metrics_are_for_the_monitorings_addresses_only(tmp_path: Path) -> None:
    """`/metrics` tells, among other things, how long each computer player took to decide
    (a timing that may depend on its hand): by default only this machine may read it;
    others get 403 and no figures. ``metrics_from`` names the monitoring's networks."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
    app = create_app(settings)
    with TestClient(app, client=("203.0.113.9", 4000)) as outsider:
        refused = outsider.get("/metrics")
        assert refused.status_code == 403
        assert refused.json()["code"] == "metrics_private"
        assert "gametable_" not in refused.text
        # Ready, and no more: how many tables are open told anyone polling it when
        # games began and ended.
        assert outsider.get("/readyz").json() == {"status": "ready"}
    with TestClient(app, client=("::1", 4000)) as local:
        assert local.get("/metrics").status_code == 200
    monitored = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                         metrics_from=("10.0.0.0/8",))
    app = create_app(monitored)
    with TestClient(app, client=("10.1.2.3", 4000)) as monitor:
        assert "gametable_actions_total" in monitor.get("/metrics").text
    with TestClient(app, client=("127.0.0.1", 4000)) as local:
        assert local.get("/metrics").status_code == 403


def test_not_ready_while_draining_or_when_storage_is_gone(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
    with TestClient(create_app(settings)) as client:
        manager = client.app.api.state.manager  # type: ignore[attr-defined]
        manager.storage.close()
        assert client.get("/readyz").json() == {"status": "storage"}
        manager.draining = True
        response = client.get("/readyz")
        assert response.status_code == 503 and response.json() == {"status": "draining"}
        assert client.get("/healthz").status_code == 200


def test_a_load_balancer_probing_through_an_outage_gets_a_line_a_minute_not_one_a_probe(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Every ``/readyz`` while the database was away logged a warning of its own: with a
    load balancer asking every few seconds, the outage filled the log. It is logged as
    it begins, once a minute while it lasts, and as it ends."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
    with TestClient(create_app(settings)) as client:
        manager = client.app.api.state.manager  # type: ignore[attr-defined]

        def gone() -> None:
            raise StorageError("the database is away")

        monkeypatch.setattr(manager.storage, "ping", gone)
        with caplog.at_level("WARNING", logger="gametable.server"):
            for _ in range(10):
                assert client.get("/readyz").json() == {"status": "storage"}
            monkeypatch.undo()
            assert client.get("/readyz").status_code == 200
            assert client.get("/readyz").status_code == 200
    said = [record.getMessage() for record in caplog.records if "not ready" in
            record.getMessage()]
    assert len(said) == 2, said
    assert said[0].startswith("not ready: the table storage does not answer (readiness "
                              "check): the database is away; this process is not ready "
                              "until it does"), said
    assert said[1].startswith("not ready: the table storage answers again, after "), said
    assert "(10 attempts failed)" in said[1], said


def test_not_ready_when_storage_does_not_answer_in_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that hangs (PostgreSQL gone, its pool waiting) made ``/readyz`` wait as
    long as the pool's own timeout; it answers 503 after ``READY_SECONDS`` instead."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
    released = threading.Event()
    monkeypatch.setattr(app_module, "READY_SECONDS", 0.2)
    with TestClient(create_app(settings)) as client:
        manager = client.app.api.state.manager  # type: ignore[attr-defined]
        monkeypatch.setattr(manager.storage, "ping", lambda: released.wait(30))
        try:
            response = client.get("/readyz")
        finally:
            released.set()
        assert response.status_code == 503 and response.json() == {"status": "storage"}
        monkeypatch.undo()
        assert client.get("/readyz").status_code == 200


def test_while_draining_nothing_new_is_taken(tmp_path: Path) -> None:
    """At shutdown the server stopped taking actions, but still made tables, ended games
    and welcomed new websockets, whose clients then lost their work with the process."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
    with TestClient(create_app(settings)) as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        manager = client.app.api.state.manager  # type: ignore[attr-defined]
        manager.draining = True
        made = client.post("/api/tables", json={"game": "sequence-cats", "seats": [HUMAN, HUMAN]})
        assert made.status_code == 503 and made.json()["code"] == "shutting_down"
        assert made.headers["retry-after"] == "1"
        joined = client.post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 503
        assert client.get(f"/api/tables/{table_id}").status_code == 200  # reading is fine
        assert client.get("/api/games").status_code == 200
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1012
        manager.draining = False


@pytest.fixture
def json_server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0, options=["--json-logs"])
    live.start()
    yield live
    live.stop()


def test_sigterm_drains_stores_and_tells_clients_to_reconnect(json_server: LiveServer
                                                              ) -> None:
    """On SIGTERM the server takes no more actions, keeps every one it acknowledged,
    closes websockets with 1012 (service restart) and logs one JSON object a line."""
    with httpx.Client(base_url=json_server.url, timeout=30) as http:
        created = http.post("/api/tables", json={"game": "sequence-cats", "name": "Anna",
                                                 "seats": [HUMAN, HUMAN]}).json()
        table_id = created["table"]["id"]
        joined = http.post(f"/api/tables/{table_id}/join", json={}).json()

    async def play_then_stop() -> tuple[int, list[str], int | None]:
        url = f"{json_server.ws_url}/api/tables/{table_id}/ws"
        received: list[str] = []
        async with websockets.connect(url) as anna, websockets.connect(url) as bea:
            await anna.send(json.dumps({"type": "hello", "token": created["token"]}))
            await bea.send(json.dumps({"type": "hello", "token": joined["token"]}))
            first = await state_of(anna)
            ws = anna
            if not first["legal"]:  # the other seat starts
                ws = bea
                first = await state_of(ws)
            await ws.send(json.dumps({"type": "action", "version": 0,
                                      "action": first["legal"][0]}))
            version = 0
            while version != 1:
                version = (await state_of(ws))["version"]
            assert json_server.process is not None
            json_server.process.send_signal(signal.SIGTERM)
            code = None
            try:
                async for text in ws:
                    received.append(str(text))
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
            if ws.close_code is not None:
                code = ws.close_code
        return version, received, code

    version, received, code = run_async(play_then_stop())
    assert json_server.process is not None
    # uvicorn ends by the signal it was sent, once it has shut down and let go of the
    # folder: its file in serve.holders is gone (docs/deploy.md; SIGTERM left it).
    assert json_server.process.wait(30) in (0, -signal.SIGTERM)
    assert list((json_server.data_dir / HOLDERS).iterdir()) == []
    assert version == 1 and code == 1012
    assert {"type": "restarting"} in [json.loads(text) for text in received]
    lines = [line for line in json_server.log.read_text().splitlines() if line.strip()]
    logged = [json.loads(line) for line in lines]  # every line one object, banner too
    assert logged and all({"time", "level", "logger", "message"} <= set(e) for e in logged)
    assert all(e["time"].endswith("+00:00") and "T" in e["time"] for e in logged), logged
    messages = [entry["message"] for entry in logged]
    assert any("in your browser" in message for message in messages), messages
    assert any(message.startswith("draining") for message in messages), messages
    assert messages[-1] == "stopped: every table stored", messages
    json_server.start()  # the acknowledged action is still there
    with httpx.Client(base_url=json_server.url, timeout=30) as http:
        assert http.get(f"/api/tables/{table_id}").json()["version"] == 1
    json_server.stop()


def test_the_log_writes_no_redis_password() -> None:
    """``--redis redis://:secret@host/0``: the log line that a process joined, and the
    message that refuses one with other keys, name the Redis server without its
    password."""
    from gametable.server.cluster import without_password  # noqa: PLC0415

    assert without_password("redis://:s3cret@10.0.0.5:6379/0") == "redis://:***@10.0.0.5:6379/0"
    assert without_password("rediss://app:s3cret@cache.example:6380/1?x=1") == (
        "rediss://app:***@cache.example:6380/1?x=1")
    assert without_password("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def test_a_frame_that_is_not_utf8_is_one_warning_in_the_log(live_server: LiveServer
                                                            ) -> None:
    """A text frame that is not UTF-8 closes its socket (1007); it was also uvicorn's
    ERROR with a traceback each time, so that anyone could fill the log with errors. It
    is one line at WARNING now."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        table_id = http.post("/api/tables", json={
            "game": "sequence-cats", "name": "Anna", "seats": [HUMAN, HUMAN]}).json()[
            "table"]["id"]
    url = f"{live_server.ws_url}/api/tables/{table_id}/ws"

    async def send_bad() -> int | None:
        async with websockets.connect(url) as ws:
            # A text frame (opcode 1) whose payload is not UTF-8, as a faulty client sends.
            await _bad_text(ws)
            try:
                await ws.recv()
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
        return None

    assert run_async(send_bad()) == 1007
    log = live_server.log.read_text(errors="replace")
    assert "Invalid UTF-8 sequence received from client." in log
    assert "ERROR uvicorn" not in log and "Traceback" not in log, log


def test_a_server_whose_database_cannot_be_reached_says_so_in_one_line(tmp_path: Path
                                                                     ) -> None:
    """PostgreSQL out of reach: the operator read the address to open, then twenty
    lines of uvicorn's traceback. Now one line says what is wrong, and nothing says
    to open a server that never started."""
    done = subprocess.run(
        [sys.executable, "-m", "gametable", "serve", "--port", str(free_port()), "--data-dir",
         str(tmp_path), "--database", "postgresql://nobody@127.0.0.1:9/nothing"],
        capture_output=True, text=True, timeout=60, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    assert "the server cannot start: PostgreSQL: connection failed" in said
    assert "Traceback" not in said and "in your browser" not in said, said
    assert len(said.strip().splitlines()) == 1, said  # (the driver's message had two)


def test_a_damaged_sqlite_file_is_told_in_one_line_and_left_as_it_was(tmp_path: Path
                                                                      ) -> None:
    """A data folder whose ``gametable.sqlite3`` is not a database (a disk fault, a file
    copied over it) printed uvicorn's twenty-line traceback. One line now names the file
    and what to do; the file is not touched, so a backup of it can still be tried."""
    damaged = tmp_path / "gametable.sqlite3"
    damaged.write_bytes(b"not a database " * 400)
    before = damaged.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "gametable", "serve", "--port", str(free_port()), "--data-dir",
         str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    assert f"the server cannot start: SQLite: {damaged} cannot be used" in said, said
    assert "backup" in said
    assert "Traceback" not in said and "in your browser" not in said, said
    assert len([line for line in said.splitlines() if "ERROR" in line]) == 1, said
    assert damaged.read_bytes() == before


def test_a_second_server_on_a_data_folder_in_use_refuses_to_start(live_server: LiveServer
                                                                  ) -> None:
    """A ``./scripts/serve`` while the service runs on the same folder started, served
    the tables as they were and refused their moves ("another action was stored under
    that number"). It refuses to start now, in one line naming the first server's pid;
    the first server goes on serving, and a server may start there once it stopped."""
    def serve_again() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gametable", "serve", "--port", str(free_port()),
             "--data-dir", str(live_server.data_dir)],
            capture_output=True, text=True, timeout=60, check=False)

    assert live_server.process is not None
    done = serve_again()
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    assert (f"the server cannot start: another gametable server (pid "
            f"{live_server.process.pid} on {socket.gethostname()}) is serving the data folder "
            f"{live_server.data_dir.resolve()}") in said, said
    assert "--data-dir" in said
    assert "Traceback" not in said and "in your browser" not in said, said
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        assert http.get("/healthz").status_code == 200
    live_server.stop()
    with subprocess.Popen(
            [sys.executable, "-m", "gametable", "serve", "--port", str(free_port()),
             "--data-dir", str(live_server.data_dir)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as second:
        try:
            assert second.stdout is not None
            lines = [second.stdout.readline() for _ in range(2)]  # a log line, the banner
            assert any("in your browser" in line for line in lines), lines
        finally:
            second.terminate()


def test_the_banner_gives_the_public_url_when_one_is_given(tmp_path: Path) -> None:
    """Behind a reverse proxy, the start-up banner said to open the address the server
    listens on (``http://localhost:8000/``), not the ``--public-url`` others reach."""
    port = free_port()
    with subprocess.Popen(
            [sys.executable, "-m", "gametable", "serve", "--port", str(port),
             "--data-dir", str(tmp_path / "data"), "--public-url",
             "https://games.example.org"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as server:
        try:
            assert server.stdout is not None
            lines = [server.stdout.readline() for _ in range(2)]  # a log line, the banner
            banner = [line for line in lines if "in your browser" in line]
            assert banner, lines
            assert banner[0].startswith(
                "gametable: open https://games.example.org/ in your browser"), banner
            assert f":{port}" not in banner[0], banner
        finally:
            server.terminate()


def test_a_server_on_a_port_in_use_says_so_in_one_line(live_server: LiveServer,
                                                       tmp_path: Path) -> None:
    """A port in use was told by uvicorn after the server had loaded its tables (and,
    with Redis, joined the cluster under the other server's address, then warned that
    Redis did not answer): the port is bound first, and its refusal is one line."""
    done = subprocess.run(
        [sys.executable, "-m", "gametable", "serve", "--port", str(live_server.port),
         "--data-dir", str(tmp_path / "other")],
        capture_output=True, text=True, timeout=60, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 3, said
    assert (f"the server cannot start: port {live_server.port} on 127.0.0.1 is in use "
            "(another server?): choose another --port") in said, said
    assert len(said.strip().splitlines()) == 1, said  # no tables loaded, no traceback
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        assert http.get("/healthz").status_code == 200


async def _bad_text(ws: websockets.ClientConnection) -> None:
    """Send a text frame of bytes that are not UTF-8 (the library would refuse to)."""
    from websockets.frames import Frame, Opcode  # noqa: PLC0415

    ws.protocol.send_frame(Frame(Opcode.TEXT, b'{"type": "hello\xff"}'))
    ws.send_data()


def test_head_answers_as_get_without_the_body(live_server: LiveServer) -> None:
    """``curl -I``, uptime monitors and link checkers ask with ``HEAD``: the pages and the
    API answered 405. They get what ``GET`` gets (status, headers, length), with no
    body; a path that takes no ``GET`` still answers 405."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        for path in ("/", "/api/games", "/t/not-a-table", "/healthz"):
            got = http.get(path)
            head = http.head(path)
            assert head.status_code == got.status_code == 200, (path, head.status_code)
            assert head.content == b"", path
            for name in ("content-type", "content-length", "content-security-policy",
                         "x-frame-options"):
                assert head.headers.get(name) == got.headers.get(name), (path, name)
        assert http.head("/api/tables/none").status_code == http.get("/api/tables/none").status_code
        posted_only = http.head("/api/tables")
        assert posted_only.status_code == 405
        # The server is none the worse for it.
        assert http.get("/api/games").status_code == 200
