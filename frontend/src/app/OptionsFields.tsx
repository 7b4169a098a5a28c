// What the lobby and the host's "Change the options" share: the game's options, the
// rules' verdict on them for a number of seats, and the turn clock.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { namespaceOf } from "../games/registry";
import { api, type ClockRequest, type OptionsCheck } from "./api";
import { ClockOptions } from "./ClockOptions";
import { ConfigForm, applicableOptions } from "./ConfigForm";
import { translateError } from "./translateError";
import type { GameDescription } from "./types";

/** The rules' verdict on `options` for `seats` seats, asked as they change (null until
 * it comes, or when the server cannot be asked: the create or save asks it itself). */
export function useOptionsCheck(game: GameDescription, seats: number, options: Record<string, unknown>, enabled = true) {
  const [fit, setFit] = useState<OptionsCheck | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const config = applicableOptions(game.config_schema, seats, options);
    const timer = window.setTimeout(() => {
      api.checkOptions(game.name, config, seats).then(
        (answer) => live && setFit(answer),
        () => live && setFit(null),
      );
    }, 120);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [game.name, game.config_schema, seats, options, enabled]);
  return fit;
}

/** Whether the rules refuse the options (`fit` from {@link useOptionsCheck}). */
export const refusedBy = (fit: OptionsCheck | null): boolean => fit !== null && !fit.ok && fit.error !== null;

export function OptionsFields({
  game,
  seats,
  options,
  onOptions,
  fit,
  clock,
  onClock,
  refusalBelow = false,
}: {
  game: GameDescription;
  seats: number;
  options: Record<string, unknown>;
  onOptions: (options: Record<string, unknown>) => void;
  fit: OptionsCheck | null;
  clock: ClockRequest;
  onClock: (clock: ClockRequest) => void;
  /** The form shows why the rules refuse the options beside its button
   * ({@link OptionsRefusal}), not under the options. */
  refusalBelow?: boolean;
}) {
  return (
    <>
      <ConfigForm namespace={namespaceOf(game.name)} schema={game.config_schema} seats={seats} values={options} onChange={onOptions} />
      {!refusalBelow && <OptionsRefusal fit={fit} />}
      <ClockOptions clock={clock} onChange={onClock} />
    </>
  );
}

/** Why the rules refuse the options (nothing while they fit). */
export function OptionsRefusal({ fit }: { fit: OptionsCheck | null }) {
  const { t } = useTranslation();
  if (!refusedBy(fit) || !fit?.error) return null;
  return (
    <p className="notice error options-refusal" role="status">
      {translateError(t, fit.error)}
    </p>
  );
}
