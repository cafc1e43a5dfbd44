import type { Locale } from '@alda/contract/locale';
import type { Namespace } from './locale-resources';

/** Texts of one namespace: strings, nested in objects whose keys a dotted key walks (ADR 0063). */
export interface Messages {
  readonly [key: string]: string | Messages;
}

/** Options of {@link TFunction}; every other property is a value for a `{{name}}` placeholder. */
export interface TOptions {
  /** The namespace to look in, or several tried in order (default `translation`). */
  ns?: Namespace | readonly Namespace[];
  /** The text when no language has the key (interpolated like a found text). */
  defaultValue?: string;
  /** Chooses the plural form `key_zero` (0, when present), `key_<category>`, then `key`. */
  count?: number;
  [variable: string]: unknown;
}

/** Translates a key; a key no language has comes back as it is. */
export type TFunction = (key: string, options?: TOptions) => string;

/** What a render translates with: the language and a `t` bound to it, new on every change. */
export interface TranslatorState {
  readonly language: Locale;
  readonly t: TFunction;
}

/** The namespaces of one language. */
type Bundle = Partial<Record<Namespace, Messages>>;
type Bundles = Partial<Record<Locale, Bundle>>;

const DEFAULT_NAMESPACE: Namespace = 'translation';
/** `{{name}}`; i18next's default delimiters, which the texts in src/locales are written with. */
const PLACEHOLDER = /\{\{(.+?)\}\}/g;

const isMessages = (value: unknown): value is Messages =>
  typeof value === 'object' && value !== null;

/** `base` with `added` laid over it, neither changed: `added` wins where both have a text. */
function merge(base: Messages, added: Messages): Messages {
  const out: Record<string, string | Messages> = { ...base };
  for (const [key, value] of Object.entries(added)) {
    const current = Object.hasOwn(base, key) ? base[key] : undefined;
    out[key] = isMessages(current) && isMessages(value) ? merge(current, value) : value;
  }
  return out;
}

/** The string at a dotted key, only through own properties (`t('constructor')` finds nothing). */
function lookup(messages: Messages | undefined, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (!isMessages(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Replaces each `{{name}}` with `String(values[name])`, unescaped (React escapes what it
 * renders). As i18next did: a name passed as `undefined` or `null` gives '', a name not passed
 * at all leaves the placeholder as it is, and inserted values are not scanned again.
 */
function interpolate(text: string, values: TOptions): string {
  return text.replace(PLACEHOLDER, (placeholder, inner: string) => {
    const name = inner.trim();
    if (!Object.hasOwn(values, name)) return placeholder;
    const value = values[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

const pluralRules = new Map<Locale, Intl.PluralRules>();
/** The CLDR plural category of `count` in `language` (fo and en: `one` or `other`). */
function pluralCategory(language: Locale, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

/**
 * The app's texts per language and namespace, the current language, and who to tell when
 * either changes. Lookup order (i18next's, which the texts were written for): each namespace of
 * `ns` in turn, in it the current language then the fallback language, in each the plural forms
 * (when `count` is given) before the bare key.
 */
export class Translator {
  private current: Locale;
  private readonly fallback: Locale;
  private readonly bundles: Bundles = {};
  private state: TranslatorState;
  private readonly listeners = new Set<() => void>();

  constructor({
    language,
    fallbackLanguage,
    resources,
  }: {
    language: Locale;
    fallbackLanguage: Locale;
    /** Texts there from the start (tests); the app adds them with {@link addResourceBundle}. */
    resources?: Bundles;
  }) {
    this.current = language;
    this.fallback = fallbackLanguage;
    for (const [lng, namespaces] of Object.entries(resources ?? {}) as [Locale, Bundle][]) {
      for (const [ns, messages] of Object.entries(namespaces) as [Namespace, Messages?][])
        if (messages) this.add(lng, ns, messages);
    }
    this.state = this.snapshot();
  }

  /** The language texts are shown in. */
  get language(): Locale {
    return this.current;
  }

  /** Translates in the current language (at the time of the call). */
  t(key: string, options?: TOptions): string {
    return this.translate(this.current, key, options);
  }

  /** Whether a language of the lookup order has a text for `key` in `ns`. */
  exists(key: string, options: Pick<TOptions, 'ns' | 'count'> = {}): boolean {
    return this.resolve(this.current, key, options) !== undefined;
  }

  /**
   * Shows texts in `language` from now on and tells the subscribers. Synchronous (the texts are
   * added beforehand, see `loadLocale`); a promise, so that a caller can await a switch that
   * might one day load.
   */
  changeLanguage(language: Locale): Promise<void> {
    if (language !== this.current) {
      this.current = language;
      this.changed();
    }
    return Promise.resolve();
  }

  /** Adds texts of one namespace, over those already there, and tells the subscribers. */
  addResourceBundle(language: Locale, ns: Namespace, messages: Messages): void {
    this.add(language, ns, messages);
    this.changed();
  }

  hasResourceBundle(language: Locale, ns: Namespace): boolean {
    return this.bundles[language]?.[ns] !== undefined;
  }

  /** Calls `listener` after every change of language or texts; returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The same object until the language or the texts change (for `useSyncExternalStore`). */
  readonly getState = (): TranslatorState => this.state;

  private add(language: Locale, ns: Namespace, messages: Messages): void {
    const namespaces = (this.bundles[language] ??= {});
    namespaces[ns] = merge(namespaces[ns] ?? {}, messages);
  }

  private changed(): void {
    this.state = this.snapshot();
    for (const listener of [...this.listeners]) listener();
  }

  private snapshot(): TranslatorState {
    const language = this.current;
    return { language, t: (key, options) => this.translate(language, key, options) };
  }

  private translate(language: Locale, key: string, options: TOptions = {}): string {
    const text = this.resolve(language, key, options) ?? options.defaultValue ?? key;
    return interpolate(text, options);
  }

  private resolve(language: Locale, key: string, options: TOptions): string | undefined {
    const { ns = DEFAULT_NAMESPACE, count } = options;
    const namespaces: readonly Namespace[] = typeof ns === 'string' ? [ns] : ns;
    const languages = language === this.fallback ? [language] : [language, this.fallback];
    for (const namespace of namespaces) {
      for (const lng of languages) {
        const messages = this.bundles[lng]?.[namespace];
        const keys =
          count === undefined
            ? [key]
            : [
                ...(count === 0 ? [`${key}_zero`] : []),
                `${key}_${pluralCategory(lng, count)}`,
                key,
              ];
        for (const candidate of keys) {
          const text = lookup(messages, candidate);
          if (text !== undefined) return text;
        }
      }
    }
    return undefined;
  }
}
