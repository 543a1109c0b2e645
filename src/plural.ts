// A count and its noun agreeing in number, for messages: counted(1, "station") → "1 station".
const rules = new Intl.PluralRules("en");

/** `count` and `noun`, in the plural (`plural`, default noun + "s") unless English says one. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${nounFor(count, noun, plural)}`;
}

/** The noun alone, for "3 of 1 file" shapes where the count is written apart. */
export function nounFor(count: number, noun: string, plural = `${noun}s`): string {
  return rules.select(count) === "one" ? noun : plural;
}
