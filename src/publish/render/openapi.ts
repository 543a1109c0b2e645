// The OpenAPI 3.1 document, generated from the route table and the zod schemas of the answers
// (schemas named with a `meta` id in src/model/ become components).
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
  type ZodMediaTypeObject,
} from "@asteasolutions/zod-to-openapi";
import { type ZodType, z } from "zod";
import { officialGbfsSchema } from "../../model/gbfs-official.js";
import { mailtoAddress } from "../../model/portal.js";
import { recordNumber } from "../../model/record-number.js";
import { ErrorBody } from "../../model/server-status.js";
import { JSON_TYPE } from "../../routes/content-types.js";
import {
  cacheControlOf,
  keptAs,
  NOT_STORED_CACHE_CONTROL,
  STATIC_MAX_AGE,
} from "../../routes/max-age.js";
import {
  ALLOWED_METHODS,
  EXPOSED_HEADERS,
  PREFLIGHT_ALLOWED_HEADERS,
  PREFLIGHT_MAX_AGE,
} from "../../routes/methods.js";
import {
  BAD_REQUEST,
  HEADERS_TOO_LARGE,
  KEY_RATE_LIMITED,
  MALFORMED_REQUEST,
  SERVE_UNAVAILABLE,
  SERVE_UNAVAILABLE_RETRY_SECONDS,
  TOO_MANY_AT_ONCE,
  TOO_MANY_AT_ONCE_RETRY_SECONDS,
  TOO_MANY_KEY_FAILURES,
  URI_TOO_LONG,
} from "../../routes/outcomes.js";
import { placeholdersOf } from "../../routes/pattern.js";
import type { AnyRoute, Outcome, ParamType } from "../../routes/route.js";
import { dispositionOf, type EndpointName, ROUTE_LIST } from "../../routes/routes.js";
import { outcomesOf } from "../../routes/statuses.js";
import { TAG_DESCRIPTIONS, type Tag } from "../../routes/tags.js";
import { compressible, MIN_COMPRESSED_SIZE } from "../compress.js";
import type { LicenseGroup, StatedLicense } from "../license-groups.js";
import { badRequestExample } from "./openapi-bad-request.js";

export interface OpenApiOptions {
  /** The public base URL the API is reached at (the document's `servers`). */
  baseUrl: string;
  /** A 200 answer of each route, from the published data. */
  examples: Partial<Record<EndpointName, unknown>>;
  /** The service's name (portal.json's serviceName): the document's title. Default "velodata". */
  title?: string;
  /**
   * Where to ask for a key (portal.json's keys.url: a web page, or `mailto:` an address): the
   * document's contact, which API consoles show beside its title.
   */
  keysUrl?: string;
  /** The contracts grouped by the licence of their data (licenseGroups): the API's licence. */
  licenses?: readonly LicenseGroup<StatedLicense>[];
  /**
   * Parameters of the data for "Try it out": the station and the parking the examples show, so that
   * each operation's example request finds them (a parking route, a contract with the parking API).
   */
  parameterExamples?: ParameterExamples;
}

interface Located {
  contract: string;
  number: number;
}

export interface ParameterExamples {
  station?: Located;
  park?: Located;
}

const API_KEY = "apiKey";
const PREFLIGHT_TAG = "CORS preflight";
const PREFLIGHT_DESCRIPTION =
  "OPTIONS on every path: the preflight a browser sends before a cross-origin request, answered 204 without a key.";

