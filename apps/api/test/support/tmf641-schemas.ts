import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

/*
 * The `definitions` of the vendored TMF641 v4.1.0 document (test/contracts/tmf641) as JSON
 * Schemas, for checking what our side produces — the demo TMF641 server's answers and events —
 * against the standard's own schemas, as Prism checks requests. Swagger 2.0 definitions are
 * JSON Schema (draft 4 style); they are added as one schema whose `$id` is the document, so
 * every `#/definitions/…` reference resolves as it does in the document. Swagger-only keywords
 * (`example`) are ignored (`strict: false`); `date-time` and `uri` are checked (ajv-formats).
 */

const DOCUMENT_ID = 'https://alda.test/contracts/tmf641/TMF641-ServiceOrdering-v4.1.0.swagger.json';

const document = JSON.parse(
  readFileSync(
    new URL('../contracts/tmf641/TMF641-ServiceOrdering-v4.1.0.swagger.json', import.meta.url),
    'utf8',
  ),
) as { definitions: Record<string, unknown> };

// ajv-formats is CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin })
  .default ?? addFormatsPlugin) as typeof addFormatsPlugin;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: DOCUMENT_ID, definitions: document.definitions });

/** The names of the document's definitions (ServiceOrder, EventSubscription, Error, …). */
export const TMF641_DEFINITIONS = Object.keys(document.definitions);

/**
 * Where `value` breaks the document's definition `name`, as `path: message` lines; [] when it
 * conforms.
 */
export function tmf641Problems(name: string, value: unknown): string[] {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/definitions/${name}`);
  if (!validate) throw new Error(`no definition ${name} in the TMF641 document`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error: ErrorObject) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}`,
  );
}
