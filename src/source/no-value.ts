// What a database or a spreadsheet writes for no value, where a number, a boolean or a time is
// expected (a text field may hold any word).
const NO_VALUE = /^(?:null|nil|none|n\/a|#n\/a|na|nan|undefined|-|\u2014)$/i;

export const isNoValue = (text: string): boolean => NO_VALUE.test(text.trim());
