import type { TFunction } from "i18next";
import type { ErrorMessage } from "./types";

/** An error from the server in the reader's language (English text as the fallback). */
export function translateError(t: TFunction, error: ErrorMessage): string {
  return t(error.key, { ...error.params, defaultValue: error.message });
}