export function renderOpenApi(options: OpenApiOptions): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", API_KEY, {
    type: "apiKey",
    in: "query",
    name: "apiKey",
    description: `The API key (40 hex characters): ${whereToAsk(options.keysUrl)}.`,
  });
  for (const each of operations(options, registry)) registry.registerPath(each);
  const title = options.title ?? "velodata";
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title,
      version: "0.1.0",
      description:
        "Bike-sharing stations and bike parkings, as the JCDecaux open-data API (v3, legacy v1, parking v1), plus GBFS feeds and static downloads. Every API call needs `?apiKey=KEY`; public routes say so. " +
        `Every path answers HEAD as GET without the body, and OPTIONS (a CORS preflight, no key needed) with 204; other methods get 405 with \`Allow: ${ALLOWED_METHODS}\`. ` +
        "A file's answer takes a byte `Range` (206 with `Content-Range`; `Accept-Ranges` says so on the bundle, and from nginx on every file). A JSON answer's 206 is not listed apart, so that a generated client types it as its JSON." +
        licensesByContract(options.licenses ?? []),
      ...licenseOf(options.licenses ?? [], options.baseUrl),
      ...(options.keysUrl ? { contact: contactOf(options.keysUrl, title) } : {}),
    },
    servers: [{ url: options.baseUrl }],
    // Every group in TAG_DESCRIPTIONS' order (the data first), the preflights last: Swagger UI lists
    // the groups so, where it would otherwise take them as they first appear among the paths.
    tags: [
      ...tagsInUse().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
      { name: PREFLIGHT_TAG, description: PREFLIGHT_DESCRIPTION },
    ],
  });
}

/**
 * OpenAPI's contact for a keys link: an e-mail address for `mailto:`, else the page. Named for
 * what it is for: API consoles show it as "NAME - Website", which the service's name alone would
 * make its home page.
 */
function contactOf(
  keysUrl: string,
  title: string,
): { name: string } & ({ email: string } | { url: string }) {
  const email = mailtoAddress(keysUrl);
  const name = `${title}: API keys`;
  return email === null ? { name, url: keysUrl } : { name, email };
}

/** How a developer gets a key, as the key's scheme says it: where portal.json says to ask. */
function whereToAsk(keysUrl: string | undefined): string {
  if (keysUrl === undefined) return "the operator of this API gives them out";
  const email = mailtoAddress(keysUrl);
  return email === null ? `ask for one at ${keysUrl}` : `ask for one by writing to ${email}`;
}

/** The groups of the route table, in TAG_DESCRIPTIONS' order. */
function tagsInUse(): Tag[] {
  const used = new Set(ROUTE_LIST.map((route) => route.tag));
  return (Object.keys(TAG_DESCRIPTIONS) as Tag[]).filter((tag) => used.has(tag));
}

/**
 * The data's licence, what an open-data API's users need to know of its terms: an SPDX id, or
 * else its URL (OpenAPI takes one of the two). None where no contract states one. Where licences
 * differ by contract, the description lists them (`licensesByContract`), which the licence names,
 * and its URL is the portal's list of contracts, which gives each one's: OpenAPI 3.1 asks for
 * neither, but the validators of its first schema (swagger-parser's) refuse a licence without one.
 */
function licenseOf(
  groups: readonly LicenseGroup<StatedLicense>[],
  baseUrl: string,
): {
  license?: { name: string; identifier?: string; url?: string };
} {
  const [only] = groups.length === 1 ? groups : [];
  if (only?.license?.id) return { license: { name: only.license.id, identifier: only.license.id } };
  if (only?.license?.url) return { license: { name: "The data's licence", url: only.license.url } };
  if (groups.some((group) => group.license))
    return {
      license: {
        name: "Differs by contract: see the list in the description",
        url: `${baseUrl.replace(/\/+$/, "")}/#contracts`,
      },
    };
  return {};
}

/**
 * The licences of the data, a line each with the contracts under it (Markdown, after the API's
 * description), where they differ by contract; nothing otherwise.
 */
