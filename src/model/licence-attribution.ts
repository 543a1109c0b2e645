// Whether a contract's licence asks reusers to credit the licensor (CC BY, ODbL, Licence Ouverte…):
// the GBFS feeds then name whom (attribution_organization_name), as the bundle's sources do.

// Public domain dedications: nobody to name. Any other licence, a custom one (a URL) too, may ask.
const NO_ATTRIBUTION = new Set(["CC0-1.0", "PDDL-1.0", "Unlicense", "0BSD"]);

export const asksAttribution = (license: { id?: string }): boolean =>
  license.id === undefined || !NO_ATTRIBUTION.has(license.id);
