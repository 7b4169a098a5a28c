// A choice not yet sent (a card chosen, a clue being written), kept in the tab's
// session storage: a phone brings a tab back from the background by reloading it, and
// the person finds their choice as they left it. Nothing is kept once the tab closes.

/** The value kept under ``key``, or null (none, or storage unreadable). */
export function readKept<T>(key: string): T | null {
  try {
    const text = sessionStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

/** Keep ``value`` under ``key`` (null or an empty list: forget it). */
export function keep(key: string, value: unknown): void {
  try {
    if (value === null || (Array.isArray(value) && value.length === 0) || value === "") sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or switched off: the choice lives on the page only, as before.
  }
}

/** Forget every kept value whose key starts with ``prefix`` but not ``except``. */
export function forgetKept(prefix: string, except: string): void {
  try {
    const stale: string[] = [];
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i) ?? "";
      if (key.startsWith(prefix) && !key.startsWith(except)) stale.push(key);
    }
    for (const key of stale) sessionStorage.removeItem(key);
  } catch {
    // Storage switched off: nothing was kept.
  }
}
