// What every GBFS file shares: versions, feed names, the URL function the route table supplies, the header.
import { publishedTime } from "../../../published-time.js";

export const GBFS_VERSIONS = ["2.3", "3.0"] as const;
export type GbfsVersion = (typeof GBFS_VERSIONS)[number];

/** The files of one system, named as GBFS names them in discovery files. */
export type GbfsFeedName =
  | "gbfs"
  | "gbfs_versions"
  | "system_information"
  | "vehicle_types"
  | "station_information"
  | "station_status";

/**
 * Absolute URLs, built by the route table only: the renderers never assemble a URL.
 * `feed(contract, version, "gbfs")` is the discovery file of that version.
 */
export interface GbfsUrls {
  feed(contract: string, version: GbfsVersion, feed: GbfsFeedName): string;
  manifest(): string;
}

/** When a feed's data was last known to be true, and how long a consumer may keep it. */
export interface Freshness {
  lastUpdated: Date;
  /** Seconds. */
  ttl: number;
}

export interface GbfsFile<Data> {
  /** POSIX seconds in v2.3, RFC 3339 in v3.0. */
  last_updated: number | string;
  ttl: number;
  version: GbfsVersion;
  data: Data;
}

/** The common header, in the order the specification lists it. */
export function gbfsFile<Data>(
  version: GbfsVersion,
  { lastUpdated, ttl }: Freshness,
  data: Data,
): GbfsFile<Data> {
  return { last_updated: timestamp(version, lastUpdated), ttl, version, data };
}

/** A GBFS Timestamp: POSIX seconds up to v2.3, RFC 3339 (UTC, whole seconds) from v3.0. */
export function timestamp(version: GbfsVersion, date: Date): number | string {
  return version === "2.3" ? Math.floor(date.getTime() / 1000) : publishedTime(date);
}

export interface LocalizedString {
  text: string;
  language: string;
}

/** v3.0 Localized String: the same text in every language of the system (names are not translated). */
export const localized = (text: string, languages: readonly string[]): LocalizedString[] =>
  languages.map((language) => ({ text, language }));
