// Motion that a person can turn off: their system's "reduce motion" setting
// (prefers-reduced-motion) makes scrolls jump instead of glide; styles.css stops the
// pulses and transitions.

/** "smooth", or "auto" (a jump) when the person asked for reduced motion. */
export function scrollBehavior(): ScrollBehavior {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}
