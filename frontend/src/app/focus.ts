// Where the keyboard's focus goes, seen by someone at the keyboard.

/** Whether the page's latest input was a key rather than a pointer (a mouse, a finger). */
let lastInputKey = false;
if (typeof window !== "undefined") {
  window.addEventListener("keydown", () => (lastInputKey = true), true);
  window.addEventListener("pointerdown", () => (lastInputKey = false), true);
}
export function keyboardInUse(): boolean {
  return lastInputKey;
}

/** Scroll ``element`` just into the window when it is not wholly in it. */
export function scrollIntoViewIfNeeded(element: HTMLElement): void {
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) element.scrollIntoView({ block: "nearest" });
}
