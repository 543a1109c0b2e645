// A key's limit of requests a minute (`keys add --per-minute`, `keys limit`): its highest value,
// for the keys file's schema and the command line alike (which loads no schema to check it).

/** A thousand requests a second. */
export const MOST_PER_MINUTE = 60_000;
