import { preferences, type KeyValueStorage } from '@/shared/native/preferences';

/** Device key of the number the customer last chose on home's line tabs. */
export const CHOSEN_LINE_KEY = 'alda.chosenLine';

/**
 * The number a customer with several lines last switched to, kept on the device so a reload or
 * the next start opens the same line. It is only a wish: the API answers the default line when
 * the number is no longer the customer's (see `fetchSubscriptions`). Forgotten at logout.
 */
export interface ChosenLine {
  get(): Promise<string | null>;
  set(line: string): Promise<void>;
  clear(): Promise<void>;
}

export function createChosenLine(storage: KeyValueStorage = preferences): ChosenLine {
  return {
    get: () => storage.get(CHOSEN_LINE_KEY),
    set: (line) => storage.set(CHOSEN_LINE_KEY, line),
    clear: () => storage.remove(CHOSEN_LINE_KEY),
  };
}

export const chosenLine = createChosenLine();
