// How long the key cache's files, which name the keys, stay on nginx's disk after a key's last request.

/**
 * How often nginx's cache manager looks for files to remove, at the latest: fixed in nginx (an
 * empty cache, or one whose next file expires later, sleeps this long), not a setting.
 */
export const CACHE_MANAGER_PERIOD_SECONDS = 10;

/**
 * At most how many seconds a key's file stays after the last request that used it: `inactive` is
 * the key cache's validity, and the manager removes the file at its first look past that, which
 * may come up to its period later, counted in nginx's whole seconds (one more).
 */
export const keyFileSeconds = (keyCacheSeconds: number): number =>
  Math.max(keyCacheSeconds, CACHE_MANAGER_PERIOD_SECONDS) + 1;