function licensesByContract(groups: readonly LicenseGroup<StatedLicense>[]): string {
  if (groups.length < 2 || !groups.some((group) => group.license)) return "";
  const lines = groups.map(({ license, contracts }) => {
    const name = license?.id ?? license?.url ?? "not stated";
    const named = license?.url ? `[${name}](${license.url})` : name;
    return `- ${named}: ${contracts.map((contract) => `\`${contract}\``).join(", ")}`;
  });
  return [
    "\n\nThe data's licence differs by contract (each contract's GBFS system_information gives it too, as `license_id` and `license_url`):",
    "",
    ...lines,
  ].join("\n");
}

/**
 * One URL form of a route: its path form, or its query form; or, of a GBFS route serving several
 * feeds (`{feed}.json`), the path of one of them (`feed`), each feed an operation of its own so
 * that each gets its own schema (a client generator then types each apart).
 */
interface Form {
  route: AnyRoute;
  path: string;
  query: readonly string[];
  feed?: string;
}

function formsOf(route: AnyRoute): Form[] {
  const feeds = route.params.feed;
  if (route.gbfsVersion && feeds?.kind === "oneOf")
    return feeds.values.map((feed) => ({
      route,
      path: route.path.replace("{feed}", feed),
      query: [],
      feed,
    }));
  const forms: Form[] = [{ route, path: route.path, query: [] }];
  if (route.query) forms.push({ route, path: route.query.path, query: route.query.params });
  return forms;
}

/**
 * OpenAPI has one operation per path and method: where two routes share a path (all stations,
 * and the query form of a contract's stations), they become one operation whose query
 * parameters are optional and whose answers are the union of both.
 */
function operations(options: OpenApiOptions, registry: OpenAPIRegistry): RouteConfig[] {
  const all = ROUTE_LIST.flatMap(formsOf);
  const shape = (path: string) => path.replace(/\{\w+\}/g, "{}");
  // `/vls/v3/stations/{contract}` and `/vls/v3/stations/{number}` are the same path to OpenAPI:
  // such a path form is left out, and named on its route's query form as a static-host alias.
  const collides = (form: Form) =>
    form.route.query !== undefined &&
    form.query.length === 0 &&
    all.some((other) => other.path !== form.path && shape(other.path) === shape(form.path));
  const byPath = new Map<string, Form[]>();
  for (const form of all.filter((form) => !collides(form)))
    byPath.set(form.path, [...(byPath.get(form.path) ?? []), form]);
  return [...byPath].flatMap(([path, forms]) => {
    const aliases = forms
      .filter((form) => form.query.length > 0 && collides(formsOf(form.route)[0] as Form))
      .map((form) => form.route.path);
    const config = operation(path, forms, options, registry);
    return [
      aliases.length > 0 ? { ...config, "x-velodata-path-forms": aliases } : config,
      preflight(config),
    ];
  });
}

/** A response header of string or integer values, with the value sent as its example. */
const headerExample = (description: string, example: string | number) => ({
  description,
  schema: {
    type: typeof example === "number" ? ("integer" as const) : ("string" as const),
    example,
  },
});

/** What every answer carries, so that a page of any origin may read it and its headers. */
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": {
    ...headerExample("any origin may read the answer", "*"),
    required: true,
  },
  "Access-Control-Expose-Headers": {
    ...headerExample("the headers a page may read besides the usual ones", EXPOSED_HEADERS),
    required: true,
  },
};

/**
 * An error's, and /status's: what velodata serve, its nginx deployment and `velodata preview` send.
 * Not required: a static host or a CDN sends its own errors.
 */
const NOT_STORED = {
  "Cache-Control": headerExample(
    "no cache may keep it: asked again, it is answered anew (sent by velodata serve, its nginx deployment and `velodata preview`)",
    NOT_STORED_CACHE_CONTROL,
  ),
};

/** The same where the operators' whole answer is sent without them (see wholeForOperators). */
const CORS_HEADERS_BUT_FOR_OPERATORS = Object.fromEntries(
  Object.entries(CORS_HEADERS).map(([name, header]) => [
    name,
    {
      ...header,
      description: `${header.description}; not sent with the whole document the server's operators get (\`serve --status-details-from\`), which no page of another origin may read`,
      required: false,
    },
  ]),
);

