// The name fields (the lobby, taking a seat, changing one's name) keep 40 characters,
// as the server does (docs/protocol.md): a name typed or pasted past that was cut with
// no word said. This note says so while the name is at the limit.
import { useTranslation } from "react-i18next";

/** Characters of a name the server keeps (Unicode code points, as `upTo` counts). */
export const NAME_MAX = 40;

/** Whether any of `name` shows: the server keeps a name of spaces, invisible marks or
 * blank letters (the Hangul filler, say) as none, and the pages call that seat "Player n". */
export function nameShows(name: string): boolean {
  return /[^\s\p{Cf}\u115f\u1160\u3164\uffa0\u2800]/u.test(name);
}

/** "A name has at most 40 characters.", while `name` has that many; else nothing. */
export function NameLimit({ name, id }: { name: string; id?: string }) {
  const { t } = useTranslation();
  if (Array.from(name).length < NAME_MAX) return null;
  return (
    <span className="field-help name-limit" id={id} role="status" data-help="name-limit">
      {t("ui.lobby.name_limit", { limit: NAME_MAX })}
    </span>
  );
}
