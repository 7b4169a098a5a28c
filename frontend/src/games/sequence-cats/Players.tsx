// Everyone at the table: colour, name, cards in hand, the top of each discard pile.
import { useTranslation } from "react-i18next";
import { absenceTag, isLevel, seatLevel, seatName, shortSeatName } from "../../app/seatName";
import type { TableInfo } from "../../app/types";
import { CatIcon } from "./CatIcon";
import { TEAM_COLOURS, type SequenceView } from "./types";

export function Players({ info, view, seat, cardName }: { info: TableInfo; view: SequenceView; seat: number | null; cardName: (card: string) => string }) {
  const { t } = useTranslation();
  // With teams of two or three, this seat's partners say so (a dot's colour alone did).
  const mine = seat !== null ? view.team_of[seat] : null;
  const partnered = mine !== null && view.team_of.filter((team) => team === mine).length > 1;
  return (
    <ul className="sc-players" aria-label={t("sequence_cats.ui.players")}>
      {info.seats.map((s) => {
        const team = view.team_of[s.seat];
        const pile = view.discards[s.seat] ?? [];
        const top = pile[pile.length - 1];
        const current = view.current === s.seat;
        const level = seatLevel(t, info, s.seat);
        return (
          <li key={s.seat} className={`sc-player ${current ? "current" : ""}`} data-seat={s.seat} aria-current={current ? "true" : undefined}>
            <span className="sc-team-dot" style={{ background: TEAM_COLOURS[team] }} role="img" aria-label={t(`sequence_cats.teams.${team}`)} />
            <span className="sc-player-name">
              {/* A computer player's level is a tag ("Computer 2" [Hard]), so that a
                  wrapped name never ends at its "·"; read as the name. */}
              <span className="sc-player-label">{level ? shortSeatName(t, info, s.seat) : seatName(t, info, s.seat)}</span>
              {level && (
                <span className="tag muted sc-level">
                  <span className="sr-only"> · </span>
                  {level}
                </span>
              )}
              {s.seat === seat && <span className="tag">{t("ui.seat.you")}</span>}
              {partnered && s.seat !== seat && team === mine && (
                <span className="tag sc-teammate">{t("sequence_cats.ui.teammate")}</span>
              )}
              {/* A seat taken over from a person says so in its name ("Dan (computer:
                  Medium)"): no second "computer" beside it. */}
              {/* A player known by its own name ("Greedy 3" [Medium]) is a computer
                  player all the same: said beside its level. */}
              {s.kind === "bot" && !s.name && !isLevel(s.bot ?? "") && <span className="tag muted">{t("ui.seat.computer")}</span>}
              {absenceTag(s) && <span className="tag muted">{t(absenceTag(s)!)}</span>}
            </span>
            {/* Read as words ("5 cards in hand", "discard pile: Siberian"), not a bare
                number and a breed (a title is not read). */}
            <span className="sc-player-cards" title={t("sequence_cats.ui.cards_in_hand", { count: view.hand_sizes[s.seat] })}>
              <span aria-hidden="true">🂠 {view.hand_sizes[s.seat]}</span>
              <span className="sr-only">{t("sequence_cats.ui.cards_in_hand", { count: view.hand_sizes[s.seat] })}</span>
            </span>
            <span className="sc-discard" title={t("sequence_cats.ui.discard_pile", { count: pile.length })}>
              <span className="sr-only">{t("sequence_cats.ui.discard_pile", { count: pile.length })}: </span>
              {top ? (
                <>
                  <CatIcon breed={top} size={22} />
                  <span className="sc-discard-name">{cardName(top)}</span>
                </>
              ) : (
                <span className="muted">—</span>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
