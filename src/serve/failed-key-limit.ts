// An optional brake on key guessing: after too many wrong keys from one address within a window,
// that address gets 429 with Retry-After until the window passes. A valid key never comes here.

export interface FailedKeyLimit {
  /** Records a wrong key; returns the seconds to wait when the address is over the limit, else 0. */
  failed(address: string, now: Date): number;
}

interface Window {
  start: number;
  failures: number;
}

// Enough to hold every address of a busy minute; past it the oldest windows are forgotten first.
const MAX_ADDRESSES = 100_000;

export function failedKeyLimit(maxFailures: number, windowSeconds: number): FailedKeyLimit {
  const windowMs = windowSeconds * 1000;
  const windows = new Map<string, Window>();
  return {
    failed(address, now) {
      const time = now.getTime();
      let window = windows.get(address);
      if (!window || time - window.start >= windowMs) {
        windows.delete(address); // re-inserted last: the Map's order is then oldest first
        window = { start: time, failures: 0 };
        windows.set(address, window);
        if (windows.size > MAX_ADDRESSES) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
      }
      window.failures++;
      if (window.failures <= maxFailures) return 0;
      return Math.max(1, Math.ceil((window.start + windowMs - time) / 1000));
    },
  };
}
