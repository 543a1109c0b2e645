// An optional brake on key guessing: after too many wrong keys from one address within a window,
// that address gets 429 with Retry-After until the window passes. A valid key never comes here.
import { requestWindows } from "./request-windows.js";

export interface FailedKeyLimit {
  /** Records a wrong key; returns the seconds to wait when the address is over the limit, else 0. */
  failed(address: string, now: Date): number;
}

// Enough to hold every address of a busy minute; past it the oldest windows are forgotten first.
const MAX_ADDRESSES = 100_000;

export function failedKeyLimit(maxFailures: number, windowSeconds: number): FailedKeyLimit {
  const windows = requestWindows(windowSeconds, MAX_ADDRESSES);
  return { failed: (address, now) => windows.count(address, maxFailures, now.getTime()) };
}
