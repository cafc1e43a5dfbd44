import errors from '@alda/contract/locales/errors.fo.json?later';
import texts from '@/locales/fo.json?later';
import type { LaterResources } from './locale-resources';

/**
 * Faroese, the later part (text-parts.ts): the later screens' texts and the API error
 * texts the first screens do not need, loaded once the first screen is up (i18n.ts).
 */
const resources: LaterResources = { translation: texts, errors };
export default resources;
