import { Fragment } from "react";

/** A breed name as shown on a space or a card: each word a box of its own
 * (`.sc-word`, an inline block no wider than its line), so that lines break between
 * words first, and a word breaks at its soft hyphens (breaks.ts) only where it alone is
 * wider than the line: "Azul / Russo", "Ben- / gal", never "Azul Rus- / so". */
export function BreakableName({ shown }: { shown: string }) {
  return (
    <>
      {shown.split(" ").map((word, index) => (
        <Fragment key={index}>
          {index > 0 && " "}
          <span className="sc-word">{word}</span>
        </Fragment>
      ))}
    </>
  );
}
