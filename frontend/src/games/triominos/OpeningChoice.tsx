// A PRESSMAN starter holding 0-0-0 and a higher triple chooses the opening (TR-SETUP-4):
// one button per tile, with what it scores.
import { useTranslation } from "react-i18next";
import { signed } from "./placing";
import type { PlaceAction } from "./types";

interface Props {
  /** The opening placements, each with what it scores (tile and start bonus). */
  openings: { action: PlaceAction; points: number }[];
  onOpen: (action: PlaceAction) => void;
}

export function OpeningChoice({ openings, onOpen }: Props) {
  const { t } = useTranslation();
  return (
    <div className="tr-place-bar tr-openings" role="group" aria-label={t("triominos.ui.openings")}>
      {openings.map(({ action, points }) => (
        <button
          key={action.tile}
          type="button"
          className="primary"
          data-action="open"
          data-tile={action.tile}
          data-points={points}
          onClick={() => onOpen(action)}
        >
          {t("triominos.ui.open_with", { tile: action.tile, points: signed(points) })}
        </button>
      ))}
    </div>
  );
}
