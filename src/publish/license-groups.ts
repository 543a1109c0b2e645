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
 * The contracts grouped by the licence they state, in the order first met: by its SPDX id where
 * one is given (`ODbL-1.0` with its URL and without is one licence, the URL kept from whichever
 * contract states it), else by its URL. One group: the whole is under that licence (or under none
 * stated); more: licences differ by contract.
 */
export function licenseGroups<L extends StatedLicense>(
  contracts: readonly { name: string; license?: L | null }[],
): LicenseGroup<L>[] {
  const groups = new Map<string, LicenseGroup<L>>();
  for (const { name, license } of contracts) {
    const key = license?.id ? `id ${license.id}` : license?.url ? `url ${license.url}` : "";
    const group = groups.get(key) ?? { license: license ?? null, contracts: [] };
    if (group.license && !group.license.url && license?.url)
      group.license = { ...group.license, url: license.url };
    group.contracts.push(name);
    groups.set(key, group);
  }
  return [...groups.values()];
}
