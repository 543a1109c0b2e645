// Checks every answer a test server gives against its own OpenAPI document: the route and status must
// be declared, and the body must be the declared one (schema, content type) or none.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}
interface Response {
  content?: Record<string, { schema: Schema }>;
  headers?: Record<string, { required?: boolean; schema: { example?: unknown } }>;
}
interface Operation {
  parameters?: Parameter[];
  responses: Record<string, Response>;
  "x-velodata-path-forms"?: string[];
}
interface Document {
  paths: Record<string, { get: Operation; options?: Operation }>;
  components: { schemas: Record<string, Schema> };
}

interface Checked {
  document: Document;
  ajv: Ajv2020;
  compiled: Map<string, ValidateFunction>;
  /** How many answers were checked: a test can make sure the check ran. */
  count: number;
}

// Loaded at the first answer to check: a server stopped before any request is never asked.
const servers = new Map<string, { load: () => Promise<Checked> }>();
const originalFetch = globalThis.fetch;

/** From now on every `fetch` to `base` is checked against the document served at `base/openapi.json`. */
export function checkAnswersOf(base: string): void {
  if (globalThis.fetch === originalFetch) globalThis.fetch = checkingFetch;
  let loaded: Promise<Checked> | undefined;
  servers.set(base, { load: () => (loaded ??= load(base)) });
}

export async function checkedCount(base: string): Promise<number> {
  return (await servers.get(base)?.load())?.count ?? 0;
}

async function load(base: string): Promise<Checked> {
  const document = (await (await originalFetch(`${base}/openapi.json`)).json()) as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // The formats a client generated from the document relies on (date-time read as a date, uri).
  addFormats.default(ajv);
  ajv.addSchema({ $id: "openapi", components: asClientsRead(document.components) } as Schema);
  return { document, ajv, compiled: new Map(), count: 0 };
}

async function checkingFetch(
  input: Parameters<typeof fetch>[0],
  init?: RequestInit,
): Promise<globalThis.Response> {
  const response = await originalFetch(input, init);
  // A followed redirect is checked where it led.
  const asked = input instanceof Request ? input.url : String(input);
  const url = new URL(response.redirected ? response.url : asked);
  const checked = servers.get(url.origin);
  if (checked)
    check(
      await checked.load(),
      url,
      init?.method ?? "GET",
      response,
      await response.clone().text(),
    );
  return response;
}

function check(
  checked: Checked,
  url: URL,
  method: string,
  response: globalThis.Response,
  body: string,
): void {
  checked.count++;
  // Test keys are keys too: never in a message.
  const query = url.search.replace(/apiKey=[^&]*/, "apiKey=<redacted>");
  const where = `${method} ${url.pathname}${query} → ${response.status}`;
  if (method === "OPTIONS") {
    checkPreflight(checked, url, where, response);
    return;
  }
  const operation =
    method === "GET" || method === "HEAD" ? find(checked.document, url)?.get : undefined;
  if (!operation) {
    // A folder's page asked without its slash (`/docs`): moved to the route the document has.
    const location = response.headers.get("location");
    if (response.status === 301 && location) {
      const to = new URL(location, url);
      if (!find(checked.document, to)?.get)
        throw new Error(`${where}: moved to ${to.pathname}, which the document has not either`);
      return;
    }
    // Unknown paths, hostile ones, other methods: refused with an error body.
    if (response.status < 400)
      throw new Error(`${where}: answered, but the document has no such route`);
    const error = { schema: { $ref: "#/components/schemas/ErrorBody" } };
    expectBody(checked, where, response, body, error, "application/json");
    return;
  }
  const declared =
    operation.responses[String(response.status)] ?? rangeOfJson(operation, response.status);
  if (!declared) throw new Error(`${where}: the document declares no ${response.status} here`);
  checkHeaders(where, response, declared);
  const [mediaType, media] = Object.entries(declared.content ?? {})[0] ?? [];
  if (!media || !mediaType) {
    if (body !== "")
      throw new Error(`${where}: the document says no body, got ${body.slice(0, 80)}`);
    return;
  }
  // A 206 is a part of the body: its type is checked, not its bytes.
  if (method === "HEAD" || response.status === 304) return;
  if (response.status === 206) {
    // One range in the answer's own type; several (nginx's) as multipart, its boundary after it.
    const type = response.headers.get("content-type")?.replace(/;\s*boundary=.*$/, "");
    const types = Object.keys(declared.content ?? {});
    if (!type || !types.includes(type))
      throw new Error(`${where}: content type ${type}, the document says ${types.join(" or ")}`);
    return;
  }
  expectBody(checked, where, response, body, media, mediaType);
}

/**
 * A JSON answer's 206, which its 200's Accept-Ranges says and the responses do not list (a
 * generated client would type the answer as JSON or bytes): the 200's headers and type, cut.
 */
function rangeOfJson(operation: Operation, status: number): Response | undefined {
  const whole = operation.responses["200"];
  if (status !== 206 || !whole?.headers?.["Accept-Ranges"]) return undefined;
  const range = { schema: { example: "bytes 0-99/1000" } };
  const part = { schema: { type: "string", format: "binary" } };
  return {
    headers: { ...whole.headers, "Content-Range": range },
    content: { ...whole.content, "multipart/byteranges": part },
  };
}

