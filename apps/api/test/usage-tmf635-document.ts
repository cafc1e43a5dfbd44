import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { TmfUsageInput } from '@alda/contract/schemas/usage-tmf635';

/*
 * The TMF635 Usage Management v4 document as TM Forum publishes it (contracts/tmf635/, vendored
 * unedited), for the usage feed's tests (usage-tmf635*.test.ts): bodies are built from its
 * definitions and answers checked against them.
 */

interface SwaggerSchema {
  properties?: Record<string, { example?: unknown }>;
}
const documentPath = new globalThis.URL(
  './contracts/tmf635/TMF635_Usage_Management_API_v4.0.0_swagger.json',
  import.meta.url,
);
export const tmf635 = JSON.parse(readFileSync(documentPath, 'utf8')) as {
  info: { version: string };
  definitions: Record<string, SwaggerSchema>;
};

/** Ajv over the document's definitions (Swagger 2.0 schemas are JSON Schema draft 4 in all we use). */
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
// Swagger's `float` / `double` are number formats JSON Schema does not define: any number.
for (const format of ['float', 'double', 'int32', 'int64'])
  ajv.addFormat(format, { type: 'number', validate: () => true });
ajv.addSchema({ $id: 'tmf635', definitions: tmf635.definitions });
const schemaOf = (name: string): ValidateFunction => {
  const validate = ajv.getSchema(`tmf635#/definitions/${name}`);
  if (!validate) throw new Error(`no definition ${name} in the TMF635 document`);
  return validate;
};
/** Asserts `value` is valid against a definition of the document (the errors show on failure). */
export function expectValid(name: string, value: unknown) {
  const validate = schemaOf(name);
  validate(value);
  expect(validate.errors ?? [], `${name}: ${JSON.stringify(value).slice(0, 300)}`).toEqual([]);
}

/**
 * The document's own example of a Usage: every property of `Usage_Create` that carries an
 * `example` (in v4.0.0: `description` "Voicemail Retrieval" and `usageDate`).
 */
export function documentExample(): Record<string, unknown> {
  const properties = tmf635.definitions.Usage_Create?.properties ?? {};
  return Object.fromEntries(
    Object.entries(properties).flatMap(([name, property]) =>
      property.example === undefined ? [] : [[name, property.example]],
    ),
  );
}

/**
 * A Usage as a client built from the document writes it: only properties of `Usage_Create`
 * (which skips `id` and `href`), valid against it.
 */
export function fromUsageCreate(usage: TmfUsageInput): TmfUsageInput {
  const properties = Object.keys(tmf635.definitions.Usage_Create?.properties ?? {});
  expect(properties).not.toContain('id');
  expect(Object.keys(usage).filter((name) => !properties.includes(name))).toEqual([]);
  expectValid('Usage_Create', usage);
  return usage;
}
