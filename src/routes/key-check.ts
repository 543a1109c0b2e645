// The key check a front server asks `velodata serve` (nginx auth_request): not an API answer, so not a row of the table.

/** 204 when `?apiKey=` is a valid key, otherwise the API's 403 (serve counts the refusal when it is handed the request). */
export const KEY_CHECK_PATH = "/_velodata/key-check";

/** The accepted key's id on the check's 204 (as `velodata keys list` shows it): the front server logs it. */
export const KEY_ID_HEADER = "X-Velodata-Key-Id";

/**
 * On the check's 204 for a key with a limit: nginx keeps no copy of it (X-Accel-Expires: 0 wins
 * over its proxy_cache_valid), so every request of that key is checked, and counted, by serve.
 */
export const UNCACHED_HEADER = "X-Accel-Expires";

/**
 * Sent as "1" by the nginx deployment when it hands on a request whose key passed the check (a
 * file it did not find): the check counted it against the key's limit, so serve does not again.
 * Trusted from a loopback peer only; nginx clears a client's own.
 */
export const KEY_CHECKED_HEADER = "X-Velodata-Key-Checked";
