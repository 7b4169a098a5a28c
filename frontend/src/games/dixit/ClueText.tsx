// The clue as everyone sees it: the words, or a note that it was given at the table.
import { useTranslation } from "react-i18next";
import type { Clue } from "./types";

export function ClueText({ clue }: { clue: Clue }) {
  const { t } = useTranslation();
  if (clue.mime && !clue.text) {
    return <p className="dx-clue mime" data-mime="true">{t("dixit.ui.clue_mime")}</p>;
  }
  return (
    <p className="dx-clue" data-mime={clue.mime ? "true" : undefined}>
      <span className="sr-only">{t("dixit.ui.clue_label")} </span>
      <q dir="auto">{clue.text}</q>
      {clue.mime && <span className="dx-clue-note">{t("dixit.ui.clue_mime_short")}</span>}
    </p>
  );
}
