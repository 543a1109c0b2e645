// The key check a front server asks `velodata serve` (nginx auth_request): not an API answer, so not a row of the table.

/** 204 when `?apiKey=` is a valid key, otherwise the API's own refusal (403, or 429). */
export const KEY_CHECK_PATH = "/_velodata/key-check";
