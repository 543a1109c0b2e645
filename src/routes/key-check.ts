// The key check a front server asks `velodata serve` (nginx auth_request): not an API answer, so not a row of the table.

/**
 * 204 when `?apiKey=` is a valid key, otherwise the API's 403, a wrong key counted against
 * --max-key-failures as on any route. Behind nginx, for nginx alone to ask: a client gets its 404.
 */
export const KEY_CHECK_PATH = "/_velodata/key-check";

/** The accepted key's id on the check's 204 (as `velodata keys list` shows it): the front server logs it. */
export const KEY_ID_HEADER = "X-Velodata-Key-Id";

/**
 * On the check's 204 for a key with a limit: nginx keeps no copy of it (X-Accel-Expires: 0 wins
 * over its proxy_cache_valid), so every request of that key is checked, and counted, by serve.
 */
export const UNCACHED_HEADER = "X-Accel-Expires";

/**
 * The nginx deployment's id of a request (`$request_id`), sent with its key check and again when it
 * hands the request on (a file it did not find, a refused key): a key check that counted the
 * request against its key's limit, or its wrong key against the client, keeps the id, and the
 * hand-over naming it is not counted again. Nothing is taken on trust: an id spares a count only
 * once, only one a check has counted, and a wrong key's only for the same key from the same client.
 */
export const CHECK_TICKET_HEADER = "X-Velodata-Request";

/**
 * The tree a front server answers from (its `root`, as `velodata nginx --tree` resolved it), sent
 * with everything it hands to `velodata serve`: serve tells whether that tree is the one it keeps
 * (`--out`). Otherwise nginx serves the station answers as that tree last had them while /status,
 * asked through nginx, would say all is well (see serve/front-tree.ts).
 */
export const FRONT_TREE_HEADER = "X-Velodata-Tree";
