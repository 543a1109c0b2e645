// How long clients may keep an answer: the Cache-Control the server sends, and the GBFS `ttl`.

/** Seconds a static answer may be kept: it changes only when the source is rebuilt. */
export const STATIC_MAX_AGE = 3600;

/** The Cache-Control of a static answer, as every host sends it. */
export const STATIC_CACHE_CONTROL = `public, max-age=${STATIC_MAX_AGE}`;

/** Seconds between two refreshes of the station states when none is given (`serve --refresh`, cron). */
export const DEFAULT_REFRESH_SECONDS = 60;
