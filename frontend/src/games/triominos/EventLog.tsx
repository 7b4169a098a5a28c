// The running log of what happened, and a short-lived toast of the latest events.
import { useNewestShown, type LogLine } from "../../app/eventLog";
import { useTranslation } from "react-i18next";
import type { GameEvent } from "../../app/types";

export function EventLog({ log, describe }: { log: LogLine[]; describe: (line: LogLine) => string | null }) {
  const { t } = useTranslation();
  return (
    // It scrolls in a long round: a keyboard reaches it too (a tab stop, named).
    <ol className="tr-log" aria-label={t("triominos.ui.log")} tabIndex={0}>
      {log.map((line) => {
        const text = describe(line);
        return text ? (
          <li key={line.id} data-version={line.version} data-event={line.event.type} className={line.event.bonus ? "bonus" : undefined}>
            <TileNames text={text} />
          </li>
        ) : null;
      })}
    </ol>
  );
}

/** A tile's name such as 0-0-4 (its hyphens are places a line may break). */
const TILE_NAME = /(\d-\d-\d)/;

/** ``text`` with each tile name kept on one line. */
function TileNames({ text }: { text: string }) {
  const parts = text.split(TILE_NAME);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 ? (
          <span key={i} className="tr-tile-name">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}

const SHOW_MS = 3800;
const SHOW_AT_MOST = 2;

/** The newest state's events, for a few seconds. */
export function EventToast({ log, describe, show }: { log: LogLine[]; describe: (line: LogLine) => string | null; show: (event: GameEvent) => boolean }) {
  const newest = log.length ? log[0].version : -1;
  if (!useNewestShown(newest, SHOW_MS)) return null;
  const texts = log
    .filter((line) => line.version === newest && show(line.event))
    .reverse()
    .map((line) => describe(line))
    .filter((text): text is string => !!text)
    .slice(-SHOW_AT_MOST);
  if (!texts.length) return null;
  return (
    // Read out by the page's MoveAnnouncer (every move, at every width), not again here.
    <div className="tr-toast" aria-hidden="true" key={newest}>
      {texts.map((text, i) => (
        <span key={i}>
          <TileNames text={text} />
        </span>
      ))}
    </div>
  );
}
