// What this seat can do now, beside its hand: claim the storyteller's role, write the
// clue, give the chosen card(s), choose the team's giver, cast the vote.
import { memo, useState } from "react";
import { keep, readKept } from "../../app/keptChoice";
import { useTranslation } from "react-i18next";
import { useDecisionsOpen } from "../../app/replay";
import { TimeLeftChip, useSendAtDeadline } from "../../app/TurnClock";
import { findSubmit, findVote, type Options } from "./legal";
import type { DixitView } from "./types";

export const CLUE_MAX = 200;

/** This seat's time left for the decision, beside the button that sends, once it runs
 * short (on a phone the clock at the top is far from the clue field and its keyboard). */
function TimeLeft() {
  return <TimeLeftChip className="dx-action-clock" />;
}

interface Props {
  view: DixitView;
  options: Options;
  chosen: number[];
  green: number[];
  red: number | null;
  /** Dixit Party: the red vote went onto the green vote's card and took the green away. */
  greenDisplaced?: boolean;
  /** A card was tapped while every card to give, or both votes, were already chosen:
   * nothing changed, and the hint says how to change one. */
  choiceFull?: boolean;
  mimeAllowed: boolean;
  player: (seat: number) => string;
  /** Whether a seat is a computer player's (Team Dixit: a person's teammate may be). */
  isComputer: (seat: number) => boolean;
  onClaim: () => void;
  onClue: (text: string, mime: boolean) => void;
  onSubmit: () => void;
  onGiver: (seat: number) => void;
  onVote: () => void;
  /** Take back this seat's card(s) or vote while others are still giving or voting. */
  onTakeBack: () => void;
  /** Where this seat's unsent choices of this phase are kept (keptChoice.ts): the clue
   * being written under `${keptKey}.clue`. */
  keptKey?: string;
}

export const ActionPanel = memo(function ActionPanel(props: Props) {
  const { view, options } = props;
  if (options.canClaim) return <ClaimPanel onClaim={props.onClaim} />;
  if (options.canClue) return <CluePanel {...props} />;
  if (options.givers.length) return <GiverPanel {...props} />;
  if (options.submits.length) return <SubmitPanel {...props} />;
  if (options.votes.length) return <VotePanel {...props} />;
  return <WaitPanel view={view} onTakeBack={props.onTakeBack} />;
});

function ClaimPanel({ onClaim }: { onClaim: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="dx-actions">
      <p className="dx-hint">{t("dixit.ui.claim_help")}</p>
      <button type="button" className="primary big" data-action="claim" onClick={onClaim}>
        {t("dixit.ui.claim")}
      </button>
    </div>
  );
}

function CluePanel({ options, chosen, mimeAllowed, onClue, keptKey }: Props) {
  const { t } = useTranslation();
  const clueKey = keptKey ? `${keptKey}.clue` : null;
  const [text, setTextHere] = useState(() => (clueKey && readKept<string>(clueKey)) || "");
  const setText = (value: string) => {
    setTextHere(value);
    if (clueKey) keep(clueKey, value);
  };
  const [mime, setMime] = useState(false);
  const needsCard = options.clueCards !== null;
  const trimmed = text.trim();
  const card = chosen[0];
  const cardOk = !needsCard || (card !== undefined && options.clueCards!.has(card));
  const textOk = (mimeAllowed && mime) || (trimmed.length >= 1 && trimmed.length <= CLUE_MAX);
  const sendClue = () => onClue(mimeAllowed && mime ? "" : trimmed, mimeAllowed && mime);
  useSendAtDeadline(cardOk && textOk, sendClue);
  let hint = "";
  if (!cardOk) hint = t("dixit.ui.clue_choose_card");
  else if (!textOk) hint = t("dixit.ui.clue_write");
  return (
    <form
      className="dx-actions dx-clue-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (cardOk && textOk) sendClue();
      }}
    >
      {/* Party's clue before the hand is said by the status line, the table and the
          face-down cards beside this: not a fourth time here. */}
      <label className="dx-clue-field">
        <span className="field-label">{t("dixit.ui.clue_label")}</span>
        <input
          name="clue"
          value={mimeAllowed && mime ? "" : text}
          disabled={mimeAllowed && mime}
          maxLength={CLUE_MAX}
          autoComplete="off"
          enterKeyHint="send"
          placeholder={mimeAllowed && mime ? t("dixit.ui.clue_placeholder_mime") : t("dixit.ui.clue_placeholder")}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      {mimeAllowed && (
        <label className="dx-check">
          <input type="checkbox" name="mime" checked={mime} onChange={(event) => setMime(event.target.checked)} />
          <span>{t("dixit.ui.clue_mime_check")}</span>
        </label>
      )}
      <div className="dx-actions-row">
        {/* What is missing is read out as it changes; the count of characters is not
            (it was, at every key). */}
        <span className="dx-hint">
          <span aria-live="polite">{hint}</span>
          {!hint && !(mimeAllowed && mime) && t("dixit.ui.clue_count", { count: trimmed.length, max: CLUE_MAX })}
        </span>
        <TimeLeft />
        <button type="submit" className="primary big" data-action="send-clue" disabled={!cardOk || !textOk}>
          {t("dixit.ui.clue_send")}
        </button>
      </div>
    </form>
  );
}

