import { describe, expect, it, vi } from 'vitest';
import { Translator, type Messages } from './translator';

const fo = {
  translation: {
    greeting: 'Hey {{name}}',
    twice: '{{n}} og {{ n }}',
    onlyFo: 'Bert á føroyskum',
    items_one: '{{count}} lutur',
    items_other: '{{count}} lutir',
    nested: { deeper: { leaf: 'Blað' } },
  },
  errors: { SHARED: 'Feilur (errors)', ONLY_ERRORS_FO: 'Bert í errors' },
  validation: { SHARED: 'Feilur (validation)', ONLY_VALIDATION_FO: 'Bert í validation (fo)' },
} satisfies Record<string, Messages>;

const en = {
  translation: {
    greeting: 'Hi {{name}}',
    twice: '{{n}} and {{ n }}',
    items_one: '{{count}} item',
    items_other: '{{count}} items',
    messages_zero: 'No messages',
    messages_one: 'One message',
    messages_other: '{{count}} messages',
    nested: { deeper: { leaf: 'Leaf' } },
  },
  errors: { SHARED: 'Error (errors)', ONLY_VALIDATION_FO: 'In errors (en)' },
  validation: { SHARED: 'Error (validation)' },
} satisfies Record<string, Messages>;

const create = (language: 'fo' | 'en' = 'en') =>
  new Translator({ language, fallbackLanguage: 'fo', resources: { fo, en } });

