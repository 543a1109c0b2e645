// A time written as a count since 1970 (as v1 answers and many feeds write it), told as the instant
// it stands for, so that the remedy is the user's own time rather than an example's.
import { publishedTime } from "../published-time.js";

// A count this large is of milliseconds: 10^11 seconds is the year 5138, 10^11 ms 1973.
const MILLISECONDS_FROM = 1e11;

/** `2025-02-08T16:45:53Z if it counts milliseconds`: the count as seconds or ms, as its size says. */
export function instantSince1970(count: number): string {
  const milliseconds = count >= MILLISECONDS_FROM;
  const at = new Date(milliseconds ? count : count * 1000);
  // Past the years a Date holds (or not a count at all): the form alone.
  if (Number.isNaN(at.getTime())) return "such as 2025-02-08T16:44:06Z";
  return `${publishedTime(at)} if it counts ${milliseconds ? "milliseconds" : "seconds"}`;
}
