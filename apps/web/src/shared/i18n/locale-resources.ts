import type fo from '@/locales/fo.json';

/** The app's texts of one language (src/locales/<lang>.json; both have the same keys). */
export type Messages = typeof fo;

/**
 * The namespaces of one language (resources-<lang>.ts): `translation` (the app's own
 * texts, src/locales), `errors` (the contract's message per API error code, plus the client-side
 * codes of the HTTP client) and `validation` (the contract's SPEC §5 rule messages).
 */
export type LocaleResources = {
  translation: Messages;
  errors: Record<string, string>;
  validation: Record<string, string>;
};

/** A namespace of texts (`t(key, { ns })`). */
export type Namespace = keyof LocaleResources;