describe('the translator (ADR 0063: what the app used of i18next)', () => {
  describe('interpolation', () => {
    it('puts values in {{name}} placeholders, trimmed, every occurrence', () => {
      const i18n = create();
      expect(i18n.t('greeting', { name: 'Jógvan' })).toBe('Hi Jógvan');
      expect(i18n.t('twice', { n: 3 })).toBe('3 and 3');
    });

    it('does not escape values (React escapes what it renders)', () => {
      expect(create().t('greeting', { name: '<b>Á & Ó</b> "x"' })).toBe('Hi <b>Á & Ó</b> "x"');
    });

    it('gives "" for a value passed as undefined or null, keeps a placeholder never passed', () => {
      const i18n = create();
      expect(i18n.t('greeting', { name: undefined })).toBe('Hi ');
      expect(i18n.t('greeting', { name: null })).toBe('Hi ');
      expect(i18n.t('greeting')).toBe('Hi {{name}}');
      expect(i18n.t('greeting', { other: 'x' })).toBe('Hi {{name}}');
    });

    it('does not read placeholders inside inserted values, nor inherited names', () => {
      const i18n = create();
      expect(i18n.t('greeting', { name: '{{name}} {{count}}', count: 2 })).toBe(
        'Hi {{name}} {{count}}',
      );
      expect(i18n.t('Value: {{toString}}')).toBe('Value: {{toString}}');
    });
  });

  describe('plurals (`count`, Intl.PluralRules of the language)', () => {
    it('chooses key_one / key_other in English', () => {
      const i18n = create('en');
      expect(i18n.t('items', { count: 1 })).toBe('1 item');
      expect(i18n.t('items', { count: 2 })).toBe('2 items');
      expect(i18n.t('items', { count: 0 })).toBe('0 items');
    });

    it('chooses key_one / key_other by the Faroese rules', () => {
      const i18n = create('fo');
      const rules = new Intl.PluralRules('fo');
      for (const count of [0, 1, 2, 5, 11, 21, 101, 1.5]) {
        const form = rules.select(count) === 'one' ? 'lutur' : 'lutir';
        expect(i18n.t('items', { count }), String(count)).toBe(`${count} ${form}`);
      }
      expect(i18n.t('items', { count: 1 })).toBe('1 lutur');
      expect(i18n.t('items', { count: 21 })).toBe('21 lutir');
    });

    it('honours key_zero for a count of 0 where the texts have it', () => {
      const i18n = create('en');
      expect(i18n.t('messages', { count: 0 })).toBe('No messages');
      expect(i18n.t('messages', { count: 1 })).toBe('One message');
      expect(i18n.t('messages', { count: 7 })).toBe('7 messages');
    });

    it('falls back to the bare key when there are no plural forms', () => {
      expect(create().t('greeting', { count: 2, name: 'A' })).toBe('Hi A');
    });
  });

  describe('lookup', () => {
    it('walks nested keys with "."', () => {
      expect(create('en').t('nested.deeper.leaf')).toBe('Leaf');
      expect(create('fo').t('nested.deeper.leaf')).toBe('Blað');
    });

    it('returns the key itself when no language has it', () => {
      const i18n = create();
      expect(i18n.t('nope.not.here')).toBe('nope.not.here');
      expect(i18n.t('NOPE', { ns: 'errors' })).toBe('NOPE');
      expect(i18n.t('items', { count: 3, ns: 'errors' })).toBe('items');
    });

    it('finds only texts: a key naming a group, or an inherited property, is missing', () => {
      const i18n = create();
      expect(i18n.t('nested.deeper')).toBe('nested.deeper');
      expect(i18n.t('constructor')).toBe('constructor');
      expect(i18n.t('greeting.toString')).toBe('greeting.toString');
    });

    it('falls back to Faroese for a key English lacks (plural forms by Faroese rules)', () => {
      const i18n = create('en');
      expect(i18n.t('onlyFo')).toBe('Bert á føroyskum');
      expect(i18n.t('ONLY_ERRORS_FO', { ns: 'errors' })).toBe('Bert í errors');
      const faroeseOnly = new Translator({
        language: 'en',
        fallbackLanguage: 'fo',
        resources: { fo, en: { translation: {} } },
      });
      expect(faroeseOnly.t('items', { count: 1 })).toBe('1 lutur');
      expect(faroeseOnly.t('items', { count: 2 })).toBe('2 lutir');
    });

    it('looks in the default namespace `translation` unless told otherwise', () => {
      const i18n = create();
      expect(i18n.t('SHARED')).toBe('SHARED');
      expect(i18n.t('SHARED', { ns: 'errors' })).toBe('Error (errors)');
      expect(i18n.t('greeting', { ns: 'errors', name: 'A' })).toBe('greeting');
    });

    it('tries the namespaces of `ns` in order, each in every language before the next', () => {
      const i18n = create('en');
      expect(i18n.t('SHARED', { ns: ['validation', 'errors'] })).toBe('Error (validation)');
      expect(i18n.t('SHARED', { ns: ['errors', 'validation'] })).toBe('Error (errors)');
      // English errors has it, but Faroese validation comes first (i18next's order).
      expect(i18n.t('ONLY_VALIDATION_FO', { ns: ['validation', 'errors'] })).toBe(
        'Bert í validation (fo)',
      );
      expect(i18n.t('ONLY_VALIDATION_FO', { ns: ['errors', 'validation'] })).toBe('In errors (en)');
    });

    it('uses defaultValue, interpolated, only when no language has the key', () => {
      const i18n = create();
      expect(
        i18n.t('NOPE', { ns: 'errors', defaultValue: 'Server says {{what}}', what: 'no' }),
      ).toBe('Server says no');
      expect(i18n.t('SHARED', { ns: 'errors', defaultValue: 'unused' })).toBe('Error (errors)');
      expect(i18n.t('NOPE', { defaultValue: '' })).toBe('');
    });

    it('exists: whether a language of the lookup order has the key in the namespace', () => {
      const i18n = create('en');
      expect(i18n.exists('SHARED', { ns: 'errors' })).toBe(true);
      expect(i18n.exists('ONLY_ERRORS_FO', { ns: 'errors' })).toBe(true);
      expect(i18n.exists('NOPE', { ns: 'errors' })).toBe(false);
      expect(i18n.exists('SHARED')).toBe(false);
      expect(i18n.exists('nested.deeper')).toBe(false);
      expect(i18n.exists('nested.deeper.leaf')).toBe(true);
    });
  });

  describe('changes', () => {
    it('switches the language and tells the subscribers; each state keeps its own language', async () => {
      const i18n = create('fo');
      const before = i18n.getState();
      const listener = vi.fn();
      const unsubscribe = i18n.subscribe(listener);
      await i18n.changeLanguage('en');
      expect(listener).toHaveBeenCalledTimes(1);
      expect(i18n.language).toBe('en');
      expect(i18n.t('greeting', { name: 'A' })).toBe('Hi A');
      const after = i18n.getState();
      expect(after).not.toBe(before);
      expect(after.t).not.toBe(before.t);
      expect(after.language).toBe('en');
      expect(after.t('greeting', { name: 'A' })).toBe('Hi A');
      // A `t` handed out before the switch still speaks the language it was rendered in.
      expect(before.t('greeting', { name: 'A' })).toBe('Hey A');

      await i18n.changeLanguage('en');
      expect(listener).toHaveBeenCalledTimes(1);
      expect(i18n.getState()).toBe(after);

      unsubscribe();
      await i18n.changeLanguage('fo');
      expect(listener).toHaveBeenCalledTimes(1);
      expect(i18n.t('greeting', { name: 'A' })).toBe('Hey A');
    });

    it('adds a bundle later, over what is there, and tells the subscribers', () => {
      const i18n = new Translator({ language: 'en', fallbackLanguage: 'fo' });
      expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
      expect(i18n.t('greeting', { name: 'A' })).toBe('greeting');
      const listener = vi.fn();
      i18n.subscribe(listener);
      const before = i18n.getState();

      i18n.addResourceBundle('en', 'translation', en.translation);
      expect(listener).toHaveBeenCalledTimes(1);
      expect(i18n.getState()).not.toBe(before);
      expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
      expect(i18n.hasResourceBundle('en', 'errors')).toBe(false);
      expect(i18n.getState().t('greeting', { name: 'A' })).toBe('Hi A');

      const added = { greeting: 'Hello {{name}}', nested: { deeper: { other: 'Other' } } };
      i18n.addResourceBundle('en', 'translation', added);
      expect(listener).toHaveBeenCalledTimes(2);
      expect(i18n.t('greeting', { name: 'A' })).toBe('Hello A');
      expect(i18n.t('nested.deeper.leaf')).toBe('Leaf');
      expect(i18n.t('nested.deeper.other')).toBe('Other');
      // The bundles given are not changed.
      expect(en.translation.greeting).toBe('Hi {{name}}');
      expect(en.translation.nested.deeper).toEqual({ leaf: 'Leaf' });
      expect(added.nested.deeper).toEqual({ other: 'Other' });
    });
  });
});
