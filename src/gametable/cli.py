"""The ``gametable`` command: serve · simulate · arena · replay · games."""

from __future__ import annotations

import importlib
import ipaddress
import json
import logging
import math
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path, PurePath
from typing import Annotated, Any, NoReturn
from urllib.parse import urlsplit

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from gametable.arena import repeated, run_arena, schedule, wilson
from gametable.bots import bot_names
from gametable.bots.base import seat_name
from gametable.bots.levels import level_of
from gametable.core import registry
from gametable.core.config import OptionWarning
from gametable.core.errors import ConfigError
from gametable.core.records import (
    BYTE_ORDER_MARK,
    MAX_SEED,
    GameRecord,
    RecordError,
    field_given_twice,
    first_problem,
    number_not_json,
)
from gametable.core.records import replay as replay_record
from gametable.core.text import hidden_mark
from gametable.simulate import DEFAULT_MAX_ACTIONS, BotFailed, PlayerWarning
from gametable.simulate import simulate as run_simulation


def _version(value: bool) -> None:
    """Print the installed version and stop (``--version``)."""
    if value:
        typer.echo(f"gametable {version('gametable')}")
        raise typer.Exit


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    # Plain help: the rich panels gave every flag a type (--json <bool>, which reads as
    # if --json true were taken) and wrapped error messages in boxes.
    rich_markup_mode=None,
    help="gametable: play Dixit, Sequence Cats and Triominos in the browser, or drive the rules "
    "engine from the command line.",
)
err = Console(stderr=True, soft_wrap=True)
"""Standard error: a message is one line (a terminal wraps it; a log keeps it whole)."""


