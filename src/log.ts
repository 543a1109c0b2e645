// A line for operators, and how much it matters: what the server's log and the journal's priorities share.

/** How much a line matters to an operator: a failure, something to look at, or a record. */
export type Severity = "error" | "warning" | "info";

/** A server's line; `info` unless said. */
export type Log = (line: string, severity?: Severity) => void;
