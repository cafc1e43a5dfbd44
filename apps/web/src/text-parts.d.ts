// A language's texts in two parts (text-parts-plugin.ts, shared/i18n/text-parts.ts, issue 13).
declare module '@/locales/*.json?first' {
  import type { FirstTexts } from '@/shared/i18n/locale-resources';
  const texts: FirstTexts;
  export default texts;
}
declare module '@/locales/*.json?later' {
  import type { LaterTexts } from '@/shared/i18n/locale-resources';
  const texts: LaterTexts;
  export default texts;
}
declare module '@alda/contract/locales/errors.*.json?first' {
  const texts: Record<string, string>;
  export default texts;
}
declare module '@alda/contract/locales/errors.*.json?later' {
  const texts: Record<string, string>;
  export default texts;
}