function GiverPanel({ view, options, player, isComputer, onGiver }: Props) {
  const { t } = useTranslation();
  // With a computer player for a teammate there is nobody to talk it over with.
  const teammate = options.givers.find((s) => s !== view.seat);
  const help =
    teammate !== undefined && isComputer(teammate)
      ? t("dixit.ui.giver_help_computer", { player: player(teammate) })
      : t("dixit.ui.giver_help");
  return (
    <div className="dx-actions dx-giver">
      <p className="dx-hint dx-giver-help">{help}</p>
      {/* On a phone the whole help took seven lines, and the clue under it was cut:
          a line, and the rest on demand. */}
      <details className="dx-giver-more">
        <summary>{t("dixit.ui.giver_help_short")}</summary>
        <p className="dx-hint">{help}</p>
      </details>
      <div className="dx-actions-row wrap" role="group" aria-label={t("dixit.ui.giver_choose")}>
        {options.givers.map((s) => (
          <button key={s} type="button" className="primary" data-action="giver" data-seat={s} onClick={() => onGiver(s)}>
            {s === view.seat ? t("dixit.ui.giver_me") : t("dixit.ui.giver_is", { player: player(s) })}
          </button>
        ))}
      </div>
      {view.clue && <span className="sr-only">{view.clue.text}</span>}
    </div>
  );
}

function SubmitPanel({ options, chosen, choiceFull, onSubmit }: Props) {
  const { t } = useTranslation();
  const action = findSubmit(options, chosen);
  useSendAtDeadline(action !== null, onSubmit);
  const count = options.submitCount;
  const hint = choiceFull
    ? t("dixit.ui.submit_full", { count })
    : action
      ? t("dixit.ui.submit_ready", { count })
      : chosen.length > 0 && chosen.length < count
        ? t("dixit.ui.submit_more", { count: count - chosen.length })
        : t("dixit.ui.submit_choose", { count });
  return (
    <div className="dx-actions">
      <div className="dx-actions-row">
        {/* Read out as it changes: a third card tapped changes nothing else. */}
        <span className="dx-hint" aria-live="polite">{hint}</span>
        <TimeLeft />
        <button type="button" className="primary big" data-action="submit" disabled={!action} onClick={onSubmit}>
          {t("dixit.ui.submit", { count: options.submitCount })}
        </button>
      </div>
    </div>
  );
}

function VotePanel({ view, options, green, red, greenDisplaced, choiceFull, onVote }: Props) {
  const { t } = useTranslation();
  const action = findVote(options, green, red);
  useSendAtDeadline(action !== null, onVote);
  const needsRed = options.redSlots.size > 0;
  let hint: string;
  if (green.length === 0) {
    // Dixit Party: the card that fits the clue best (DX-PARTY-4), nobody's to find.
    if (view.variant === "party") {
      // DX-PARTY-4: the red vote goes on a card other than the green vote's.
      hint = greenDisplaced ? t("dixit.ui.vote_green_displaced") : t("dixit.ui.vote_choose_party");
    }
    else hint = options.maxVotes > 1 ? t("dixit.ui.vote_choose_two") : t("dixit.ui.vote_choose");
  } else if (needsRed && red === null) hint = t("dixit.ui.vote_choose_red");
  else if (choiceFull) hint = t("dixit.ui.vote_full");
  else if (!action) hint = t("dixit.ui.vote_not_allowed");
  else hint = options.maxVotes > 1 && green.length === 1 ? t("dixit.ui.vote_second_optional") : t("dixit.ui.vote_ready");
  return (
    <div className="dx-actions">
      <div className="dx-actions-row">
        <span className="dx-hint" aria-live="polite">{hint}</span>
        <TimeLeft />
        <button type="button" className="primary big" data-action="cast-vote" disabled={!action} onClick={onVote}>
          {t("dixit.ui.cast_vote", { count: Math.max(1, green.length) })}
        </button>
      </div>
    </div>
  );
}

function WaitPanel({ view, onTakeBack }: { view: DixitView; onTakeBack: () => void }) {
  const { t } = useTranslation();
  // Nobody waits in a replay or at a table its host ended (a replay seen by a seat said
  // "Waiting for the others" at every move, its own too).
  const open = useDecisionsOpen();
  if (view.finished || !open) return null;
  // Until every card (or vote) is in, this seat's may come back (docs/dixit.md).
  const takeBack = view.may_take_back ? (view.phase === "vote" ? "take_back_vote" : "take_back_cards") : null;
  return (
    <div className="dx-actions waiting">
      <div className="dx-actions-row">
        <span className="dx-hint">
          {/* Taking back is once a phase: the button is gone, and this says why. */}
          {!takeBack && view.took_back && (view.phase === "vote" || view.phase === "submit")
            ? t(view.phase === "vote" ? "dixit.ui.waiting_took_back_vote" : "dixit.ui.waiting_took_back_cards", {
                count: view.my_submission?.length ?? 1,
              })
            : t("dixit.ui.waiting")}
        </span>
        {takeBack && (
          <button type="button" data-action="take-back" onClick={onTakeBack}>
            {t(`dixit.ui.${takeBack}`, { count: view.my_submission?.length ?? 1 })}
          </button>
        )}
      </div>
    </div>
  );
}
