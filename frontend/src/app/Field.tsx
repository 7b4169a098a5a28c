// A labelled form field whose help text describes its control instead of naming it: a
// screen reader says "Variant, combo box, Base game", then the help, where a help text
// inside the <label> made it part of the name ("Variant Party (6–12 players) and Team …").
import { useId, type ReactNode } from "react";

/** What the control needs: its `id` (the label's `htmlFor`) and, where there is help,
 * the id of the help text for `aria-describedby`. */
export interface FieldIds {
  id: string;
  describedBy: string | undefined;
}

export function Field({ label, help, className = "", children }: {
  label: string;
  /** Shown under the control and read as its description; none when empty. */
  help?: string;
  className?: string;
  children: (ids: FieldIds) => ReactNode;
}) {
  const id = useId();
  const helpId = help ? `${id}-help` : undefined;
  return (
    <div className={`field ${className}`.trim()}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, describedBy: helpId })}
      {help && (
        <span className="field-help" id={helpId}>
          {help}
        </span>
      )}
    </div>
  );
}
