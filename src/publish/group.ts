// Groups records by contract name once, keeping source order within each group.

export function groupByContract<T extends { contract: string }>(
  records: readonly T[],
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const record of records) {
    const group = groups.get(record.contract);
    if (group) group.push(record);
    else groups.set(record.contract, [record]);
  }
  return groups;
}
