// Placing a tile that fits one position in several ways: rotate, then confirm.
import { useTranslation } from "react-i18next";
import { signed } from "./placing";
import type { PlaceAction } from "./types";

interface Props {
  action: PlaceAction;
  index: number;
  count: number;
  /** What the placement scores, bonus included. */
  points: number;
  bonus: string | null;
  onRotate: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}

export function PlaceBar({ action, index, count, points, bonus, onRotate, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <div className="tr-place-bar" role="group" aria-label={t("triominos.ui.placing", { tile: action.tile })}>
      <button type="button" data-action="rotate" onClick={onRotate} title={t("triominos.ui.rotate_help")}>
        <span aria-hidden="true">⟳</span> {t("triominos.ui.rotate", { index: index + 1, total: count })}
      </button>
      <button type="button" className="primary" data-action="confirm" onClick={onConfirm}>
        {t("triominos.ui.place", { points: signed(points) })}
        {bonus && <span className="tr-place-bonus">{bonus}</span>}
      </button>
      <button type="button" data-action="cancel" onClick={onCancel} aria-label={t("triominos.ui.cancel")} title={t("triominos.ui.cancel")}>
        ✕
      </button>
    </div>
  );
}
