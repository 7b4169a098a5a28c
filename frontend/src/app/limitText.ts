/** At most `limit` characters of `text`, counted as the server counts them (Unicode code
 * points): an input's `maxLength` counts UTF-16 units, so an emoji took two of a name's
 * 40 and the name's end was cut, though the server would have kept it whole. */
export function upTo(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const points = Array.from(text);
  return points.length <= limit ? text : points.slice(0, limit).join("");
}
