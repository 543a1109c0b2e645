// The time zone the portal's browser tests read the page in, and a time as the page says it there.

/**
 * Not UTC, nor (likely) the machine's: a page that said its times in UTC, or in the zone of the
 * machine that built it, reads wrong to this reader. Its summer time is an hour ahead of its winter.
 */
export const READER_ZONE = "Europe/Paris";

/** `2026-11-20 09:16 UTC+1`: a time as the page says it to a reader in `timeZone`. */
export function readerTime(ms: number, timeZone = READER_ZONE): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((found) => found.type === type)?.value ?? "";
  // `GMT+05:30`, `GMT-03:30`, `GMT+00:00` or `GMT`, as ICU writes the offset.
  const found = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(part("timeZoneName"));
  if (!found) throw new Error(`no offset in ${part("timeZoneName")}`);
  const [, sign, hours = "00", minutes = "00"] = found;
  const offset =
    hours === "00" && minutes === "00"
      ? ""
      : `${sign}${Number(hours)}${minutes === "00" ? "" : `:${minutes}`}`;
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")} UTC${offset}`;
}
