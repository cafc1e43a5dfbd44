/**
 * Flows whose screens ship in later issues. Links into a flow appear only once its routes are
 * registered, so the app never shows a way into a screen that does not exist yet. The issue that
 * adds the routes flips its flag.
 */
export const FLOWS = {
  phoneLogin: true,
  register: true,
  forgotPassword: true,
  receipts: true,
} as const;
