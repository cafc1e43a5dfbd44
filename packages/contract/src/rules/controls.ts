/**
 * Owner controls per member (issue 16.3, docs/decisions/0068-owner-controls.md): who they apply
 * to and when a purchase waits for the owner. The API decides with these; the app imports the
 * same functions to show the right button before anything is sent.
 */

/** A number as the controls rules see it. */
export interface ControlledLine {
  /** The number's own user; null for a number without a login of its own. */
  userId: string | null;
  /** The name the owner gave a member without a login (a child's number, ADR 0056). */
  holderFirstname: string | null;
}

/**
 * Whether `line` is the owner's own number on the account: the owner's user, or a number
 * without a user that carries no member's name (used by the account holder). Controls are for
 * members' numbers — a child's number without a login is a member's — never for one's own.
 */
export function isOwnersOwnLine(line: ControlledLine, ownerUserId: string): boolean {
  if (line.userId === null) return line.holderFirstname === null;
  return line.userId === ownerUserId;
}

/**
 * Whether a purchase of an extra package by `buyerOwnsAccount`'s buyer must become a request
 * to the owner: approval is on for the number and the buyer is not the account owner. The
 * owner's own purchases for a member's number are never held back.
 */
export function purchaseNeedsApproval(
  controls: { purchaseApproval: boolean },
  buyerOwnsAccount: boolean,
): boolean {
  return controls.purchaseApproval && !buyerOwnsAccount;
}