// Sent with one value whenever declared (unless declared not required): a browser's page reads the
// answer only with them.
const FIXED_HEADERS = ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"];

// Headers a client acts on (resume a download, revalidate, keep or not, wait, save as): a
// generated client reads only what the document declares, so each one sent must be declared for
// its status.
const READ_HEADERS = [
  "ETag",
  "Cache-Control",
  "Content-Range",
  "Accept-Ranges",
  "Retry-After",
  "Content-Disposition",
];

/** The CORS headers as declared; a `Vary` sent only where declared, with the declared value. */
function checkHeaders(where: string, response: globalThis.Response, declared: Response): void {
  const headers = declared.headers ?? {};
  for (const name of READ_HEADERS)
    if (response.headers.has(name) && !(name in headers))
      throw new Error(`${where}: header ${name} is sent, the document does not declare it`);
  for (const name of FIXED_HEADERS) {
    const example = headers[name]?.schema.example;
    if (example === undefined) throw new Error(`${where}: the document does not declare ${name}`);
    const sent = response.headers.get(name);
    // Declared as sent only to some clients (the whole /status goes to the operators without it).
    if (sent === null && headers[name]?.required === false) continue;
    if (sent !== example)
      throw new Error(`${where}: header ${name} is ${sent}, the document says ${example}`);
  }
  const vary = response.headers.get("vary");
  if (vary !== null && vary !== headers.Vary?.schema.example)
    throw new Error(`${where}: Vary is ${vary}, the document says ${headers.Vary?.schema.example}`);
}

/** OPTIONS is answered on every path; where the document has the path, as its preflight says. */
function checkPreflight(
  checked: Checked,
  url: URL,
  where: string,
  response: globalThis.Response,
): void {
  if (response.status !== 204) throw new Error(`${where}: a preflight is answered 204`);
  const item = find(checked.document, url);
  if (!item) return;
  const declared = item.options?.responses["204"];
  if (!declared) throw new Error(`${where}: the document declares no OPTIONS 204 here`);
  // A page reads a preflight's CORS headers as it reads any answer's: each sent is declared.
  for (const name of FIXED_HEADERS)
    if (response.headers.has(name) && !(name in (declared.headers ?? {})))
      throw new Error(`${where}: header ${name} is sent, the document does not declare it`);
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    const sent = response.headers.get(name);
    if (sent !== String(header.schema.example))
      throw new Error(
        `${where}: header ${name} is ${sent}, the document says ${header.schema.example}`,
      );
  }
}

function expectBody(
  checked: Checked,
  where: string,
  response: globalThis.Response,
  body: string,
  media: { schema: Schema },
  mediaType: string,
): void {
  const type = response.headers.get("content-type");
  if (type !== mediaType)
    throw new Error(`${where}: content type ${type}, the document says ${mediaType}`);
  if (mediaType !== "application/json") return;
  const key = JSON.stringify(media.schema);
  const validate =
    checked.compiled.get(key) ?? checked.ajv.compile(resolveRefs(asClientsRead(media.schema)));
  checked.compiled.set(key, validate);
  if (!validate(JSON.parse(body)))
    throw new Error(
      `${where}: body does not match the document: ${checked.ajv.errorsText(validate.errors)}`,
    );
}

/**
 * The schemas as generated clients type them: an integer without a format is a 32-bit int (Java's
 * and Kotlin's Int, C#'s int, Go's int32 from openapi-generator), which a value past 2^31 would
 * not fit (ajv-formats checks int32 and int64 as ranges).
 */
function asClientsRead<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(asClientsRead) as T;
  if (typeof schema !== "object" || schema === null) return schema;
  const read = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, asClientsRead(value)]),
  );
  const types = [read.type].flat();
  return (
    types.includes("integer") && read.format === undefined ? { ...read, format: "int32" } : read
  ) as T;
}

/** The document's refs (`#/components/…`) point into the schema registered as `openapi`. */
function resolveRefs(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
}

type PathItem = Document["paths"][string];

/** The path a URL asks for: its template (or a path form its operation names) with valid parameters. */
function find(document: Document, url: URL): PathItem | undefined {
  const path = url.pathname;
  const items = Object.entries(document.paths);
  for (const [template, item] of items) {
    const values = readTemplate(template, path);
    if (values && parametersFit(item.get, values)) return item;
  }
  // Then the static-host path forms an operation names (`/vls/v3/stations/{contract}`).
  for (const [, item] of items) {
    if (item.get["x-velodata-path-forms"]?.some((form) => readTemplate(form, path))) return item;
  }
  return undefined;
}

function readTemplate(template: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = template
    .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
    .replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
  const found = new RegExp(`^${source}$`).exec(path);
  if (!found) return undefined;
  try {
    return Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(found[index + 1] as string)]),
    );
  } catch {
    return undefined; // a malformed escape (`%E0%A4%A`) is no value of any parameter
  }
}

/** Path parameters must fit their schema: a station number is an integer. */
function parametersFit(operation: Operation, values: Record<string, string>): boolean {
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== "path") continue;
    const value = values[parameter.name];
    if (value === undefined) return false;
    // Any spelling of a whole number (`042`, `+42`, `42.0`, ` 42`) asks for the operation; one
    // other than the plain one is answered as a record that does not exist.
    if (parameter.schema.type === "integer" && !/^\s*\+?\d+(?:\.0*)?\s*$/.test(value)) return false;
  }
  return true;
}
