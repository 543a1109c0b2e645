// A feed that loses stations is news: `{"states":[]}` would leave every station disconnected. The
// refusal of a states file that leaves out too many of the stations reported before (serve's
// minute refresh and the cron refresh alike).

import { percent } from "../percent.js";
import { counted } from "../plural.js";

export const DEFAULT_MAX_MISSING_SHARE = 0.1;

/** Why the file is refused, or null when `missing` of the `had` stations reported before is allowed. */
export function tooManyMissing(missing: number, had: number, maxShare: number): string | null {
  if (had === 0 || missing / had <= maxShare) return null;
  return (
    `leaves out ${missing} of the ${counted(had, "station")} reported before (${percent(missing / had)}), ` +
    `more than --max-missing ${percent(maxShare)} allows: fix the feed, or raise --max-missing if stations really left`
  );
}
