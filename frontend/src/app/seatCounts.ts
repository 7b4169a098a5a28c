// How many players a game takes, as people read it: a long unbroken run as a range
// ("3–12"), anything else listed ("2, 3, 4, 6").

/** ``allowed`` (ascending seat counts) as text: a run of four or more consecutive
 * counts becomes "first–last", the rest is listed with commas. */
export function seatCounts(allowed: readonly number[]): string {
  const parts: string[] = [];
  let start = 0;
  while (start < allowed.length) {
    let end = start;
    while (end + 1 < allowed.length && allowed[end + 1] === allowed[end] + 1) end++;
    if (end - start >= 3) parts.push(`${allowed[start]}–${allowed[end]}`);
    else for (let i = start; i <= end; i++) parts.push(String(allowed[i]));
    start = end + 1;
  }
  return parts.join(", ");
}
