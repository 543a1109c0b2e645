// The shape of one row of the route table: a URL pattern with typed parameters and every rule of its answer.
import type { ZodType } from "zod";
import type { Tag } from "./tags.js";

/** Dynamic answers change at every refresh; static ones only when the source is rebuilt. */
export type Freshness = "dynamic" | "static";

/** Whether a client needs a key (`?apiKey=`) or not. */
export type Access = "key" | "public";

/** An answer other than the route's success: its status, and `{"error": ...}` or no body (null). */
export interface Outcome {
  readonly status: number;
  readonly error: string | null;
  /** What it means, for the OpenAPI document. */
  readonly meaning: string;
}

/**
 * A typed URL parameter. A `number` that is not a whole number is a clear 400 (the route is known);
 * a value outside `oneOf` means the URL is not this route at all. A `contract` is any name: it is
 * looked up in the release without regard to case.
 */
export type ParamType =
  | { readonly kind: "contract" }
  | { readonly kind: "number"; readonly what: string }
  | { readonly kind: "oneOf"; readonly values: readonly string[] };

/** The parameter types of an endpoint's fields: numbers must be `number` parameters. */
export type ParamsOf<E> = {
  readonly [K in Exclude<keyof E, "name">]: E[K] extends number
    ? Extract<ParamType, { kind: "number" }>
    : Exclude<ParamType, { kind: "number" }>;
};

/** What a contract must offer for the route to answer (a flag of the contract). */
export type ContractFeature = "parkingApi";

export interface Route<E extends { name: string }> {
  readonly name: E["name"];
  /** One line for people (OpenAPI summary). */
  readonly summary: string;
  /** OpenAPI tag, one per surface (v3, v1, parking, downloads, …). */
  readonly tag: Tag;
  /**
   * The path form, with `{param}` placeholders (a placeholder may share its segment with literal
   * text: `{contract}.csv`). It is the URL a static host serves, and gives the file in the tree.
   */
  readonly path: string;
  readonly params: ParamsOf<E>;
  /**
   * The specification's query form, if the route has one: its path, and the parameters taken from
   * the query string (`/vls/v3/stations/{number}` with `?contract=`).
   */
  readonly query?: { readonly path: string; readonly params: readonly Exclude<keyof E, "name">[] };
  readonly access: Access;
  readonly freshness: Freshness;
  /** `release`: a file of the Release and of the tree; `server`: computed per request (status). */
  readonly served: "release" | "server";
  readonly contentType: string;
  /**
   * A file to save, not to show: sent with `Content-Disposition: attachment` under this name (see
   * dispositionOf), so that a browser's API explorer offers it as a download, not as text.
   */
  readonly attachment?: string;
  /**
   * What the answer points at, for publishers that must keep readers consistent (object storage):
   * a `list` names answers, a `discovery` file names feeds; both go up after what they name.
   * Default: `answer`.
   */
  readonly role?: "list" | "discovery";
  /** The zod schema of a JSON answer; none for CSV, zip, or a GBFS feed (gbfsVersion). */
  readonly schema?: ZodType;
  /**
   * A GBFS feed of this version: the OpenAPI document describes it with the official schema of
   * the feed its file names (`station_status.json`; for `{feed}.json`, each of the values).
   */
  readonly gbfsVersion?: "2.3" | "3.0";
  /** The answer when the contract in the URL does not exist (default: `notFound`). */
  readonly unknownContract?: Outcome;
  /** A flag the contract must have, and the answer when it has not. */
  readonly contractNeeds?: { readonly feature: ContractFeature; readonly outcome: Outcome };
  /** The answer when the release holds no file for these parameters (default: Resource Not Found). */
  readonly notFound?: Outcome;
  /** Another status sent with the same body, and when (the server's status, unhealthy: 503). */
  readonly alsoAs?: { readonly status: number; readonly meaning: string };
  /**
   * Whole only for the server's operators (`serve --status-details-from`), and then sent without
   * the CORS headers: no page of another origin may read it, as one open in a browser on the
   * server's machine otherwise could. Other clients get a part of it, readable by any page.
   */
  readonly wholeForOperators?: true;
}

/** A table of rows, one per endpoint name of `E`, each typed for its endpoint. */
export type RowsOf<E extends { name: string }> = {
  readonly [N in E["name"]]: Route<Extract<E, { name: N }>>;
};

/** Any row, read without its endpoint's types: what the derived readers (matching, OpenAPI, hosts) see. */
export type AnyRoute = Omit<Route<{ name: string }>, "params" | "query"> & {
  readonly params: Readonly<Record<string, ParamType>>;
  readonly query?: { readonly path: string; readonly params: readonly string[] };
};
