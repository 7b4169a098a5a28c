// A modal dialog's keyboard: focus moves into it when it opens (without scrolling it, so
// a phone still shows its top), Tab and Shift+Tab go round inside it rather than to the
// page behind the overlay, Escape closes it, and focus goes back where it was. All of it
// from before the dialog is first painted: a dialog opened by a page's first state (a
// finished game's result) showed a moment before Escape was heard.
import { useLayoutEffect, useRef, type RefObject } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** ``first``: the element to focus on opening (the dialog's first button otherwise);
 * ``onClose``: what Escape does (``null``: nothing, e.g. a dialog nobody may close). */
export function useModal(
  dialog: RefObject<HTMLElement | null>,
  onClose: (() => void) | null,
  first?: RefObject<HTMLElement | null>,
) {
  const closing = useRef(onClose);
  useLayoutEffect(() => {
    closing.current = onClose;
  }, [onClose]);

  useLayoutEffect(() => {
    const box = dialog.current;
    if (!box) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusable = () => [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.offsetParent !== null);
    (first?.current ?? focusable()[0] ?? box).focus({ preventScroll: true });
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && closing.current) {
        event.preventDefault();
        closing.current();
        return;
      }
      if (event.key !== "Tab") return;
      const items = focusable();
      if (!items.length) return;
      const at = items.indexOf(document.activeElement as HTMLElement);
      if (event.shiftKey && (at <= 0)) {
        event.preventDefault();
        items[items.length - 1].focus();
      } else if (!event.shiftKey && (at === -1 || at === items.length - 1)) {
        event.preventDefault();
        items[0].focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (before && document.contains(before)) before.focus({ preventScroll: true });
    };
    // Once, on opening: the parent may hand a new onClose every render.
  }, [dialog]);
}
