import type { Locale } from '@alda/contract/locale';
import {
  isValidationKey,
  validationMessage,
  type ValidationKey,
} from '@alda/contract/rules/messages';

/** One entry of Fastify's `error.validation` (fastify-type-provider-zod fills it from zod issues). */
export interface ValidationEntry {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Picks the SPEC §5 message key for a failed field. Contract rules put the key in the issue's
 * message (`REQUIRED`, `INVALID_EMAIL`, …). Plain zod checks carry zod's English text instead;
 * those are mapped by kind so the user still reads Faroese or English from the contract, never
 * zod's wording.
 */
export function validationKeyOf(entry: ValidationEntry): ValidationKey {
  if (isValidationKey(entry.message)) return entry.message;
  const params = entry.params ?? {};
  switch (entry.keyword) {
    case 'invalid_type':
      // zod reports a missing property as a type error whose received type is undefined.
      return /received undefined/.test(entry.message ?? '') ? 'REQUIRED' : 'INVALID';
    case 'too_small':
      return params.origin === 'string' && params.minimum === 1 ? 'REQUIRED' : 'INVALID';
    case 'too_big':
      return 'TOO_LONG';
    case 'invalid_format':
      return params.format === 'email' ? 'INVALID_EMAIL' : 'INVALID';
    case 'required': // Ajv (plain JSON-schema routes of plugins)
      return 'REQUIRED';
    default:
      return 'INVALID';
  }
}

/** Dotted field path: `/deviceMeta/platform` → `deviceMeta.platform`; Ajv's missing property too. */
export function fieldOf(entry: ValidationEntry): string | undefined {
  const segments = (entry.instancePath ?? '').split('/').filter(Boolean);
  if (entry.keyword === 'required' && typeof entry.params?.missingProperty === 'string') {
    segments.push(entry.params.missingProperty);
  }
  return segments.length > 0 ? segments.join('.') : undefined;
}

/**
 * The `field` and localized `message` of a VALIDATION_FAILED answer for the first failed check.
 * A failure of the whole payload (no path, e.g. a body that is not an object) names the part of
 * the request instead (`body`, `params`, `querystring`).
 */
export function validationFailure(
  entry: ValidationEntry,
  context: string | undefined,
  locale: Locale,
): { field?: string; message: string } {
  const field = fieldOf(entry) ?? context;
  const message = validationMessage(validationKeyOf(entry), locale);
  return field !== undefined ? { field, message } : { message };
}
