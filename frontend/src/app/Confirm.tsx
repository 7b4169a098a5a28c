// A question asked in place before something that cannot be undone (removing a player,
// giving a seat away, ending the game): the question, the action and Cancel.
import { useTranslation } from "react-i18next";

export function Confirm({ question, confirm, onConfirm, onCancel }: {
  question: string;
  /** The confirming button's label. */
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <span className="host-confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button type="button" className="danger" onClick={onConfirm}>
        {confirm}
      </button>
      <button type="button" onClick={onCancel}>
        {t("ui.host.cancel")}
      </button>
    </span>
  );
}
