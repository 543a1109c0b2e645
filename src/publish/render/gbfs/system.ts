// A contract seen as a GBFS system: the fields the rules guarantee, typed as present.
import type { Contract } from "../../../model/contract.js";

export interface GbfsSystem {
  contract: Contract;
  systemId: string;
  /** Main language first: v2.3 has one language per feed set and uses this one. */
  languages: readonly [string, ...string[]];
  timezone: string;
  feedContactEmail: string;
  openingHours: string;
}

/**
 * The rule `gbfsFieldsPresent` guarantees these fields on a Dataset's contracts; a contract without
 * them here is a bug (a Dataset built around the rules), not a user error.
 */
export function gbfsSystem(contract: Contract): GbfsSystem {
  const { languages, timezone, feed_contact_email, opening_hours } = contract;
  const [main, ...others] = languages ?? [];
  if (main === undefined || !timezone || !feed_contact_email || !opening_hours) {
    throw new Error(
      `contract "${contract.name}" lacks a GBFS field that gbfsFieldsPresent requires`,
    );
  }
  return {
    contract,
    systemId: systemIdOf(contract),
    languages: [main, ...others],
    timezone,
    feedContactEmail: feed_contact_email,
    openingHours: opening_hours,
  };
}

/**
 * The operator's `gbfs_system_id` (GBFS asks a globally unique one, checked against MobilityData's
 * list of systems), else the lower-case name: stable across builds and unique in a deployment,
 * since contract names are unique without regard to case and never change.
 */
export const systemIdOf = (contract: Pick<Contract, "name" | "gbfs_system_id">): string =>
  contract.gbfs_system_id ?? contract.name.toLowerCase();
