"""The ``gametable`` command: serve · simulate · replay · games."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from gametable.bots import bot_names
from gametable.core import registry
from gametable.core.errors import ConfigError
from gametable.core.records import GameRecord, RecordError
from gametable.core.records import replay as replay_record
from gametable.simulate import simulate as run_simulation

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="gametable: play Sequence Cats (and more) in the browser, or drive the rules "
    "engine from the command line.",
)
err = Console(stderr=True)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    data_dir: Annotated[Path, typer.Option(help="Where the SQLite database lives.")] = Path(
        "data"),
    bot_delay: Annotated[float, typer.Option(
        help="Seconds a computer player waits before acting (0 for instant).")] = 0.8,
    public_url: Annotated[str | None, typer.Option(
        help="The address friends use to reach this server, e.g. https://games.example.org "
        "(invite links start with it).")] = None,
) -> None:
    """Start the web server (SQLite storage in DATA_DIR, bundled games and bots)."""
    from gametable.server.main import run  # noqa: PLC0415 (keeps the other commands light)

    run(host=host, port=port, data_dir=data_dir, bot_delay=bot_delay, public_url=public_url)


def _parse_config(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise typer.BadParameter(f"--config is not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise typer.BadParameter("--config must be a JSON object, e.g. '{\"teams\": 2}'")
    return value


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game name, e.g. sequence-cats.")],
    players: Annotated[int, typer.Option(help="Number of seats.")] = 2,
    config: Annotated[str | None, typer.Option(help="Game options as a JSON object.")] = None,
    games: Annotated[int, typer.Option(min=1, help="How many games to play.")] = 100,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the first game.")] = 0,
    bots: Annotated[str, typer.Option(
        help="Comma-separated bots, one per seat (repeated to fill the seats).")] = "greedy",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play GAMES bot games and print wins, draws, turns and speed."""
    names = [b.strip() for b in bots.split(",") if b.strip()]
    unknown = [b for b in names if b not in bot_names()]
    if not names or unknown:
        raise typer.BadParameter(
            f"unknown bot {', '.join(unknown) or '(none)'}; choose from {', '.join(bot_names())}",
            param_hint="--bots")
    seat_bots = [names[i % len(names)] for i in range(players)]
    options = _parse_config(config)
    try:
        registry.get(game).make_config(options, players)
    except ConfigError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    show = sys.stderr.isatty()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  disable=not show) as bar:
        task = bar.add_task(f"{game}, {players} seats", total=games)
        summary = run_simulation(game, seat_bots, games, seed, options,
                                 progress=lambda done: bar.update(task, completed=done))
    result = summary.to_json()
    if as_json:
        typer.echo(json.dumps(result))
        return
    out = Console()
    out.print(f"[bold]{game}[/bold]: {games} games, {players} seats, seeds {seed}–"
              f"{seed + games - 1}")
    for label, wins in result["wins"].items():
        out.print(f"  seat {label:<12} {wins:>6} wins ({wins / games:.1%})")
    out.print(f"  draws {result['draws']}, unfinished {result['unfinished']}")
    longest = result["longest_game"]
    if longest is not None:
        out.print(f"  longest game: seed {longest['seed']}, {longest['actions']} actions, "
                  f"{longest['turns']} turns")
    out.print(f"  mean turns {result['mean_turns']:.1f}, "
              f"{result['games_per_second']:.1f} games/s, "
              f"{result['actions_per_second']:.0f} actions/s ({result['seconds']:.2f} s)")


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record (.json).", exists=True,
                                           dir_okay=False, readable=True)],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check a game record action by action and print its outcome.

    Exits 1 with "action N: RULE-ID: message" when action N (counting from 1) is
    illegal, 2 when the file is not a valid record (or names an unknown game, invalid
    options or a seat count the game refuses).
    """
    try:
        parsed = GameRecord.model_validate_json(record.read_bytes())
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        err.print(f"not a game record: {where}: {first['msg']}")
        raise typer.Exit(2) from None
    try:
        result = replay_record(parsed)
    except ConfigError as error:
        err.print(f"not a valid record: {error}")
        raise typer.Exit(2) from None
    except RecordError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    outcome = result.game.outcome(result.state)
    summary = {
        "game": parsed.game,
        "finished": outcome.finished,
        "draw": outcome.draw,
        "scores": outcome.scores,
        "winners": outcome.winners,
        "ranking": outcome.ranking,
        "turns": outcome.turns,
        "actions": len(parsed.actions),
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    state = "finished" if outcome.finished else "not finished"
    typer.echo(f"{parsed.game}: {len(parsed.actions)} actions, all legal; {state}")
    if outcome.finished:
        who = ", ".join(f"seat {s}" for s in outcome.winners) or "nobody (a draw)"
        typer.echo(f"winners: {who}")
    typer.echo(f"scores: {outcome.scores}")


@app.command("games")
def list_games() -> None:
    """List the games and computer players available."""
    for name in registry.names():
        seats = registry.get(name).describe()["seats"]["allowed"]
        typer.echo(f"{name}: seats {', '.join(map(str, seats))}")
    typer.echo(f"bots: {', '.join(bot_names())}")


if __name__ == "__main__":
    app()
