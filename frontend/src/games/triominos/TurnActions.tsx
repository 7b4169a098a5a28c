// Draw and pass, with their cost on the button; how many tiles were drawn this turn.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { TimeLeftChip } from "../../app/TurnClock";
import { signed } from "./placing";
import type { TriominosView } from "./types";

interface Props {
  view: TriominosView;
  canDraw: boolean;
  canPass: boolean;
  /** Whether a tile of the hand fits: then passing is allowed but not the move to urge. */
  canPlace: boolean;
  myTurn: boolean;
  onDraw: () => void;
  onPass: () => void;
}

/** How long the note on a Pass not yet allowed stays (ms). */
const NOTE_MS = 4000;

export function TurnActions({ view, canDraw, canPass, canPlace, myTurn, onDraw, onPass }: Props) {
  const { t } = useTranslation();
  // What a pass costs, as the rules say for this seat (TR-DRAW-2/3): its penalty after
  // three draws, nothing when the pool is empty and nothing fits. Until it is allowed,
  // the button shows what it will cost.
  const passPoints = view.pass_points ?? (view.draws >= view.max_draws || view.pool > 0 ? view.penalties.pass : 0);
  // On one's turn a tap on Pass before it is allowed says when it is (its title, a
  // tooltip, never shows on a touch screen: the tap did nothing), for a few seconds.
  const [note, setNote] = useState(false);
  useEffect(() => {
    if (!note) return;
    const timer = window.setTimeout(() => setNote(false), NOTE_MS);
    return () => window.clearTimeout(timer);
  }, [note]);
  useEffect(() => setNote(false), [myTurn, canPass]);
  const explains = myTurn && !canPass;
  // Drawing while a tile fits is allowed (TR-DRAW-1: "does not want to place") but costs
  // points for nothing the player may have meant: the first tap asks.
  const [asking, setAsking] = useState(false);
  useEffect(() => setAsking(false), [myTurn, canPlace, view.draws]);
  // Escape puts the question away, as Cancel does, and the focus back on Draw; before the
  // table's own Escape (which would put a chosen tile back too).
  const drawButton = useRef<HTMLButtonElement>(null);
  // The question takes the focus as it opens (after Draw the keyboard's next stop was
  // Pass, the question behind it); Cancel gives it back to Draw.
  const drawAnyway = useRef<HTMLButtonElement>(null);
  const cancelAsking = () => {
    setAsking(false);
    drawButton.current?.focus();
  };
  useEffect(() => {
    if (asking) drawAnyway.current?.focus();
  }, [asking]);
  useEffect(() => {
    if (!asking) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      cancelAsking();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [asking]);
  return (
    <div className="tr-turn-actions">
      <button
        ref={drawButton}
        type="button"
        className={`tr-draw ${canDraw && myTurn ? "" : "idle"}`}
        data-action="draw"
        disabled={!canDraw}
        aria-expanded={canPlace ? asking : undefined}
        onClick={canPlace ? () => setAsking(!asking) : onDraw}
        title={t("triominos.ui.draw_help")}
      >
        {t("triominos.ui.draw", { points: signed(view.penalties.draw) })}
      </button>
      <button
        type="button"
        className={`tr-pass ${canPass && !canPlace ? "primary" : ""}`}
        data-action="pass"
        disabled={!canPass && !explains}
        aria-disabled={explains || undefined}
        aria-describedby={note ? "tr-pass-note" : undefined}
        onClick={explains ? () => setNote(true) : onPass}
        title={t("triominos.ui.pass_help")}
      >
        {t("triominos.ui.pass", { points: signed(passPoints) })}
      </button>
      {/* The draws of the player whose turn it is: under another's tiles they read as
          theirs. */}
      {myTurn && (
        <span className="tr-draw-count" data-draws={view.draws}>
          {t("triominos.ui.drawn", { drawn: view.draws, max: view.max_draws })}
        </span>
      )}
      {myTurn && <TimeLeftChip />}
      {asking && canDraw && (
        <p className="tr-actions-note tr-draw-question" role="group" aria-labelledby="tr-draw-question">
          <span id="tr-draw-question">{t("triominos.ui.draw_fits_question", { points: signed(view.penalties.draw) })}</span>
          <button type="button" ref={drawAnyway} data-action="draw-anyway" onClick={() => { setAsking(false); onDraw(); }}>
            {t("triominos.ui.draw_anyway")}
          </button>
          <button type="button" onClick={cancelAsking}>
            {t("ui.host.cancel")}
          </button>
        </p>
      )}
      {note && (
        <p className="tr-actions-note" id="tr-pass-note" role="status" data-note="pass-not-yet">
          {t("triominos.ui.pass_help")}
        </p>
      )}
    </div>
  );
}
