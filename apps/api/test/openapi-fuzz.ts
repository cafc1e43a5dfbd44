import fc from 'fast-check';

/*
 * Hostile requests for every operation of the OpenAPI document (issue 14): fast-check
 * arbitraries built from each operation's JSON schemas — values of the right shape, of the wrong
 * type, and strings no form would ever send (NUL, lone surrogates, bidi controls, 100 kB, SQL
 * and path tricks) — plus fixed cases every operation gets (broken JSON, wrong content types, a
 * 20 MB body, deep nesting, prototype keys). Used by hostile-input.property.test.ts.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

export interface Operation {
  method: string;
  /** OpenAPI path with `{param}` placeholders. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
  /** Declares bearerAuth. */
  secured: boolean;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: JsonSchema }[];
        requestBody?: { content: Record<string, { schema?: JsonSchema }> };
        security?: unknown[];
      }
    >
  >;
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: op.requestBody?.content['application/json']?.schema,
        secured: (op.security ?? []).length > 0,
      });
    }
  }
  return operations;
}

/** Strings that no form sends, each aimed at a layer: the database, the logs, the parser. */
export const HOSTILE_STRINGS = [
  '\u0000',
  'a@b.fo\u0000',
  '\u0000\u0000\u0000',
  '\ud800',
  'x\udfffy',
  '\u202eevil',
  '\u0007\u001b[31m',
  '\r\nX-Injected: 1',
  "' OR 1=1 --",
  "'); drop table users; --",
  '../../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '😀'.repeat(50),
  ' ',
  '',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'x'.repeat(100_000),
];

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\u0000', '\ud800', '\udc00'))
      .map(([text, bad]) => `${text}${bad}${text}`),
  },
);

/** Any JSON value, for "wrong type" answers. */
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.5),
  hostileString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
);

const SAFE_STRING = fc.string({ minLength: 1, maxLength: 20 });

function wellTyped(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alt) => valueFor(alt, depth)));
  }
  if (schema.allOf && schema.allOf.length > 0) return valueFor(schema.allOf[0]!, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time')
        return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'date')
        return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      return fc.oneof(SAFE_STRING, fc.stringMatching(/^\d{6}$/));
    case 'integer':
      return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.integer());
    case 'number':
      return fc.oneof(
        fc.integer({ min: -5, max: 1000 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      );
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(valueFor(schema.items ?? {}, depth + 1), { maxLength: 4 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectFor(schema, depth + 1);
    case 'null':
      return fc.constant(null);
    default:
      return anyJson;
  }
}

/** A value for `schema`: mostly of its type, sometimes hostile, sometimes of another type. */
export function valueFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: wellTyped(schema, depth) },
    { weight: 3, arbitrary: hostileString },
    { weight: 1, arbitrary: anyJson },
  );
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    model[name] = valueFor(property, depth);
  }
  // Mostly every property present (so more requests pass validation and reach deeper code),
  // sometimes any subset.
  return fc.oneof(
    { weight: 3, arbitrary: fc.record(model) },
    { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
  );
}

/**
 * Percent-encodes a path value the way a hostile client can: a lone surrogate becomes the three
 * bytes a careless encoder writes for it (`%ED%A0%80`, not UTF-8), which encodeURIComponent
 * refuses to produce.
 */
export function encodePathValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(value[i]!);
    }
  }
  return out;
}

export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** A request for `op` with hostile path parameters, query and body. */
export function requestFor(op: Operation): fc.Arbitrary<HostileRequest> {
  const pathValue = fc.oneof(hostileString, fc.uuid(), fc.stringMatching(/^\d{1,8}$/), SAFE_STRING);
  const params = fc.tuple(...op.pathParams.map(() => pathValue));
  const query = fc.tuple(
    ...op.query.map((q) => fc.option(valueFor(q.schema), { nil: undefined, freq: 3 })),
  );
  const body = op.body
    ? fc.option(valueFor(op.body), { nil: undefined, freq: 8 })
    : fc.constant(undefined);
  return fc
    .tuple(params, query, body)
    .map(([paramValues, queryValues, bodyValue]): HostileRequest => {
      let path = op.path;
      op.pathParams.forEach((name, i) => {
        path = path.replace(`{${name}}`, encodePathValue(String(paramValues[i])));
      });
      const search = new URLSearchParams();
      op.query.forEach((q, i) => {
        const value = queryValues[i];
        if (value === undefined) return;
        search.append(q.name, typeof value === 'string' ? value : JSON.stringify(value));
      });
      const qs = search.toString();
      return {
        method: op.method,
        url: qs ? `${path}?${qs}` : path,
        headers:
          bodyValue === undefined
            ? {}
            : ({ 'content-type': 'application/json' } as Record<string, string>),
        ...(bodyValue === undefined ? {} : { payload: JSON.stringify(bodyValue) }),
      };
    });
}

const TWENTY_MB = Buffer.alloc(20 * 1024 * 1024, 'a');
const DEEP = '['.repeat(50_000) + ']'.repeat(50_000);

/** The fixed hostile bodies every operation gets, whatever its schema. */
export function fixedCases(op: Operation): HostileRequest[] {
  const url = op.path.replace(/\{[^}]+\}/g, '%00');
  const plain = op.path.replace(/\{[^}]+\}/g, '1');
  const json = { 'content-type': 'application/json' };
  return [
    { method: op.method, url, headers: {} },
    { method: op.method, url: `${plain}?page=%00&line=%00`, headers: {} },
    { method: op.method, url: plain, headers: json, payload: '{"email": "a@b.fo",' },
    { method: op.method, url: plain, headers: json, payload: '"\\u0000"' },
    { method: op.method, url: plain, headers: json, payload: '{"__proto__": {"admin": true}}' },
    {
      method: op.method,
      url: plain,
      headers: json,
      payload: '{"constructor": {"prototype": {"admin": true}}}',
    },
    { method: op.method, url: plain, headers: json, payload: DEEP },
    { method: op.method, url: plain, headers: json, payload: TWENTY_MB },
    { method: op.method, url: plain, headers: { 'content-type': 'text/plain' }, payload: 'hello' },
    {
      method: op.method,
      url: plain,
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    },
    {
      method: op.method,
      url: plain,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    },
    {
      method: op.method,
      url: plain,
      headers: { 'content-type': 'application/json; charset=utf-16' },
      payload: Buffer.from('{"a":1}', 'utf16le'),
    },
  ];
}
