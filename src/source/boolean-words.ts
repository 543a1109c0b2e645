// The words spreadsheets and databases write for true and false: a French Excel exports a ticked
// cell as VRAI, a German one as WAHR. Refused, as every value not true or false is, but said with
// the word to write, so that a city's export is fixed by one search and replace.

const SPREADSHEET = (language: string) => `a ${language} spreadsheet's word for`;
const WORDS: ReadonlyMap<string, { meant: boolean; whose: string }> = new Map([
  ["vrai", { meant: true, whose: SPREADSHEET("French") }],
  ["faux", { meant: false, whose: SPREADSHEET("French") }],
  ["wahr", { meant: true, whose: SPREADSHEET("German") }],
  ["falsch", { meant: false, whose: SPREADSHEET("German") }],
  ["verdadero", { meant: true, whose: SPREADSHEET("Spanish") }],
  ["vero", { meant: true, whose: SPREADSHEET("Italian") }],
  ["falso", { meant: false, whose: SPREADSHEET("Spanish or Italian") }],
  ["oui", { meant: true, whose: "French for" }],
  ["non", { meant: false, whose: "French for" }],
  ["ja", { meant: true, whose: "German for" }],
  ["nein", { meant: false, whose: "German for" }],
  ["yes", { meant: true, whose: "English for" }],
  ["no", { meant: false, whose: "English for" }],
  ["1", { meant: true, whose: "a database's way to write" }],
  ["0", { meant: false, whose: "a database's way to write" }],
]);

/** `a French spreadsheet's word for true; write true`, for a word that means one; else undefined. */
export function booleanWordHint(text: string): string | undefined {
  const word = WORDS.get(text.trim().toLowerCase());
  return word && `${word.whose} ${word.meant}; write ${word.meant}`;
}
