// A question asked in place before something that cannot be undone (removing a player,
// giving a seat away, ending the game): the question, the action and Cancel.
import { useLayoutEffect, useRef, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { scrollIntoViewIfNeeded } from "./focus";

/** The question takes the keyboard's focus as it comes in place of the button that asked
 * it (a screen reader reads it; Tab reaches the action, then Cancel); Escape cancels, and
 * focus then goes back to that button, which comes back in the question's place. */
export function Confirm({ question, confirm, onConfirm, onCancel }: {
  question: string;
  /** The confirming button's label. */
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLSpanElement>(null);
  // Before paint and before the page's watcher for a vanished focus (which would send the
  // focus to the status line): the button that asked has just gone.
  useLayoutEffect(() => {
    if (!box.current) return;
    box.current.focus({ preventScroll: true });
    scrollIntoViewIfNeeded(box.current);
  }, []);
  const cancel = () => {
    const place = box.current;
    const parent = place?.parentElement;
    const index = parent && place ? [...parent.children].indexOf(place) : -1;
    onCancel();
    if (!parent || index < 0) return;
    requestAnimationFrame(() => {
      const back = parent.children[index];
      if (back instanceof HTMLElement && document.contains(back)) back.focus();
    });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    cancel();
  };
  return (
    <span ref={box} className="host-confirm" role="group" aria-label={question} tabIndex={-1} onKeyDown={onKeyDown}>
      <span>{question}</span>
      <button type="button" className="danger" onClick={onConfirm}>
        {confirm}
      </button>
      <button type="button" onClick={cancel}>
        {t("ui.host.cancel")}
      </button>
    </span>
  );
}
