// The files that point at others: gbfs.json (per version), gbfs_versions.json, and the network's manifest.
import type { Contract } from "../../../model/contract.js";
import {
  type Freshness,
  GBFS_VERSIONS,
  type GbfsFeedName,
  type GbfsFile,
  type GbfsUrls,
  type GbfsVersion,
  gbfsFile,
} from "./feed.js";
import { type GbfsSystem, systemIdOf } from "./system.js";

/** What a discovery file lists, in this order (the discovery file itself is not listed). */
export const LISTED_FEEDS: readonly GbfsFeedName[] = [
  "system_information",
  "gbfs_versions",
  "vehicle_types",
  "station_information",
  "station_status",
];

interface FeedLink {
  name: GbfsFeedName;
  url: string;
}

/** v2.3 keys the feeds by language, as the original operator's does (`{"fr": {"feeds": …}}`). */
export function renderDiscovery(
  system: GbfsSystem,
  version: GbfsVersion,
  freshness: Freshness,
  urls: GbfsUrls,
): GbfsFile<{ feeds: FeedLink[] } | Record<string, { feeds: FeedLink[] }>> {
  const name = system.contract.name;
  const feeds = LISTED_FEEDS.map((feed) => ({ name: feed, url: urls.feed(name, version, feed) }));
  // One feed set in v2.3: names are not translated, and its system_information has one language.
  const data = version === "2.3" ? { [system.languages[0]]: { feeds } } : { feeds };
  return gbfsFile(version, freshness, data);
}

interface VersionLink {
  version: GbfsVersion;
  url: string;
}

/** Sorted by increasing version, as the specification requires. */
const versionLinks = (contract: string, urls: GbfsUrls): VersionLink[] =>
  GBFS_VERSIONS.map((version) => ({ version, url: urls.feed(contract, version, "gbfs") }));

export function renderVersions(
  contract: Pick<Contract, "name">,
  version: GbfsVersion,
  freshness: Freshness,
  urls: GbfsUrls,
): GbfsFile<{ versions: VersionLink[] }> {
  return gbfsFile(version, freshness, { versions: versionLinks(contract.name, urls) });
}

/** v3.0 only: every contract's discovery files, so one URL finds the whole network. */
export function renderManifest(
  contracts: readonly Pick<Contract, "name">[],
  freshness: Freshness,
  urls: GbfsUrls,
): GbfsFile<{ datasets: { system_id: string; versions: VersionLink[] }[] }> {
  return gbfsFile("3.0", freshness, {
    datasets: contracts.map((contract) => ({
      system_id: systemIdOf(contract),
      versions: versionLinks(contract.name, urls),
    })),
  });
}
