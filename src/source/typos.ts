// How far a name written is from a name meant: for "misspelt?" hints on columns and fields.

/** Letters added, left out, changed or two swapped between `a` and `b` (at most 3 counted). */
export function typosApart(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  // Optimal string alignment: rows of the distance table, two back for a swap.
  let before: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (last[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (last[j - 1] as number) + change,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] as number) + 1);
      row.push(best);
    }
    before = last;
    last = row;
  }
  return Math.min(last[b.length] as number, 3);
}
