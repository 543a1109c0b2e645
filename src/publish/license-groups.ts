// Which licence the network's data is under as a whole: the bundle's data package and the portal's
// download row say the same, from one grouping.

/** A licence as a contract states it (an SPDX id, a URL, or both). */
export interface StatedLicense {
  id?: string | null;
  url?: string | null;
}

export interface LicenseGroup<L> {
  /** Null for the contracts that state none. */
  license: L | null;
  contracts: string[];
}

/**
 * The contracts grouped by the licence they state (same id and URL), in the order first met. One
 * group: the whole is under that licence (or under none stated); more: licences differ by contract.
 */
export function licenseGroups<L extends StatedLicense>(
  contracts: readonly { name: string; license?: L | null }[],
): LicenseGroup<L>[] {
  const groups = new Map<string, LicenseGroup<L>>();
  for (const { name, license } of contracts) {
    const key = license ? `${license.id ?? ""} ${license.url ?? ""}` : "";
    const group = groups.get(key) ?? { license: license ?? null, contracts: [] };
    group.contracts.push(name);
    groups.set(key, group);
  }
  return [...groups.values()];
}
