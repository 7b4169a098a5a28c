// Structural sharing for messages that replace the last one: a new state message is
// mostly the old one again (another seat acted, a chip moved). Parts that did not change
// keep the objects of the previous message, so memoised components and memos that depend
// on them (a hand, the legal actions) are not redone, and nothing below them re-renders.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * `next`, with every part deeply equal to the same part of `previous` replaced by that
 * part of `previous`; `previous` itself when the two are equal. Both are plain JSON
 * values (parsed messages); neither is changed.
 */
export function keepSame<T>(previous: T, next: T): T {
  return share(previous as Json, next as Json) as T;
}

function share(previous: Json, next: Json): Json {
  if (previous === next) return previous;
  if (typeof previous !== "object" || typeof next !== "object" || previous === null || next === null) return next;
  if (Array.isArray(previous) !== Array.isArray(next)) return next;
  if (Array.isArray(previous) && Array.isArray(next)) {
    let same = previous.length === next.length;
    const out = next.map((item, index) => {
      const kept = index < previous.length ? share(previous[index], item) : item;
      if (kept !== previous[index]) same = false;
      return kept;
    });
    return same ? previous : out;
  }
  const old = previous as { [key: string]: Json };
  const fresh = next as { [key: string]: Json };
  const keys = Object.keys(fresh);
  let same = keys.length === Object.keys(old).length;
  const out: { [key: string]: Json } = {};
  for (const key of keys) {
    const kept = key in old ? share(old[key], fresh[key]) : fresh[key];
    if (kept !== old[key] || !(key in old)) same = false;
    out[key] = kept;
  }
  return same ? old : out;
}
