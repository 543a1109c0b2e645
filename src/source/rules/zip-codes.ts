// Postal codes short of their leading zeros: a spreadsheet reads a column of digits as numbers and
// exports "01000" (Bourg-en-Bresse) as 1000, which would be published as a code no place has.
import { groupBy } from "../../group-by.js";
import type { Contract } from "../../model/contract.js";
import { counted } from "../../plural.js";
import { type Problem, type Sourced, warning } from "../problems.js";
import { contractKey } from "./records.js";

type Coded = Sourced<{ contract: string; zipCode: string }>;

/**
 * The digits of a postal code where every code is that many digits (ISO 3166-1 alpha-2 codes):
 * the countries of the bike-sharing systems this API serves and their neighbours. A country not
 * named here is measured against its contract's other codes (see expectedDigits).
 */
const POSTAL_CODE_DIGITS: Readonly<Record<string, number>> = {
  AT: 4,
  AU: 4,
  BE: 4,
  CH: 4,
  DE: 5,
  DK: 4,
  ES: 5,
  FI: 5,
  FR: 5,
  HU: 4,
  IT: 5,
  LT: 5,
  LU: 4,
  MX: 5,
  NO: 4,
  SI: 4,
  US: 5,
};

const REGIONS = new Intl.DisplayNames(["en"], { type: "region" });

/**
 * One warning per contract whose records (parkings) have postal codes of digits only, shorter than
 * the codes of its country (or than most of its own, for a country not known here), at the first
 * of them, with how many there are.
 */
export function zipCodesWhole(
  contracts: readonly Sourced<Contract>[],
  records: readonly Coded[],
  kind = "parking",
): Problem[] {
  const countries = new Map(
    contracts.map(({ value }) => [contractKey(value.name), value.country_code]),
  );
  const byContract = groupBy(
    records.filter(({ value }) => /^\d+$/.test(value.zipCode)),
    ({ value }) => contractKey(value.contract),
  );
  const problems: Problem[] = [];
  for (const [key, coded] of byContract) {
    const country = countries.get(key);
    const digits = expectedDigits(country, coded);
    if (digits === undefined) continue;
    const short = coded.filter(({ value }) => value.zipCode.length < digits);
    const first = short[0];
    if (!first) continue;
    const { zipCode, contract } = first.value;
    const whose =
      country !== undefined && POSTAL_CODE_DIGITS[country] !== undefined
        ? `${REGIONS.of(country) ?? country}'s postal codes have`
        : `the other ${kind}s of contract "${contract}" have`;
    const others =
      short.length > 1 ? ` (${counted(short.length, kind)} of contract "${contract}" so)` : "";
    problems.push(
      warning(
        first.at,
        "zipCode",
        `"${zipCode}" has ${counted(zipCode.length, "digit")} where ${whose} ${digits}${others}: a leading zero lost, as a spreadsheet reading the column as numbers drops it? write it as text, "${zipCode.padStart(digits, "0")}"`,
      ),
    );
  }
  return problems;
}

/**
 * The digits every code of `country` has; else the length most of the contract's codes have, when
 * more than half of them, at least 3, have it (fewer may differ by chance).
 */
function expectedDigits(country: string | undefined, coded: readonly Coded[]): number | undefined {
  const known = country === undefined ? undefined : POSTAL_CODE_DIGITS[country];
  if (known !== undefined) return known;
  const lengths = groupBy(coded, ({ value }) => value.zipCode.length);
  for (const [length, having] of lengths)
    if (having.length >= 3 && having.length * 2 > coded.length) return length;
  return undefined;
}