@app.callback()
def _options(
    show_version: Annotated[bool | None, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print gametable's version and stop.")] = None,
) -> None:
    """gametable: play Dixit, Sequence Cats and Triominos in the browser, or drive the
    rules engine from the command line."""


RATE_HELP = ("BURST/SECONDS: BURST at once, then one more every SECONDS, per client "
             "address; 'off' for no limit.")


def _rate(text: str, option: str) -> Any:
    from gametable.server.limits import Rate  # noqa: PLC0415

    if text.strip().lower() == "off":
        return None
    try:
        return Rate.parse(text)
    except ValueError:
        raise typer.BadParameter(f"expected BURST/SECONDS (e.g. 10/30) or off, not {text!r}",
                                 param_hint=option) from None


def _finite(unit: str, zero: str = "") -> Callable[[float], float]:
    """A typer callback that takes a finite number of ``unit`` (such as ``"seconds"``)
    from 0, refusing the rest by name: ``nan`` (Typer's range check told it "should be
    greater than or equal to 0", as if it were a negative number), ``inf`` (``1e400``
    reads as ``inf``: the range check passed it, after which a run stopped with a
    traceback, a server's computer players never moved, or a timer could not be set) and
    numbers below 0. ``zero`` says what 0 means, for the message (``"0: no limit"``)."""
    hint = f" ({zero})" if zero else ""

    def check(value: float) -> float:
        if math.isnan(value):
            raise typer.BadParameter(f"nan is not a number: give a number of {unit} "
                                     f"from 0{hint}")
        if value < 0:
            raise typer.BadParameter(f"give a number of {unit} from 0{hint}, not {value:g}")
        if math.isinf(value):
            raise typer.BadParameter(f"give a finite number of {unit}{hint}, not {value:g}")
        return value

    return check


def _above_zero(value: float) -> float:
    """``value``, a finite number of seconds that must be more than 0 (a typer
    callback; ``nan`` is no number above 0 either, and ``inf`` no time a timer waits)."""
    if not (math.isfinite(value) and value > 0):
        raise typer.BadParameter(f"give a finite number of seconds above 0, not {value:g}")
    return value


def _check_data_dir(folder: Path) -> None:
    """Refuse a data folder the server could not make or use: one below a file (the
    folder itself being a file is refused by ``file_okay=False``)."""
    for above in folder.absolute().parents:
        if above.exists():
            if not above.is_dir():
                raise typer.BadParameter(f"{folder} cannot be a folder: {above} is a file",
                                         param_hint="--data-dir")
            return


def _http_url(text: str) -> bool:
    """Whether ``text`` is an http:// or https:// URL with a host."""
    parts = urlsplit(text)
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _root_url(text: str) -> bool:
    """Whether the http(s) URL ``text`` names a host's root: no path beyond ``/``, no
    query, no fragment (the client asks for ``/assets/…`` and ``/api/…``)."""
    parts = urlsplit(text)
    return parts.path in ("", "/") and not parts.query and not parts.fragment


def _check_proxies(text: str) -> str:
    """``--forwarded-allow-ips`` as uvicorn reads it, spaces gone (uvicorn trusts every
    address only for exactly ``*``); refused unless each entry is an address or a
    network without host bits (``10.0.0.0/8``, not ``10.0.0.1/8``), or the whole value
    ``*``. Anything else uvicorn takes for a name that never matches: a host name is
    never resolved, so its proxy's clients were all taken for the proxy's address and
    shared its limits."""
    if text.strip() == "*":
        return "*"
    entries = [part.strip() for part in text.split(",")]
    for entry in entries:
        try:
            ipaddress.ip_network(entry)  # strict, as uvicorn: no host bits
        except ValueError:
            hint = " (* alone trusts every address)" if entry == "*" else \
                " (a host name is not looked up)"
            raise typer.BadParameter(
                f"addresses or networks, comma-separated (e.g. 127.0.0.1,10.0.0.0/8), "
                f"or * alone; not {entry!r}{hint}"[:300],
                param_hint="--forwarded-allow-ips") from None
    return ",".join(entries)


def _cap(value: int) -> int | None:
    return value if value > 0 else None


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        help="Address to listen on: 0.0.0.0 every IPv4 address, :: every IPv6 address, "
        "'' both, a name each of its addresses.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    data_dir: Annotated[Path, typer.Option(
        file_okay=False, help="Where the SQLite database (unless --database), the "
        "server's secret key and uploaded decks live.")] = Path("data"),
    database: Annotated[str | None, typer.Option(
        help="Keep tables in PostgreSQL instead of SQLite: a URL such as "
        "postgresql://gametable@localhost/gametable (the schema is made and upgraded at "
        "start).")] = None,
    redis: Annotated[str | None, typer.Option(
        help="Share the tables with other gametable processes (same --database): a Redis "
        "URL such as redis://127.0.0.1:6379/0 that every process names. Each table is "
        "run by one process at a time; any process serves any client.")] = None,
    advertise: Annotated[str | None, typer.Option(
        help="With --redis: the URL the other processes reach this one at, e.g. "
        "http://10.0.0.5:8001 (default: from --host and --port).")] = None,
    json_logs: Annotated[bool, typer.Option(
        "--json-logs", help="Log one JSON object a line (time, level, logger, message) "
        "for a log collector, instead of readable lines.")] = False,
    bot_delay: Annotated[float, typer.Option(
        callback=_finite("seconds"),
        help="Seconds a computer player waits before acting, give or take a little "
        "(0 for instant; a player with a thinking budget, such as hard in Sequence Cats "
        "or Triominos, waits at least its budget).")] = 0.8,
    public_url: Annotated[str | None, typer.Option(
        help="The address friends use to reach this server, e.g. https://games.example.org "
        "(invite links start with it).")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="Behind a reverse proxy: its address(es), comma-separated, whose "
        "X-Forwarded-For then names each client (ignored otherwise).")] = None,
    metrics_from: Annotated[str, typer.Option(
        help="Who may read /metrics: addresses or networks, comma-separated (e.g. "
        "127.0.0.1,10.0.0.0/8), or 'all'. Others get 403.")] = "127.0.0.0/8,::1/128",
    limit_tables: Annotated[str, typer.Option(help="Creating tables. " + RATE_HELP)] = "10/30",
    limit_joins: Annotated[str, typer.Option(
        help="Joining seats and giving seats to computer players. " + RATE_HELP)] = "30/2",
    limit_uploads: Annotated[str, typer.Option(help="Uploading decks. " + RATE_HELP)] = "5/120",
    limit_chat: Annotated[str, typer.Option(
        help="Chat messages (each seat also has 5 in 5 seconds). " + RATE_HELP)] = "20/1",
    limit_replays: Annotated[str, typer.Option(
        help="Requests for the steps of a replay. " + RATE_HELP)] = "60/0.5",
    limit_messages: Annotated[str, typer.Option(
        help="Messages on the table websockets, all of one address's spectator "
        "connections together, or of one seat's; paced, not refused. " + RATE_HELP
    )] = "800/0.0025",
    no_rate_limits: Annotated[bool, typer.Option(
        "--no-rate-limits", help="Turn every per-client rate limit off (benchmarks, "
        "tests).")] = False,
    max_waiting_tables: Annotated[int, typer.Option(
        min=0, help="Tables with open seats one client may have (0: no cap).")] = 20,
    max_bot_tables_per_client: Annotated[int, typer.Option(
        min=0, help="Running tables with computer players only, per client (0: no cap).")] = 3,
    max_bot_tables: Annotated[int, typer.Option(
        min=0, help="Running tables with computer players only, in all (0: no cap).")] = 100,
    max_connections_per_client: Annotated[int, typer.Option(
        min=0, help="Table websockets one client address may hold open at once to watch (0: "
        "no cap); more are closed with code 1013. One that opens a seat counts against "
        "its seat (at most 8) and the address's seated ones (at most four times this "
        "cap), never its watching ones.")] = 100,
    max_watchers_per_table: Annotated[int, typer.Option(
        min=0, help="Connections without a seat watching one table at once (0: no cap); more "
        "are closed with code 1013, seated players never.")] = 200,
    waiting_hours: Annotated[float, typer.Option(
        callback=_finite("hours", "0: never"),
        help="Hours after which a table whose seats are not all taken, and whose game "
        "has not started, expires (0: never).")] = 48.0,
    header_timeout: Annotated[float, typer.Option(
        callback=_above_zero,
        help="Seconds a client may take to send a request's headers (above 0).")] = 10.0,
    body_timeout: Annotated[float, typer.Option(
        callback=_above_zero, help="Seconds a request body may take to arrive, above 0 "
        "(a deck upload: the longest pause, at most 15).")] = 30.0,
    upload_quota: Annotated[str, typer.Option(
        help="What one client (address, deck key) may upload, per MINUTES: "
        "decks=20,cards=2000,megabytes=1000,cpu-seconds=300,minutes=60,at-once=1 "
        "(name only those you change).")] = "",
    host_gone_seconds: Annotated[float, typer.Option(
        callback=_finite("seconds"),
        help="Seconds the host's seat may have nobody connected, while another player is, "
        "before the host role passes to that player.")] = 300.0,
    absent_seconds: Annotated[float, typer.Option(
        callback=_finite("seconds"),
        help="At tables whose clock covers for absent players: seconds a seat that must "
        "act may stay disconnected before a computer player acts for it.")] = 30.0,
    reopen_after_seconds: Annotated[float, typer.Option(
        callback=_finite("seconds"),
        help="Seconds a player must have been gone before the host may open their seat "
        "for someone else (who then sees their cards); a computer player may take it "
        "at once.")] = 60.0,
    imports: Annotated[list[str] | None, typer.Option(
        "--import", metavar="MODULE", help=IMPORT_HELP)] = None,
) -> None:
    """Start the web server.

    It keeps tables in SQLite in DATA_DIR (or PostgreSQL with --database) and serves
    the bundled games and computer players."""
    try:  # here: the other commands need neither the server nor its packages
        from gametable.server.app import Settings, default_rates  # noqa: PLC0415
        from gametable.server.caps import Caps  # noqa: PLC0415
        from gametable.server.guards import networks  # noqa: PLC0415
        from gametable.server.main import run  # noqa: PLC0415
        from gametable.server.quotas import UploadQuota  # noqa: PLC0415
    except ImportError as error:
        err.print(f"[red]Cannot start the server:[/red] {escape(str(error))}")
        raise typer.Exit(2) from None

    _import_bots(imports or [])
    _check_data_dir(data_dir)
    if public_url is not None and not _http_url(public_url):
        raise typer.BadParameter(f"an http:// or https:// URL such as "
                                 f"https://games.example.org, not {public_url!r}",
                                 param_hint="--public-url")
    if public_url is not None and not _root_url(public_url):
        root = urlsplit(public_url)._replace(path="", query="", fragment="").geturl()
        raise typer.BadParameter(f"the server is served at a host's root: give {root}, "
                                 f"without a path (docs/deploy.md), not {public_url!r}",
                                 param_hint="--public-url")
    if forwarded_allow_ips is not None:
        forwarded_allow_ips = _check_proxies(forwarded_allow_ips)
    if database is not None and not database.startswith(("postgresql://", "postgres://")):
        raise typer.BadParameter("a PostgreSQL URL starts with postgresql://",
                                 param_hint="--database")
    if redis is not None:
        if not redis.startswith(("redis://", "rediss://", "unix://")):
            raise typer.BadParameter("a Redis URL starts with redis://", param_hint="--redis")
        if database is None:
            raise typer.BadParameter("several processes share tables in PostgreSQL: "
                                     "give --database too", param_hint="--redis")
    if advertise is not None and not advertise.startswith(("http://", "https://")):
        raise typer.BadParameter("a URL such as http://10.0.0.5:8001",
                                 param_hint="--advertise")
    rates = {"create": _rate(limit_tables, "--limit-tables"),
             "join": _rate(limit_joins, "--limit-joins"),
             "upload": _rate(limit_uploads, "--limit-uploads"),
             "chat": _rate(limit_chat, "--limit-chat"),
             "replay": _rate(limit_replays, "--limit-replays"),
             "messages": _rate(limit_messages, "--limit-messages"),
             "check": default_rates()["check"]}  # the lobby's check of options
    try:
        networks(metrics_from.split(","))
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--metrics-from") from None
    try:
        quota = UploadQuota.parse(upload_quota)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--upload-quota") from None
    settings = Settings(
        data_dir=data_dir, database=database, bot_delay=bot_delay,
        public_url=public_url.rstrip("/") if public_url else None,
        rates={} if no_rate_limits else rates,
        caps=Caps(waiting_per_client=_cap(max_waiting_tables),
                  bot_tables_per_client=_cap(max_bot_tables_per_client),
                  bot_tables=_cap(max_bot_tables),
                  waiting_hours=waiting_hours if waiting_hours > 0 else None,
                  connections_per_client=_cap(max_connections_per_client),
                  watchers_per_table=_cap(max_watchers_per_table)),
        header_timeout=header_timeout, body_timeout=body_timeout,
        read_timeout=min(15.0, body_timeout), upload_quota=quota,
        absent_seconds=absent_seconds, host_gone_seconds=host_gone_seconds,
        reopen_after_seconds=reopen_after_seconds,
        redis=redis, advertise=advertise.rstrip("/") if advertise else None,
        metrics_from=tuple(metrics_from.split(",")))
    run(host=host, port=port, settings=settings, forwarded_allow_ips=forwarded_allow_ips,
        json_logs=json_logs)


