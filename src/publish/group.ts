// Groups records by contract name once, keeping source order within each group.
import { groupBy } from "../group-by.js";

export function groupByContract<T extends { contract: string }>(
  records: readonly T[],
): Map<string, T[]> {
  return groupBy(records, (record) => record.contract);
}