/** OPTIONS on a path: the CORS preflight the server answers for every route, without a key. */
function preflight(get: RouteConfig): RouteConfig {
  return {
    method: "options",
    path: get.path,
    operationId: `${get.operationId}Preflight`,
    summary: "CORS preflight: the methods this path answers",
    // Linters (Spectral's operation-description) and documentation pages ask every operation for one.
    description: `What a browser asks before a cross-origin request to \`${get.path}\` from a web page: answered 204 for any origin, without a key. Clients other than browsers never need it.`,
    // One group of their own, so that documentation pages list them apart from the API.
    tags: [PREFLIGHT_TAG],
    security: [],
    request: { params: get.request?.params },
    responses: {
      "204": {
        description: "The methods allowed, for any origin",
        headers: {
          Allow: headerExample("the methods every path answers", ALLOWED_METHODS),
          ...CORS_HEADERS,
          "Access-Control-Allow-Methods": headerExample(
            "the methods a browser may use",
            ALLOWED_METHODS,
          ),
          "Access-Control-Allow-Headers": headerExample(
            "any request header (If-None-Match for a page's own revalidation…)",
            PREFLIGHT_ALLOWED_HEADERS,
          ),
          "Access-Control-Max-Age": headerExample(
            "seconds a browser may keep this answer",
            PREFLIGHT_MAX_AGE,
          ),
        },
      },
      // As any request: one a server cannot read, or an HTTP/1.1 one without Host.
      "400": errorResponse([MALFORMED_REQUEST]),
      "414": errorResponse([URI_TOO_LONG]),
      "431": errorResponse([HEADERS_TOO_LARGE]),
    },
  };
}

function operation(
  path: string,
  forms: readonly Form[],
  options: OpenApiOptions,
  registry: OpenAPIRegistry,
): RouteConfig {
  const [first] = forms as [Form, ...Form[]];
  const route = first.route;
  const queryNames = [...new Set(forms.flatMap((form) => form.query))];
  const query = Object.fromEntries(
    queryNames.map((name) => {
      const owner = forms.find((form) => form.query.includes(name)) as Form;
      const schema = schemaOf(owner.route, name, options);
      const always = forms.every((form) => form.query.includes(name));
      return [name, always ? schema : schema.optional()];
    }),
  );
  const pathParams = Object.fromEntries(
    placeholdersOf(path).map((name) => [name, schemaOf(route, name, options)]),
  );
  const id = (form: Form) =>
    form.query.length > 0
      ? `${form.route.name}ByQuery`
      : form.route.name + (form.feed === undefined ? "" : pascalCase(form.feed));
  return {
    method: "get",
    path,
    // camelCase throughout (`stationsOrContractStationsByQuery`): generated clients name methods so.
    operationId: forms.map((form, at) => (at === 0 ? id(form) : pascalCase(id(form)))).join("Or"),
    summary: forms.map(summaryOf).join("; with ?contract=: "),
    description: describeAccess(route),
    tags: [route.tag],
    security: route.access === "key" ? [{ [API_KEY]: [] }] : [],
    request: {
      params: Object.keys(pathParams).length > 0 ? z.object(pathParams) : undefined,
      query: queryNames.length > 0 ? z.object(query) : undefined,
    },
    responses: responsesOf(
      forms.map((form) => form.route),
      { schema: bodyOf(first, registry), description: forms.map(summaryOf).join("; or ") },
      options.examples,
      badRequestExample(forms, exampleOf(route, options)?.contract ?? "contract"),
    ),
    "x-velodata-access": route.access,
    "x-velodata-freshness": route.freshness,
  };
}

const summaryOf = (form: Form) => form.route.summary.replace("{feed}", form.feed ?? "{feed}");

const pascalCase = (name: string) =>
  name.replace(/(?:^|_)(\w)/g, (_, letter: string) => letter.toUpperCase());

