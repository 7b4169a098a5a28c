// Team Dixit: the teams, who gives each team's card this round, and the table chat
// where teammates decide (they may talk, not show or describe their cards).
import { memo, useEffect, useState } from "react";
import { useNewestShown } from "../../app/eventLog";
import { useTranslation } from "react-i18next";
import { Chat } from "../../app/Chat";
import { seatName, writerName } from "../../app/seatName";
import type { TableInfo } from "../../app/types";
import type { GameTableProps } from "../registry";
import { colourOf, type DixitView } from "./types";
import { scrollBehavior } from "../../app/motion";

type Props = GameTableProps & { view: DixitView };

export function TeamPanel({ info, seat, view, chat, sendChat }: Props) {
  if (!view.teams) return null;
  return (
    <>
      <Teams info={info} seat={seat} view={view} />
      {(chat !== undefined || sendChat) && (
        <Chat info={info} seat={seat} chat={chat} sendChat={sendChat} className="dx-chat" />
      )}
    </>
  );
}

/** The teams with their scores and, while cards are given, who gives for each. Redone
 * only when the view or the seats change, not for every chat line. */
const Teams = memo(function Teams({ info, seat, view }: { info: TableInfo; seat: number | null; view: DixitView }) {
  const { t } = useTranslation();
  if (!view.teams) return null;
  const tellerTeam = view.teams.findIndex((team) => view.storyteller !== null && team.includes(view.storyteller));
  return (
    <section className="dx-teams" aria-label={t("dixit.ui.teams")}>
      <h3>{t("dixit.ui.teams")}</h3>
      <ul>
        {view.teams.map((team, index) => {
          const giver = view.givers?.[String(index)];
          const mine = seat !== null && team.includes(seat);
          return (
            <li key={index} className={`dx-team ${mine ? "mine" : ""}`} data-team={index} data-score={view.scores[team[0]]}>
              <span className="dx-dot" style={{ background: colourOf(index) }} aria-hidden="true" />
              <span className="dx-team-name">
                {t("dixit.ui.team_of", { team: index + 1, players: team.map((s) => seatName(t, info, s)).join(" & ") })}
              </span>
              {view.phase === "submit" && index === tellerTeam && <span className="dx-team-note">{t("dixit.ui.team_tells")}</span>}
              {view.phase === "submit" && index !== tellerTeam && (
                <span className="dx-team-note" data-giver={giver ?? undefined}>
                  {giver !== undefined ? t("dixit.ui.team_giver", { player: seatName(t, info, giver) }) : t("dixit.ui.team_deciding")}
                </span>
              )}
              <span className="dx-team-score">{view.scores[team[0]]}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
});

const CHAT_TOAST_MS = 6000;

/** On a phone the teams' chat lies below the cards, out of sight: the newest line
 * another seat wrote shows over the table for a few seconds, and a tap on it brings the
 * chat into view (DX-TEAM-2: teammates decide there who gives). Lines already there when
 * the table opened are not shown again. */
export function ChatToast({ seat, chat }: { seat: number | null; chat: GameTableProps["chat"] }) {
  const { t } = useTranslation();
  const lines = chat ?? [];
  const newest = lines.length ? lines[lines.length - 1] : null;
  // (Lines in the history sent on connecting are not live, however soon after the
  // table was drawn they came.)
  const fresh = newest !== null && newest.live && newest.seat !== seat ? newest : null;
  const shown = useNewestShown(fresh?.id ?? -1, CHAT_TOAST_MS);
  const [opened, setOpened] = useState<number | null>(null);
  useEffect(() => setOpened(null), [fresh?.id]);
  if (!fresh || !shown || opened === fresh.id) return null;
  const open = () => {
    setOpened(fresh.id);
    document.querySelector(".dx-chat")?.scrollIntoView({ block: "center", behavior: scrollBehavior() });
  };
  return (
    <button type="button" className="chat-toast" data-action="open-chat" onClick={open}>
      <strong>{writerName(t, fresh)}:</strong> {fresh.text}
      <span className="sr-only"> ({t("dixit.ui.show_chat")})</span>
    </button>
  );
}
