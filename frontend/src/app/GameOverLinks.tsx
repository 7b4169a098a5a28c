// What each game's end-of-game dialog offers: the record, its replay, a new game, play
// again. The replay viewer and the big screen (which nobody clicks) show the same dialogs
// with none of it.
import { useTranslation } from "react-i18next";
import { PlayAgain } from "./Rematch";
import { useReplayMode, useScreenMode } from "./replay";
import type { TableInfo } from "./types";
import { RecordLink } from "./RecordLink";
import { AppLink } from "./AppLink";

export function GameOverLinks({ info }: { info: TableInfo }) {
  const { t } = useTranslation();
  const replaying = useReplayMode();
  const onScreen = useScreenMode();
  if (replaying || onScreen) return null;
  const replay = `/t/${info.id}/replay`;
  return (
    <>
      <AppLink className="button watch-replay" href={replay}>
        {t("ui.replay.watch")}
      </AppLink>
      <RecordLink table={info.id}>
        {t("ui.table.download_record")}
      </RecordLink>
      <a className="button" href="/">
        {t("ui.table.new_game")}
      </a>
      <PlayAgain />
    </>
  );
}
