// How long clients may keep an answer: the Cache-Control the server sends, and the GBFS `ttl`.
import type { Access, AnyRoute, Freshness } from "./route.js";

/** Seconds a static answer may be kept: it changes only when the source is rebuilt. */
export const STATIC_MAX_AGE = 3600;

/**
 * How long caches may keep a route's answer: as a dynamic one, until the next refresh, or as a
 * static one, STATIC_MAX_AGE. Every GBFS feed is kept as its station_status, though all but it
 * change only with the source: consumers read them together, and a station_information kept an
 * hour would lack, for up to that hour, a station added to the source that the fresh
 * station_status already lists (GBFS wants every station in both), a vehicle_types the vehicle
 * type a contract added. Asked again with its ETag, an unchanged feed is a 304. Its `ttl` says
 * the same (gbfs-files.ts).
 */
export const keptAs = (route: Pick<AnyRoute, "freshness" | "gbfsVersion">): Freshness =>
  route.gbfsVersion === undefined ? route.freshness : "dynamic";

/**
 * Who may keep an answer where keys are checked: a keyed one only the client's own cache (a shared
 * one, a CDN or a proxy, would go on answering it to a key revoked since); any cache the others. A
 * tree published without keys (static host, object storage, preview) has only public answers.
 */
export const cacheScopeOf = (access: Access): "private" | "public" =>
  access === "key" ? "private" : "public";

/** The Cache-Control of an answer of this access, kept this many seconds. */
export const cacheControlOf = (access: Access, maxAge: number): string =>
  `${cacheScopeOf(access)}, max-age=${maxAge}`;

/** The Cache-Control of a public static answer, as every host sends it. */
export const STATIC_CACHE_CONTROL = cacheControlOf("public", STATIC_MAX_AGE);

/** The Cache-Control of a keyed static answer where keys are checked. */
export const KEYED_STATIC_CACHE_CONTROL = cacheControlOf("key", STATIC_MAX_AGE);

/**
 * The Cache-Control of an answer no cache may keep, asked again it is answered anew: every error
 * (velodata serve's, its nginx deployment's, `velodata preview`'s) and the server's `/status`.
 */
export const NOT_STORED_CACHE_CONTROL = "no-store";

/** Seconds between two refreshes of the station states when none is given (`serve --refresh`, cron). */
export const DEFAULT_REFRESH_SECONDS = 60;
