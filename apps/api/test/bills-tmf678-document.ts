import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

/*
 * The TMF678 Customer Bill Management v4 document as TM Forum publishes it (contracts/tmf678/,
 * vendored unedited), for the finance system's tests (bills-tmf678.test.ts): answers are checked
 * against its definitions and its operations.
 */

interface SwaggerOperation {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  responses: Record<
    string,
    { schema?: unknown; headers?: Record<string, { type?: string }> } | undefined
  >;
}

const documentPath = new globalThis.URL(
  './contracts/tmf678/TMF678_Customer_Bill_Management_API_v4.0.0_swagger.json',
  import.meta.url,
);
export const tmf678 = JSON.parse(readFileSync(documentPath, 'utf8')) as {
  info: { version: string };
  basePath: string;
  paths: Record<string, Record<string, SwaggerOperation>>;
  definitions: Record<string, { enum?: string[]; required?: string[] }>;
};

/** Ajv over the document's definitions (Swagger 2.0 schemas are JSON Schema draft 4 in all we use). */
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
// Swagger's `float` / `double` are number formats JSON Schema does not define: any number.
for (const format of ['float', 'double', 'int32', 'int64'])
  ajv.addFormat(format, { type: 'number', validate: () => true });
ajv.addSchema({ $id: 'tmf678', definitions: tmf678.definitions });
const schemaOf = (name: string): ValidateFunction => {
  const validate = ajv.getSchema(`tmf678#/definitions/${name}`);
  if (!validate) throw new Error(`no definition ${name} in the TMF678 document`);
  return validate;
};

/** Asserts `value` is valid against a definition of the document (the errors show on failure). */
export function expectValid(name: string, value: unknown) {
  const validate = schemaOf(name);
  validate(value);
  expect(validate.errors ?? [], `${name}: ${JSON.stringify(value).slice(0, 300)}`).toEqual([]);
}

/** An operation of the document: `GET /customerBill`, … (paths without the `basePath`). */
export function operation(method: string, path: string): SwaggerOperation {
  const op = tmf678.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`no ${method} ${path} in the TMF678 document`);
  return op;
}

/**
 * Asserts an answer is what the document's operation answers for its status: the status is
 * listed, the body valid against its schema (an array of a definition, or a definition), and
 * the headers it lists for the status present as integers.
 */
export function expectAnswer(
  method: string,
  path: string,
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
) {
  const answer = operation(method, path).responses[String(res.statusCode)];
  expect(answer, `${method} ${path} lists no ${res.statusCode}`).toBeDefined();
  const schema = answer?.schema as { $ref?: string; type?: string; items?: { $ref?: string } };
  const body = res.json();
  if (schema.type === 'array') {
    expect(Array.isArray(body)).toBe(true);
    const name = schema.items?.$ref?.split('/').pop() ?? '';
    for (const item of body as unknown[]) expectValid(name, item);
  } else {
    expectValid(schema.$ref?.split('/').pop() ?? '', body);
  }
  for (const [header, spec] of Object.entries(answer?.headers ?? {})) {
    const value = res.headers[header.toLowerCase()];
    expect(value, `${header} of ${method} ${path}`).toBeDefined();
    if (spec.type === 'integer') expect(String(value)).toMatch(/^\d+$/);
  }
}
