// A contract its schema refuses is left out of the rules: a mistake in one field (`"fr"` for FR)
// would hide the record's others until that one is fixed, and validate would take one run a
// mistake. The rules of a contract's own fields are run on those of its fields that pass their own
// schema, so that one run says every mistake of the record.
import { Contract } from "../../model/contract.js";
import type { RejectedRecord } from "../parse-records.js";
import type { Problem, Sourced } from "../problems.js";
import { gbfsFieldsPresent, licenseIdsKnown, openingHoursValid, timezonesKnown } from "./gbfs.js";

/** The rules that read one contract's own fields, none of its other records'. */
const OWN_FIELD_RULES = [gbfsFieldsPresent, timezonesKnown, openingHoursValid, licenseIdsKnown];

export function rejectedContractsChecked(rejected: readonly RejectedRecord[]): Problem[] {
  return rejected.flatMap(({ raw, at, failedFields }) => {
    if (failedFields === null || typeof raw !== "object" || raw === null) return [];
    const passed: Record<string, unknown> = {};
    for (const [field, schema] of Object.entries(Contract.shape)) {
      if (failedFields.has(field)) continue;
      const read = schema.safeParse((raw as Record<string, unknown>)[field]);
      if (read.success && read.data !== undefined) passed[field] = read.data;
    }
    // Only the fields that passed are there: a field its schema refused is said already, and
    // would be said missing again (gbfsFieldsPresent).
    const contract: Sourced<Contract> = { value: passed as Contract, at };
    return OWN_FIELD_RULES.flatMap((rule) => rule([contract])).filter(
      ({ field }) => !failedFields.has(field?.split(".")[0] ?? ""),
    );
  });
}
