// "How to play": a game's rules in a few lines (from shared/rules, in the reader's
// language), from the lobby and from under every table.
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useModal } from "./useModal";

export function HowToPlay({ game, className = "" }: { game: string; className?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={`how-to-play ${className}`} data-action="how-to-play" onClick={() => setOpen(true)}>
        {t("ui.how_to_play")}
      </button>
      {open && <RulesDialog game={game} onClose={() => setOpen(false)} />}
    </>
  );
}

function RulesDialog({ game, onClose }: { game: string; onClose: () => void }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useModal(box, onClose, close);
  const lines = t(`games.${game}.how_to_play`, { returnObjects: true, defaultValue: [] });
  const title = t("ui.how_to_play_title", { game: t(`games.${game}.title`) });
  return (
    <div className="overlay" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={box} className="panel rules-dialog" role="dialog" aria-modal="true" aria-labelledby="rules-title">
        <div className="rules-head">
          <h2 id="rules-title">{title}</h2>
          <button type="button" ref={close} className="rules-close" aria-label={t("ui.close")} onClick={onClose}>
            ×
          </button>
        </div>
        <ul className="rules-lines">
          {(Array.isArray(lines) ? (lines as string[]) : []).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