/**
 * The schema of a form's 200 body: the route's, or for a GBFS feed the official one, a component
 * named for it (`GbfsV3StationStatus`) that every form of that feed refers to.
 */
function bodyOf(form: Form, registry: OpenAPIRegistry): ZodMediaTypeObject["schema"] {
  const version = form.route.gbfsVersion;
  if (version === undefined) return form.route.schema ?? z.string().meta({ format: "binary" });
  // The feed the file names: `station_status.json`, `{feed}.json` as this form fills it.
  const feed = form.feed ?? (form.path.split("/").pop() as string).replace(/\.json$/, "");
  const name = `GbfsV${version.split(".")[0]}${pascalCase(feed)}`;
  const known = (each: OpenAPIRegistry["definitions"][number]) =>
    each.type === "component" && each.name === name;
  if (!registry.definitions.some(known))
    registry.registerComponent("schemas", name, officialGbfsSchema(version, feed));
  return { $ref: `#/components/schemas/${name}` };
}

function describeAccess(route: AnyRoute): string {
  const access = route.access === "key" ? "Needs `?apiKey=KEY`." : "Public: no key needed.";
  const freshness =
    route.freshness === "dynamic"
      ? "Changes at every refresh of the station states."
      : "Changes only when the source data is rebuilt.";
  return route.served === "server"
    ? `${access} ${freshness} ${SERVER_ONLY}`
    : `${access} ${freshness}`;
}

// What only the server answers is not in the tree: where the tree is served as files, the
// reference's "Try it out" gets a 404, which the document says it will.
const SERVER_ONLY =
  "Answered by `velodata serve` only (alone, or behind nginx): a static host, a CDN and `velodata preview` serve the tree's files, which hold no answer for it (404).";

function schemaOf(route: AnyRoute, name: string, options: OpenApiOptions): ZodType {
  const type = route.params[name] as ParamType;
  const example = exampleOf(route, options);
  switch (type.kind) {
    case "contract": {
      const schema = z.string().min(1).describe("contract name, matched without regard to case");
      return example ? schema.meta({ example: example.contract }) : schema;
    }
    case "number": {
      const schema = recordNumber.describe(type.what);
      return example ? schema.meta({ example: example.number }) : schema;
    }
    case "oneOf":
      return z.enum(type.values as [string, ...string[]]).meta({ example: type.values[0] });
  }
}

/** The parking routes' example is the parking's; every other route's, the station's. */
const exampleOf = (route: AnyRoute, options: OpenApiOptions): Located | undefined =>
  route.tag === "parking" ? options.parameterExamples?.park : options.parameterExamples?.station;

/**
 * `body`: the 200's schema, and what it is (the forms' summaries); `badRequest`: the error of a
 * malformed request of them (badRequestExample).
 */
