// The end of the game: the ranking (teams in Team Dixit) and the game record.
import { andList } from "../../app/i18n";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { GameOverLinks } from "../../app/GameOverLinks";
import { useReplayMode, useScreenMode } from "../../app/replay";
import { keepSeatNumber, seatName, shortSeatName } from "../../app/seatName";
import type { Outcome, TableInfo } from "../../app/types";
import { colourOf, type DixitView } from "./types";

interface Props {
  info: TableInfo;
  view: DixitView;
  seat: number | null;
  outcome: Outcome | undefined;
}

export interface RankedEntry {
  seats: number[];
  colour: string;
  label: string;
  rank: number;
  score: number;
}

/** The final ranking, best first: one entry per team in Team Dixit (teammates share
 * rank and score), else per seat. The game's ranking already places Team Dixit's teams
 * among themselves (1, 2, 3, DX-TEAM-6) and gives both members their team's place. */
export function rankedEntries(t: TFunction, view: DixitView, outcome: Outcome | undefined, player: (seat: number) => string): RankedEntry[] {
  const scores = view.scores;
  const groups = view.teams ?? scores.map((_, s) => [s]);
  const ranks = view.ranking ?? outcome?.ranking;
  const entries = groups.map((seats, index) => ({
    seats,
    colour: colourOf(view.teams ? index : seats[0]),
    label: view.teams ? t("dixit.ui.team_of", { team: index + 1, players: seats.map(player).join(" & ") }) : player(seats[0]),
    rank: ranks?.[seats[0]] ?? 1 + groups.filter((o) => scores[o[0]] > scores[seats[0]]).length,
    score: scores[seats[0]],
  }));
  return entries.sort((a, b) => a.rank - b.rank || a.seats[0] - b.seats[0]);
}

/** Why the game is over, in a sentence: who reached the target score, every seat having
 * told its rounds, or the draw pile running out (DX-END-1/2/3, DX-PARTY-7, DX-TEAM-6);
 * null where the view does not say. A game that stopped short of 30 points was read as
 * stopped for no reason. */
export function endedLine(t: TFunction, view: DixitView, player: (seat: number) => string): string | null {
  switch (view.ended_by) {
    case "target": {
      const target = view.target_score ?? 0;
      const reached = view.scores.map((_, s) => s).filter((s) => view.scores[s] >= target);
      return t("dixit.ui.final.ended_target", {
        players: andList(reached.map((s) => keepSeatNumber(player(s)))), count: reached.length, target,
      });
    }
    case "rounds":
      return t("dixit.ui.final.ended_rounds", { count: Math.max(1, Math.round((view.rounds_total ?? view.seats) / view.seats)) });
    case "pile":
      return t("dixit.ui.final.ended_pile");
    default:
      return null;
  }
}

export function FinalRanking({ info, view, seat, outcome }: Props) {
  const { t } = useTranslation();
  const player = (s: number) => seatName(t, info, s);
  const entries = rankedEntries(t, view, outcome, player);
  // The big screen's ranking, one line a player beside the table, names computer players
  // without their level ("Computer 10 · …" on a 720p TV), and so does the line of who
  // reached the target (six of them took five lines); the headline keeps it.
  const onScreen = useScreenMode();
  const short = (s: number) => shortSeatName(t, info, s);
  const rows = onScreen ? rankedEntries(t, view, outcome, short) : entries;
  const winners = entries.filter((e) => e.rank === 1);
  const won = seat !== null && winners.some((e) => e.seats.includes(seat));
  // Team Dixit: the win is the team's ("You win!" read as one's own alone).
  const team = view.teams !== null && view.teams !== undefined;
  const ended = endedLine(t, view, onScreen ? short : player);
  const headline = won
    ? winners.length > 1
      ? t(team ? "dixit.ui.final.your_team_shares" : "dixit.ui.final.you_share")
      : t(team ? "dixit.ui.final.your_team_wins" : "dixit.ui.final.you_win")
    : t("dixit.ui.final.wins", { players: andList(winners.map((e) => keepSeatNumber(e.label))), count: winners.length });

  // The result takes the focus, as the other games' end dialogs do: with a keyboard the
  // next Tab reaches its links (Play again) rather than the page's header. Not in a
  // replay, whose step keys keep it.
  const heading = useRef<HTMLHeadingElement>(null);
  const replay = useReplayMode();
  useEffect(() => {
    if (!replay) heading.current?.focus();
  }, [replay]);

  return (
    <section className="dx-final panel" aria-labelledby="dx-final-title" data-finished="true">
      <h2 id="dx-final-title" ref={heading} tabIndex={-1} className={won ? "won" : ""}>
        {headline}
      </h2>
      {ended && <p className="dx-final-ended">{ended}</p>}
      <ol className="dx-ranking" aria-label={t("dixit.ui.final.ranking")}>
        {rows.map((e) => (
          <li
            key={e.seats.join(",")}
            data-seats={e.seats.join(",")}
            data-rank={e.rank}
            data-score={e.score}
            className={e.rank === 1 ? "winner" : ""}
          >
            <span className="dx-rank">{e.rank}.</span>
            <span className="dx-dot" style={{ background: e.colour }} aria-hidden="true" />
            <span className="dx-rank-name" title={e.label}>{e.label}</span>
            <span className="dx-rank-score">{t("dixit.ui.points", { count: e.score })}</span>
          </li>
        ))}
      </ol>
      <div className="result-actions">
        <GameOverLinks info={info} />
      </div>
    </section>
  );
}
