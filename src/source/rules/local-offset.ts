// The UTC offset a time zone has at a local date and time, for saying how a feed's local time
// without an offset is written with one.

/** The zone's offset in minutes at the instant given, from what Intl names it (`GMT+01:00`). */
function offsetMinutesAt(zone: string, utcMs: number): number {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(new Date(utcMs))
    .find((part) => part.type === "timeZoneName")?.value;
  const parts = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name ?? "");
  if (!parts) return 0; // "GMT": UTC itself
  const [, sign, hours, minutes] = parts;
  return (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/**
 * The offset (`+01:00`) of `zone` at the local date and time `local` (`2025-02-08T16:44:06`), or
 * undefined when the zone is not one Intl knows (a contract's own error, said by its rule). The
 * zone's offset at the local time read as UTC is off by that offset; its offset then is the one
 * the local time has, but at the hour a change of offset skips or repeats.
 */
export function localOffset(zone: string, local: string): string | undefined {
  const asUtc = Date.parse(`${local}Z`);
  if (Number.isNaN(asUtc)) return undefined;
  let minutes: number;
  try {
    minutes = offsetMinutesAt(zone, asUtc - offsetMinutesAt(zone, asUtc) * 60_000);
  } catch {
    return undefined;
  }
  const whole = Math.abs(minutes);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${minutes < 0 ? "-" : "+"}${two(Math.floor(whole / 60))}:${two(whole % 60)}`;
}
