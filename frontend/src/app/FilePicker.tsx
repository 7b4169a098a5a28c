// A file input that speaks the page's language: the browser's own button and "No file
// chosen" are in the browser's language, whatever the page's.
import type { ChangeEvent } from "react";
import { useTranslation } from "react-i18next";

interface Props {
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  name?: string;
  /** The id of the text that describes the field (its help), for `aria-describedby`. */
  describedBy?: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** The input, out of sight but in the tab order and named by its field's label, and a
 * button-like face in the page's language. Put it inside the field's `<label>`, which
 * opens the browser's file chooser when clicked; keep a help text outside that label and
 * pass its id as `describedBy` (inside, it would become part of the input's name). */
export function FilePicker({ accept, multiple = false, disabled = false, name, describedBy, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <span className="file-picker">
      <input
        type="file"
        className="file-picker-input"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        name={name}
        aria-describedby={describedBy}
        onChange={onChange}
      />
      <span className="button file-picker-face" aria-hidden="true">
        {t(multiple ? "ui.choose_files" : "ui.choose_file")}
      </span>
    </span>
  );
}