function responsesOf(
  routes: readonly AnyRoute[],
  body: { schema: ZodMediaTypeObject["schema"]; description: string },
  examples: OpenApiOptions["examples"],
  badRequest: string,
): Record<string, ResponseConfig> {
  // Routes sharing a path answer the same kind of body: the first one describes it.
  const route = routes[0] as AnyRoute;
  const example = examples[route.name as EndpointName];
  const disposition = dispositionOf(route);
  const headers: Record<string, ReturnType<typeof headerExample>> = route.wholeForOperators
    ? { ...CORS_HEADERS_BUT_FOR_OPERATORS }
    : { ...CORS_HEADERS };
  if (route.served === "release") {
    headers.ETag = headerExample(
      "the representation's tag, opaque, for If-None-Match (one per encoding)",
      '"tH3AVCEV8WgWUJZVus7ia1-VYE8"',
    );
    // Where keys are checked, a keyed answer is private: no shared cache answers a revoked key.
    const scope =
      route.access === "key"
        ? "; private where keys are checked (public from a tree published without keys)"
        : "";
    // A GBFS feed that changes only with the source is kept no longer than its station_status.
    const until =
      route.freshness === "dynamic"
        ? ""
        : ", as the station_status it goes with (unchanged: a 304 to If-None-Match)";
    headers["Cache-Control"] =
      keptAs(route) === "dynamic"
        ? headerExample(
            `the seconds to the next refresh of the station states${until}${scope}`,
            cacheControlOf(route.access, 42),
          )
        : headerExample(
            `it changes only when the source is rebuilt${scope}`,
            cacheControlOf(route.access, STATIC_MAX_AGE),
          );
    if (compressible(route.contentType))
      headers.Vary = headerExample(
        `on an answer of ${MIN_COMPRESSED_SIZE} bytes or more: sent as brotli, gzip or as it is, as Accept-Encoding allows`,
        "Accept-Encoding",
      );
  }
  // The server's own answers (/status) tell its state at this moment: never kept.
  if (route.served === "server") Object.assign(headers, NOT_STORED);
  // A JSON answer's 206 is said here, not listed: a generated client types an operation's answer
  // as all its 2xx bodies in one, and a 206's bytes beside the JSON made every answer `T | Blob`
  // (openapi-fetch, @hey-api/openapi-ts). An answer already bytes or text lists its 206.
  const rangesListed = route.contentType !== JSON_TYPE;
  if (route.served === "release")
    // Every answer of the tree serves a Range; serve says so with the downloads, nginx with all.
    headers["Accept-Ranges"] = headerExample(
      `an answer cut short can be resumed with a Range (sent by velodata serve with the bundle's zip; by nginx, with every file)${rangesListed ? "" : `: ${RANGE_OF_JSON}`}`,
      "bytes",
    );
  if (disposition)
    headers["Content-Disposition"] = headerExample("a file to save, and its name", disposition);
  const responses: Record<string, ResponseConfig> = {
    "200": {
      description: body.description,
      headers,
      content: {
        [route.contentType]: {
          schema: body.schema,
          ...(example === undefined ? {} : { example }),
        },
      },
    },
  };
  if (route.served === "release" && rangesListed) {
    // Any answer of the tree serves a Range, by nginx as by velodata serve; a download resumes so.
    responses["206"] = {
      description:
        "The bytes one Range asks for (`Range: bytes=1000-`: a download resumed where it stopped); several ranges that do not join, or an If-Range no longer naming this ETag, get the whole answer (200) from velodata serve, where nginx in front of the tree sends several ranges as multipart/byteranges (each part with its own Content-Range)",
      headers: {
        ...headers,
        "Content-Range": headerExample(
          "which bytes of the answer these are, and its size (none on a multipart answer)",
          "bytes 1000-38819/38820",
        ),
      },
      content: {
        [route.contentType]: { schema: z.string().meta({ format: "binary" }) },
        [BYTE_RANGES_TYPE]: { schema: z.string().meta({ format: "binary" }) },
      },
    };
  }
  if (route.alsoAs)
    responses[String(route.alsoAs.status)] = {
      description: route.alsoAs.meaning,
      headers: { ...CORS_HEADERS, ...NOT_STORED },
      content: { [route.contentType]: { schema: route.schema ?? z.unknown() } },
    };
  if (route.served === "server")
    responses["404"] = {
      description:
        "From a host serving the tree's files (a static host, a CDN, `velodata preview`): only `velodata serve` answers this path",
      headers: { ...CORS_HEADERS, ...NOT_STORED },
    };
  const byStatus = new Map<number, Outcome[]>();
  for (const outcome of new Set(routes.flatMap(outcomesOf)))
    byStatus.set(outcome.status, [...(byStatus.get(outcome.status) ?? []), outcome]);
  for (const [status, outcomes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const error = errorResponse(outcomes, badRequest);
    // /status's 503 is its own document (ok false), or nginx's error while serve is down.
    responses[String(status)] =
      route.alsoAs?.status === status
        ? {
            ...error,
            ...(route.wholeForOperators
              ? { headers: { ...error.headers, ...CORS_HEADERS_BUT_FOR_OPERATORS } }
              : {}),
            description: `${route.alsoAs.meaning}; or ${error.description}`,
            content: {
              [route.contentType]: { schema: z.union([route.schema ?? z.unknown(), ErrorBody]) },
            },
          }
        : error;
  }
  // A 304 carries what the 200 would say of the copy the client holds: its tag, lifetime, Vary
  // (and, from nginx, the bundle's Content-Disposition: it sends a file's headers with its 304).
  const notModified = responses["304"];
  if (notModified) {
    const { "Accept-Ranges": _, ...same } = headers;
    responses["304"] = { ...notModified, headers: same };
  }
  // The size a 416 gives is what a client needs to ask again for a range that exists.
  const unsatisfiable = responses["416"];
  if (unsatisfiable)
    responses["416"] = {
      ...unsatisfiable,
      headers: {
        ...CORS_HEADERS,
        ...NOT_STORED,
        "Content-Range": headerExample(
          "the size of the answer: no range of it was sent",
          "bytes */38820",
        ),
        // nginx refuses the range after it found the file, whose headers it has sent by then.
        ETag: headerExample(
          "from nginx in front of the tree, the file's tag (velodata serve sends none)",
          '"6b16aa63-97a4"',
        ),
        ...(disposition
          ? {
              "Content-Disposition": headerExample(
                "from nginx in front of the tree, the file's (velodata serve sends none)",
                disposition,
              ),
            }
          : {}),
      },
    };
  return responses;
}

// Several ranges in one answer, as nginx sends them (RFC 9110 §14.6).
const BYTE_RANGES_TYPE = "multipart/byteranges";

const RANGE_OF_JSON =
  "`Range: bytes=…` is answered 206 with those bytes and a Content-Range, not listed among this operation's responses, so that a generated client's type of the answer stays its JSON";

// The answers that say how long to wait: what Retry-After counts down to, and an example.
const WAITS = new Map<Outcome, { until: string; seconds: number }>([
  [
    TOO_MANY_KEY_FAILURES,
    { until: "seconds until this address's keys are checked again", seconds: 42 },
  ],
  [KEY_RATE_LIMITED, { until: "until this key's next minute", seconds: 42 }],
  [
    SERVE_UNAVAILABLE,
    {
      until: "seconds before asking again: velodata serve restarts within seconds",
      seconds: SERVE_UNAVAILABLE_RETRY_SECONDS,
    },
  ],
  [
    TOO_MANY_AT_ONCE,
    {
      until: "seconds before asking again, once fewer requests are in progress",
      seconds: TOO_MANY_AT_ONCE_RETRY_SECONDS,
    },
  ],
]);

/** Outcomes of one status share their form: an `{"error"}` body, or none. */
function errorResponse(outcomes: readonly Outcome[], badRequest?: string): ResponseConfig {
  const description = outcomes.map((outcome) => outcome.meaning).join("; or ");
  // The example shows a fixed wording where there is one; BAD_REQUEST's depends on the request:
  // the operation's own example of it, where it has one.
  const fixed = outcomes.find((outcome) => outcome !== BAD_REQUEST);
  const shown =
    fixed ?? (badRequest ? { ...BAD_REQUEST, error: badRequest } : (outcomes[0] as Outcome));
  const waits = outcomes.flatMap((outcome) => WAITS.get(outcome) ?? []);
  const headers = {
    headers: waits[0]
      ? {
          ...CORS_HEADERS,
          ...NOT_STORED,
          "Retry-After": headerExample(
            waits.map((wait) => wait.until).join(", or "),
            waits[0].seconds,
          ),
        }
      : { ...CORS_HEADERS, ...NOT_STORED },
  };
  if (shown.error === null) return { description, ...headers };
  return {
    description,
    ...headers,
    content: { "application/json": { schema: ErrorBody, example: { error: shown.error } } },
  };
}
