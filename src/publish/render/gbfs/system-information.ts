// system_information: the contract as a GBFS system (names, operator, contact, time zone, licence).
import { asksAttribution } from "../../../model/licence-attribution.js";
import {
  type Freshness,
  type GbfsFile,
  type GbfsUrls,
  type GbfsVersion,
  gbfsFile,
  type LocalizedString,
  localized,
} from "./feed.js";
import type { GbfsSystem } from "./system.js";

export type SystemInformation = Record<string, string | string[] | LocalizedString[]>;

export function renderSystemInformation(
  system: GbfsSystem,
  version: GbfsVersion,
  freshness: Freshness,
  urls: GbfsUrls,
): GbfsFile<SystemInformation> {
  return gbfsFile(
    version,
    freshness,
    version === "2.3" ? systemInformationV2(system) : systemInformationV3(system, urls),
  );
}

function systemInformationV3(system: GbfsSystem, urls: GbfsUrls): SystemInformation {
  const { contract, languages } = system;
  const { operator, license } = contract;
  return {
    system_id: system.systemId,
    languages: [...languages],
    name: localized(contract.commercial_name, languages),
    opening_hours: system.openingHours,
    ...(operator ? { operator: localized(operator.name, languages) } : {}),
    ...(operator?.url ? { url: operator.url } : {}),
    ...(operator?.phone ? { phone_number: operator.phone } : {}),
    ...(operator?.email ? { email: operator.email } : {}),
    feed_contact_email: system.feedContactEmail,
    // Required when a publisher has several systems, which a velodata deployment has.
    manifest_url: urls.manifest(),
    timezone: system.timezone,
    // The specification: "Do not specify a license_url if license_id is specified".
    ...(license?.id
      ? { license_id: license.id }
      : license?.url
        ? { license_url: license.url }
        : {}),
    // Whom a licence asking for attribution (CC BY, ODbL, Licence Ouverte…) names: the operator
    // the data comes from, as the bundle's data package names it among its sources.
    ...(operator && license && asksAttribution(license)
      ? {
          attribution_organization_name: localized(operator.name, languages),
          ...(operator.url ? { attribution_url: operator.url } : {}),
        }
      : {}),
  };
}

function systemInformationV2(system: GbfsSystem): SystemInformation {
  const { contract } = system;
  const { operator, license } = contract;
  // v2.3 has only license_url: an SPDX id has a canonical page.
  const licenseUrl =
    license?.url ?? (license?.id ? `https://spdx.org/licenses/${license.id}.html` : undefined);
  return {
    system_id: system.systemId,
    language: system.languages[0],
    name: contract.commercial_name,
    ...(operator ? { operator: operator.name } : {}),
    ...(operator?.url ? { url: operator.url } : {}),
    ...(operator?.phone ? { phone_number: operator.phone } : {}),
    ...(operator?.email ? { email: operator.email } : {}),
    feed_contact_email: system.feedContactEmail,
    timezone: system.timezone,
    ...(licenseUrl ? { license_url: licenseUrl } : {}),
  };
}