def _seat_label(record: GameRecord, seat: int) -> str:
    """How ``gametable replay`` names ``seat``: its computer player's name where the
    name is the one ``simulate`` gives (``"greedy 1"`` for seat 0, numbered from 1 for
    the pages: "seat 0 (greedy 1)" read as an error); else as the table's page names it
    (:func:`gametable.bots.base.seat_name`): its name, or for a server game's nameless
    seat "Random 1", "Greedy 1 · Medium" (a level's player by its name),
    "Computer 1 · Easy" or "Player 1" (it said "unnamed")."""
    info = record.seats[seat]
    if info.bot is not None and info.name == f"{info.bot[:36]} {seat + 1}":
        return info.bot
    level = None
    if info.bot is not None and record.game in registry.names():
        level = level_of(info.bot, registry.get(record.game))
    return seat_name(seat, info.name, info.bot, level=level)


def _parse_config(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise typer.BadParameter(f"--config is not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise typer.BadParameter("--config must be a JSON object, e.g. '{\"teams\": 2}'")
    twice = field_given_twice(text)
    if twice is not None:
        # (JSON readers keep the last of the two, and the run took it without a word;
        # records refuse the same.)
        raise typer.BadParameter(f"--config gives the option {json.dumps(twice)} twice; "
                                 "give each option once")
    return value


GAME_HELP = "The game: dixit, sequence-cats or triominos (gametable games describes them)."
"""The GAME argument's help, naming the games (a test checks it against the registry;
the help is written before any game is loaded)."""


IMPORT_HELP = ("A Python module to import first, which registers bots of its own with "
               "gametable.bots.register_bot (repeat for several; see docs/bots.md).")


def _import_bots(modules: list[str]) -> None:
    """Import ``modules`` (they register outside bots), found as ``python -m`` finds
    them (the current folder first); a module that cannot be imported is a usage error."""
    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    for module in modules:
        path = PurePath(module)
        if path.suffix == ".py" or "/" in module or os.sep in module:
            parts = path.with_suffix("").parts if path.suffix == ".py" else path.parts
            hint = (f"from the folder that holds {path.name}: --import {path.stem}"
                    if path.is_absolute() or ".." in parts else f"--import {'.'.join(parts)}")
            raise typer.BadParameter(
                f"cannot import {module}: give the module's name, not a file's, without "
                f"\".py\" ({hint})", param_hint="--import")
        try:
            importlib.import_module(module)
        except Exception as error:
            raise typer.BadParameter(f"cannot import {module}: {error}",
                                     param_hint="--import") from None


def _check_bots(bots: str) -> list[str]:
    """The comma-separated bot names of ``--bots``, all registered."""
    names = [b.strip() for b in bots.split(",")]
    if "" in names:
        problem = "no bot name" if names == [""] else f"an empty bot name in {bots!r}"
        raise typer.BadParameter(
            f"{problem}: give names separated by single commas, such as greedy,random",
            param_hint="--bots")
    unknown = [b for b in names if b not in bot_names()]
    if not names or unknown:
        raise typer.BadParameter(
            f"unknown bot {', '.join(unknown) or '(none)'}; choose from {', '.join(bot_names())}",
            param_hint="--bots")
    return names


def _seats(game: str, players: int | None) -> int:
    """``players``, or ``game``'s own default seat count when it is ``None`` (an unknown
    game exits with status 2 and the list of games)."""
    if players is not None:
        return players
    try:
        seats: int = registry.get(game).describe()["seats"]["default"]
    except ConfigError as error:
        raise _Refusal(str(error), 2, error.rule) from None
    return seats


def _check_config(game: str, options: dict[str, Any], players: int) -> None:
    """Refuse options or a seat count ``game``'s rules refuse (exit status 2), naming
    the ``--players`` these options allow where another count would do (Team Dixit at
    the default 4 seats: "… not 4; with these options: --players 6, 8, 10 or 12")."""
    rules = registry.get(game)
    try:
        rules.make_config(options, players)
    except ConfigError as error:
        fitting = []
        for seats in rules.describe()["seats"]["allowed"]:
            try:
                rules.make_config(options, seats)
            except ConfigError:
                continue
            fitting.append(str(seats))
        hint = ""
        if fitting and str(players) not in fitting:
            counts = (", ".join(fitting[:-1]) + " or " + fitting[-1] if len(fitting) > 1
                      else fitting[0])
            hint = f"; with these options: --players {counts}"
        text = f"{str(error).rstrip('.')}{hint}." if hint else str(error)
        raise _Refusal(text, 2, error.rule) from None


def _check_seeds(seed: int, games: int) -> None:
    """Refuse a run whose last game's seed (``seed + games - 1``) a record cannot hold,
    before any game is played."""
    if seed + games - 1 > MAX_SEED:
        raise typer.BadParameter(
            f"the games would be seeded {seed}–{seed + games - 1}; a record's seed is at "
            f"most {MAX_SEED} (2^63 - 1)", param_hint="--seed")


def _console() -> Console:
    """Where tables are printed: the terminal's width, or wide enough for every column
    when the output goes to a file or a pipe (which rich would take as 80 columns)."""
    return Console() if sys.stdout.isatty() else Console(width=200)


def _count(number: int, thing: str) -> str:
    """``"1 game"``, ``"2 games"``."""
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


def _record_file(folder: Path, game: str, seed: int) -> Path:
    """Where ``simulate --records`` writes the record of the game seeded ``seed``."""
    return folder / f"{game}-{seed}.json"


def _recorded_seeds(folder: Path, game: str, seed: int, games: int) -> list[int]:
    """The seeds from ``seed`` on, ``games`` of them, whose record file
    (:func:`_record_file`) ``folder`` already holds, in order: the folder is read once,
    so that a run of a hundred million games starts at once (one look per seed took
    seconds before the first game, with nothing shown)."""
    prefix = f"{game}-"
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if not (name.startswith(prefix) and name.endswith(".json")):
                continue
            number = name[len(prefix):-len(".json")]
            # Only the names the writer gives: digits, without leading zeros.
            if (number.isascii() and number.isdigit() and str(int(number)) == number
                    and seed <= int(number) < seed + games):
                found.append(int(number))
    return sorted(found)


def _record_writer(folder: Path, game: str, seed: int, games: int
                   ) -> Callable[[GameRecord], None]:
    """A writer of each game's record into ``folder`` (made if missing), after checking,
    before any game is played, that the folder can be made and that none of the files
    exists (nothing already there is overwritten).

    Raises:
        typer.BadParameter: the folder cannot be made or read, or a record file exists.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise typer.BadParameter(f"cannot make the folder {folder}: {error.strerror}",
                                 param_hint="--records") from None
    try:
        seeds = _recorded_seeds(folder, game, seed, games)
    except OSError as error:
        raise typer.BadParameter(f"cannot read the folder {folder}: {error.strerror}",
                                 param_hint="--records") from None
    there = [_record_file(folder, game, seed_i).name for seed_i in seeds]
    if there:
        more = f" and {len(there) - 3} more" if len(there) > 3 else ""
        raise typer.BadParameter(
            f"{folder} already holds {', '.join(there[:3])}{more}: choose another folder "
            "or --seed (nothing is overwritten)", param_hint="--records")

    def write(record: GameRecord) -> None:
        path = _record_file(folder, game, record.seed)
        partial = path.with_name(path.name + ".partial")
        partial.write_text(record.model_dump_json(indent=1), encoding="utf-8")
        partial.replace(path)

    return write


class _Refusal(Exception):
    """A command's refusal found while it runs: ``message``, the exit ``code`` and the
    rule it names, if any; :func:`_refusals` prints it."""

    def __init__(self, message: str, code: int, rule: str | None = None) -> None:
        super().__init__(message)
        self.message, self.code, self.rule = message, code, rule


@contextmanager
def _refusals(as_json: bool) -> Iterator[None]:
    """Print a refusal raised inside (:class:`_Refusal`, or a bad option's
    ``typer.BadParameter``) and exit with its code: with ``as_json`` as one JSON object
    on standard output, ``{"error", "rule"}``, as ``replay --json`` does; else as text on
    standard error."""
    try:
        yield
    except _Refusal as refusal:
        if as_json:
            typer.echo(json.dumps({"error": refusal.message, "rule": refusal.rule}))
        else:
            err.print(f"[red]error:[/red] {escape(refusal.message)}", highlight=False)
        raise typer.Exit(refusal.code) from None
    except typer.BadParameter as error:
        if not as_json:
            raise
        typer.echo(json.dumps({"error": error.format_message(), "rule": None}))
        raise typer.Exit(2) from None


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[int | None, typer.Option(
        min=1, show_default=False, metavar="N", help="Number of seats (default: the game's own, "
        "such as 2 for Sequence Cats and 4 for Dixit; gametable games lists them).")
    ] = None,
    config: Annotated[str | None, typer.Option(
        metavar="JSON", help="Game options as a JSON object.")] = None,
    games: Annotated[int, typer.Option(min=1, metavar="N", help="How many games to play.")
                     ] = 100,
    seed: Annotated[int, typer.Option(min=0, metavar="N", help="Seed of the first game.")
                    ] = 0,
    bots: Annotated[str, typer.Option(
        metavar="NAMES", help="Comma-separated bots, one per seat (repeated to fill the "
        "seats): the levels easy, medium, hard, or a player such as greedy or random "
        "(gametable games lists the bots each game has).")] = "greedy",
    imports: Annotated[list[str] | None, typer.Option(
        "--import", metavar="MODULE", help=IMPORT_HELP)] = None,
    decision_seconds: Annotated[float, typer.Option(
        callback=_finite("seconds", "0: no limit"), metavar="SECONDS",
        help="Stop with an error when a bot takes longer than "
        "this over one decision (0: no limit).")] = 60.0,
    max_actions: Annotated[int, typer.Option(
        min=1, metavar="N", help="Count a game still running after this many actions as "
        "unfinished.")] = DEFAULT_MAX_ACTIONS,
    records: Annotated[Path | None, typer.Option(
        "--records", file_okay=False, metavar="FOLDER", help="Write each game's record to "
        "this folder, as GAME-SEED.json (made if missing; a file already there is never "
        "overwritten).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play bot games and print wins, draws, turns and speed.

    --games N games, seeded from --seed on (one more for each game)."""
    with _refusals(as_json):
        _simulate(game, players, config, games, seed, bots, imports, decision_seconds,
                  max_actions, records, as_json)


def _simulate(game: str, players: int | None, config: str | None, games: int, seed: int,
              bots: str, imports: list[str] | None, decision_seconds: float,
              max_actions: int, records: Path | None, as_json: bool) -> None:
    _import_bots(imports or [])
    names = _check_bots(bots)
    players = _seats(game, players)
    if len(names) > players:
        raise typer.BadParameter(f"{_count(len(names), 'bot')} for {_count(players, 'seat')}; "
                                 "give at most one a seat", param_hint="--bots")
    options = _parse_config(config)
    _check_config(game, options, players)
    _check_seeds(seed, games)
    write_record = _record_writer(records, game, seed, games) if records else None
    seat_bots = [names[i % len(names)] for i in range(players)]
    show = sys.stderr.isatty()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  disable=not show) as bar:
        task = bar.add_task(f"{game}, {players} seats", total=games)
        try:
            summary = run_simulation(game, seat_bots, games, seed, options,
                                     progress=lambda done: bar.update(task, completed=done),
                                     on_record=write_record,
                                     decision_seconds=decision_seconds or None,
                                     max_actions=max_actions)
        except BotFailed as error:
            bar.stop()
            raise _Refusal(str(error), 1, rule=error.rule) from None
    result = summary.to_json()
    if records is not None:
        result["records"] = str(records)
    if as_json:
        typer.echo(json.dumps(result))
        return
    out = _console()
    seeds = f"seed {seed}" if games == 1 else f"seeds {seed}–{seed + games - 1}"
    out.print(f"[bold]{game}[/bold]: {_count(games, 'game')}, {_count(players, 'seat')}, "
              f"{seeds}")
    for label, wins in result["wins"].items():
        out.print(f"  seat {label:<12} {wins:>6} {'win ' if wins == 1 else 'wins'} "
                  f"({wins / games:.1%})")
    out.print(f"  draws {result['draws']}, unfinished {result['unfinished']}")
    longest = result["longest_game"]
    if longest is not None:
        out.print(f"  longest game: seed {longest['seed']}, "
                  f"{_count(longest['actions'], 'action')}, {_count(longest['turns'], 'turn')}")
    rounds = f"mean rounds {result['mean_rounds']:.1f}, " if "mean_rounds" in result else ""
    out.print(f"  mean turns {result['mean_turns']:.1f}, {rounds}"
              f"{result['games_per_second']:.1f} games/s, "
              f"{result['actions_per_second']:.0f} actions/s ({result['seconds']:.2f} s)")
    if records is not None:
        out.print(f"  records: {escape(str(records / f'{game}-*.json'))} "
                  f"({_count(games, 'file')}; "
                  f"[bold]gametable replay FILE[/bold] checks one)", highlight=False)


@app.command()
def arena(
    game: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    bots: Annotated[str, typer.Option(
        metavar="NAMES", help="Comma-separated bots to rate against one another, at least "
        "two, each once: the levels easy, medium, hard, or players such as greedy and "
        "random (gametable games lists the bots each game has).")] = "greedy,random",
    games: Annotated[int, typer.Option(
        min=1, metavar="N",
        help="Games per group of bots (rounded up to rotate the seats evenly).")] = 100,
    players: Annotated[int | None, typer.Option(
        min=2, show_default=False, metavar="N", help="Seats per game, at least 2: a "
        "rating compares sides (default: the game's own, such as 2 for Sequence Cats "
        "and 4 for Dixit; gametable games lists them).")] = None,
    config: Annotated[str | None, typer.Option(
        metavar="JSON", help="Game options as a JSON object.")] = None,
    seed: Annotated[int, typer.Option(min=0, metavar="N", help="Seed of the first game.")
                    ] = 0,
    jobs: Annotated[int, typer.Option(min=1, metavar="N", help="Processes to play in.")] = 1,
    imports: Annotated[list[str] | None, typer.Option(
        "--import", metavar="MODULE", help=IMPORT_HELP)] = None,
    decision_seconds: Annotated[float, typer.Option(
        callback=_finite("seconds", "0: no limit"), metavar="SECONDS",
        help="Stop with an error when a bot takes longer than "
        "this over one decision (0: no limit).")] = 60.0,
    max_actions: Annotated[int, typer.Option(
        min=1, metavar="N", help="Count a game still running after this many actions as "
        "unfinished.")] = DEFAULT_MAX_ACTIONS,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Rate computer players against one another.

    Plays every bot against every other with seats rotated (one bot per team where the
    game plays in teams), then prints win rates with 95 % intervals, mean scores,
    OpenSkill ratings and each bot's time a decision."""
    with _refusals(as_json):
        _arena(game, bots, games, players, config, seed, jobs, imports, decision_seconds,
               max_actions, as_json)


def _arena(game: str, bots: str, games: int, players: int | None, config: str | None,
           seed: int, jobs: int, imports: list[str] | None, decision_seconds: float,
           max_actions: int, as_json: bool) -> None:
    _import_bots(imports or [])
    names = _check_bots(bots)
    twice = repeated(names)
    if twice is not None:
        raise typer.BadParameter(
            f"{twice} is listed more than once: list each bot once (the arena repeats "
            "the bots itself to fill the seats)", param_hint="--bots")
    if len(names) < 2:
        other = "greedy" if names[0] == "random" else "random"
        raise typer.BadParameter(
            f"an arena rates bots against one another: give at least two different bots "
            f"(such as {names[0]},{other}), not {names[0]} alone", param_hint="--bots")
    players = _seats(game, players)
    options = _parse_config(config)
    _check_config(game, options, players)
    _check_seeds(seed, len(schedule(names, players, games, seed)))
    show = sys.stderr.isatty()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  disable=not show) as bar:
        task = bar.add_task(f"{game} arena, {players} seats", total=None)
        try:
            result = run_arena(game, names, games, players=players, options=options,
                               seed=seed, jobs=jobs, imports=imports or (),
                               decision_seconds=decision_seconds or None,
                               max_actions=max_actions,
                               progress=lambda done, total: bar.update(
                                   task, completed=done, total=total))
        except BotFailed as error:
            bar.stop()
            raise _Refusal(str(error), 1, rule=error.rule) from None
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    out = _console()
    out.print(f"[bold]{game}[/bold] arena: {result.games} games, {players} seats, "
              f"seeds {seed}–{seed + result.games - 1}, {result.seconds:.2f} s")
    table = Table("bot", "games", "wins", "win rate (95 %)", "draws", "mean score",
                  "rating μ ± σ", "ordinal", "ms a decision (max)")
    for s in result.standings:
        low, high = s.interval
        table.add_row(s.bot, str(s.games), str(s.wins),
                      f"{s.win_rate:.1%} ({low:.1%}–{high:.1%})", str(s.draws),
                      f"{s.mean_score:.2f}", f"{s.mu:.1f} ± {s.sigma:.1f}", f"{s.rating:.1f}",
                      f"{s.mean_decision_ms:.1f} ({1000 * s.longest_decision:.1f})")
    out.print(table)
    for pair in result.head_to_head:
        # From the counts, as the standings above (the JSON's rounded figures could
        # print 9.4 % where the standings said 9.5 % for the same record).
        low, high = wilson(pair.first_wins, pair.games)
        rate = pair.first_wins / pair.games if pair.games else 0.0
        unfinished = f", {pair.unfinished} unfinished" if pair.unfinished else ""
        out.print(f"  {pair.first} vs {pair.second}: {pair.first_wins}–{pair.second_wins} "
                  f"({pair.draws} drawn{unfinished}), {pair.first} wins {rate:.1%} "
                  f"({low:.1%}–{high:.1%})")


MAX_RECORD_FILE_BYTES = 64 * 2**20
"""The largest record file ``replay`` reads (a long Dixit Party's is about 1 MiB)."""


def shown(text: str) -> str:
    """``text`` with control characters and other hidden marks written out as escapes
    (``\\x1b``), so that what a record file holds cannot move the terminal's cursor,
    clear it or hide a link in a message."""
    return "".join(ch.encode("unicode_escape").decode("ascii") if hidden_mark(ch) else ch
                   for ch in text)


def not_json(data: bytes) -> str | None:
    """What keeps ``data``, a record file's bytes, from being JSON text, as the end of
    a refusal ("the file is empty", "the file is not JSON (line 3, column 14:
    Expecting ',' delimiter)", "the file is not UTF-8 text"), or ``None``
    where it is JSON (of a record or not: the record's own checks say more)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "the file is not UTF-8 text"
    if not text.strip():
        return "the file is empty"
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return (f"the file is not JSON (line {error.lineno}, column {error.colno}: "
                f"{error.msg})")
    except RecursionError:
        return None  # nested too deep for Python's reader; the record's checks say so
    return None


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record (.json).", exists=True,
                                           dir_okay=False, readable=True)],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check a game record action by action and print its outcome.

    Exits 1 with "action N: RULE-ID: message" when action N (counting from 1) is
    illegal, 2 when the file is not a valid record (or names an unknown game, invalid
    options or a seat count the game refuses). With --json a refusal is one JSON
    object too, {"error": message, "action": N or null, "rule": rule or null}, on
    standard output.
    """

    def refuse(message: str, code: int, action: int | None = None,
               rule: str | None = None) -> NoReturn:
        if as_json:
            typer.echo(json.dumps({"error": message, "action": action, "rule": rule}))
        else:
            typer.echo(shown(message), err=True)
        raise typer.Exit(code)

    size = record.stat().st_size
    if not record.is_file() or size > MAX_RECORD_FILE_BYTES:
        problem = ("not a regular file" if not record.is_file() else
                   f"{size / 2**20:.0f} MiB, more than the "
                   f"{MAX_RECORD_FILE_BYTES // 2**20} MiB a record file may have")
        refuse(f"not a game record: {problem}", 2)
    # A byte-order mark (some Windows editors write one) is no part of the JSON.
    data = record.read_bytes().removeprefix(BYTE_ORDER_MARK)
    unreadable = not_json(data)
    if unreadable is not None:
        # (The record's checks below said "record: this value is not accepted" of an
        # empty, cut-off or non-JSON file, naming neither what nor where.)
        refuse(f"not a game record: {unreadable}", 2)
    twice = field_given_twice(data)
    if twice is not None:
        # (JSON parsers keep the last of the two, and the replay then failed on a
        # rule, sending the reader after a rules error that was not there.)
        refuse(f"not a game record: the field {json.dumps(twice)} is given twice in "
               "one object", 2)
    number = number_not_json(data)
    if number is not None:
        refuse(f"not a game record: {number} is no JSON number", 2)
    try:
        parsed = GameRecord.model_validate_json(data)
    except ValidationError as error:
        where, problem, _ = first_problem(error)
        refuse(f"not a game record: {where}: {problem}", 2)
    try:
        result = replay_record(parsed)
    except ConfigError as error:
        refuse(f"not a valid record: {error}", 2, rule=error.rule)
    except RecordError as error:
        refuse(str(error), 1, action=error.number, rule=getattr(error.error, "rule", None))
    outcome = result.game.outcome(result.state)
    # Whole points as the table shows them (16, not 16.0), in the summary and in --json.
    scores = [int(s) if float(s).is_integer() else s for s in outcome.scores]
    summary = {
        "game": parsed.game,
        "finished": outcome.finished,
        "draw": outcome.draw,
        "scores": scores,
        "winners": outcome.winners,
        "ranking": outcome.ranking,
        "turns": outcome.turns,
        "actions": len(parsed.actions),
        # The text says "not finished: the host ended it early"; --json said nothing.
        "ended_early": not outcome.finished and parsed.meta.get("ended_early") is True,
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    if outcome.finished:
        state = "finished"
    elif summary["ended_early"]:
        state = "not finished: the host ended it early"
    else:
        state = "not finished"
    count = len(parsed.actions)
    typer.echo(f"{parsed.game}: {count} action{'' if count == 1 else 's'}, all legal; {state}")
    if outcome.finished:
        who = ", ".join(f"seat {s} ({_seat_label(parsed, s)})" if s < len(parsed.seats)
                        else f"seat {s}" for s in outcome.winners) or "nobody (a draw)"
        typer.echo(f"winners: {who}")
    typer.echo(f"scores: {scores}")


@app.command("games")
def list_games(
    imports: Annotated[list[str] | None, typer.Option("--import", metavar="MODULE",
                                                      help=IMPORT_HELP)] = None,
) -> None:
    """List the games, seat counts and bots.

    The computer players each game has: a game's bots are those that play it as
    themselves; every bot can be seated at every game (one that has no player of its
    own for a game plays as another)."""
    _import_bots(imports or [])
    for name in registry.names():
        seats = registry.get(name).describe()["seats"]
        typer.echo(f"{name}: seats {', '.join(map(str, seats['allowed']))} "
                   f"(default {seats['default']}); bots {', '.join(bot_names(name))}")
    typer.echo(f"bots: {', '.join(bot_names())}")


_CLICK_ERROR: type[Any] = next(kind for kind in typer.BadParameter.__mro__
                              if kind.__name__ == "ClickException")
"""The error a refused option raises (Click's, which newer Typer releases carry within)."""


_show_warning = warnings.showwarning


def _warning_line(message: Warning | str, category: type[Warning], filename: str,
                  lineno: int, file: Any = None, line: str | None = None) -> None:
    """Print a warning of a player's or an option's doing as one line, ``warning: …``,
    on standard error (a Python warning shows the source line it came from, meant for a
    program's author); any other warning as Python does."""
    if issubclass(category, PlayerWarning | OptionWarning):
        print(f"warning: {message}", file=sys.stderr if file is None else file)
    else:
        _show_warning(message, category, filename, lineno, file, line)


def main(args: list[str] | None = None) -> None:
    """The ``gametable`` command (``args``: the words after it, else ``sys.argv``'s).

    A refused option is printed as the output asked for says, whichever check refused it
    (Typer's own, such as ``--games 0``, or the command's): with ``serve --json-logs``
    as one JSON log line on standard error, as the server logs (a log collector reads
    every line); with ``--json`` as one JSON object on standard output, ``{"error",
    "rule"}`` (``replay``'s ``{"error", "action", "rule"}``); else as text. Exits 2 for
    a refused option."""
    warnings.showwarning = _warning_line
    words = sys.argv[1:] if args is None else list(args)
    json_logs = words[:1] == ["serve"] and "--json-logs" in words
    if not json_logs and "--json" not in words:
        app(args=words, prog_name="gametable")
        return
    try:
        code = app(args=words, prog_name="gametable", standalone_mode=False)
    except _CLICK_ERROR as error:
        if json_logs:
            from gametable.server.main import configure_logging  # noqa: PLC0415
            configure_logging(json_logs=True)
            logging.getLogger("gametable.server").error(
                "the server cannot start: %s", error.format_message())
        else:
            refusal: dict[str, object] = {"error": error.format_message(), "rule": None}
            if words[:1] == ["replay"]:  # replay's refusals name the action too
                refusal = {"error": error.format_message(), "action": None, "rule": None}
            typer.echo(json.dumps(refusal))
        sys.exit(error.exit_code)
    except typer.Abort:
        err.print("Aborted.")
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
