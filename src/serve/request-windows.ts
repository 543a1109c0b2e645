// Requests counted by name (a client's address, a key's id) in windows of a fixed length, each
// opened by the name's first request after its last window ended: serve's brake on key guessing
// and its per-key limits.
import { forgetOldest } from "./forget-oldest.js";

export interface RequestWindows {
  /**
   * Counts one request of `name` at `now` (ms); the seconds to wait (Retry-After) when it is past
   * the `most` its window allows, else 0.
   */
  count(name: string, most: number, now: number): number;
}

interface Window {
  start: number;
  requests: number;
}

/** Windows of `seconds`, for `maxNames` names at most: past it the oldest windows are forgotten first. */
export function requestWindows(seconds: number, maxNames: number): RequestWindows {
  const length = seconds * 1000;
  const windows = new Map<string, Window>();
  return {
    count(name, most, now) {
      let window = windows.get(name);
      if (!window || now - window.start >= length) {
        windows.delete(name); // re-inserted last: the Map's order is then oldest first
        window = { start: now, requests: 0 };
        windows.set(name, window);
        forgetOldest(windows, maxNames);
      }
      window.requests++;
      if (window.requests <= most) return 0;
      return Math.max(1, Math.ceil((window.start + length - now) / 1000));
    },
  };
}
