// Why a board space the player pressed takes no move now: said in the words of the
// rules' own refusals (the server's sequence_cats.errors.*), so that pressing a space
// that does not glow is answered, not ignored.
import type { TFunction } from "i18next";
import { EMPTY, FREE } from "./types";

export interface PressedSpace {
  /** The space's label ("B1"). */
  space: string;
  /** What lies there: FREE, EMPTY, BLANK or the team whose chip it is (types.ts). */
  cell: number;
  /** The breed the space shows, as named at this table. */
  breedName: string;
  /** Whether its chip is part of a completed sequence (SC-MEOW-2). */
  locked: boolean;
}

/** The sentence for a pressed space where no move goes, or ``null`` where there is
 * nothing to say (a blank corner). ``selectedCard`` is the card chosen in the hand
 * (``null``: none), ``hand`` the cards held, ``team`` the player's team. */
export function whyNotHere(
  t: TFunction,
  pressed: PressedSpace,
  selectedCard: string | null,
  hand: readonly string[],
  team: number | null,
): string | null {
  const { space, cell } = pressed;
  if (cell === FREE) return t("sequence_cats.errors.space_free_corner", { space });
  if (selectedCard === "meow") {
    if (cell === EMPTY) return t("sequence_cats.errors.meow_no_chip", { space });
    if (cell === team) return t("sequence_cats.errors.meow_own_chip", { space });
    if (pressed.locked) return t("sequence_cats.errors.meow_locked", { space });
    return null;
  }
  if (cell >= 0) {
    const taken = t("sequence_cats.errors.space_taken", { space });
    const removable = cell !== team && !pressed.locked && hand.includes("meow");
    return removable ? `${taken} ${t("sequence_cats.ui.meow_first")}` : taken;
  }
  if (cell !== EMPTY) return null;
  if (selectedCard !== null) return t("sequence_cats.errors.wrong_space", { card: selectedCard, space });
  const key = hand.includes("purrr") ? "sequence_cats.ui.no_card_for_space_purrr" : "sequence_cats.ui.no_card_for_space";
  return t(key, { space, breed: pressed.breedName });
}
