import type fo from '@/locales/fo.json';
import type { LaterSection } from './text-parts';

/** The app's texts of one language (src/locales/<lang>.json; both have the same keys). */
export type Messages = typeof fo;

/** The sections the first screens show, and the rest (text-parts.ts): the two parts of a language. */
export type FirstTexts = Omit<Messages, LaterSection>;
export type LaterTexts = Pick<Messages, LaterSection>;

/**
 * The namespaces of one language (resources-<lang>.ts): `translation` (the app's own
 * texts, src/locales), `errors` (the contract's message per API error code, plus the client-side
 * codes of the HTTP client) and `validation` (the contract's SPEC §5 rule messages). The first
 * chunk's `translation` is {@link FirstTexts}; the later part is added to it.
 */
export type LocaleResources<Texts = FirstTexts> = {
  translation: Texts;
  errors: Record<string, string>;
  validation: Record<string, string>;
};

/** The later part of a language (later-<lang>.ts): the later sections and the other error texts. */
export type LaterResources = { translation: LaterTexts; errors: Record<string, string> };

/** A namespace of texts (`t(key, { ns })`). */
export type Namespace = keyof LocaleResources;
