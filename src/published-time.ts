// How a time is published in the answers: `lastUpdate`, GBFS's RFC 3339 times.

/** A time as `lastUpdate` is published: `YYYY-MM-DDTHH:MM:SSZ`, UTC, whole seconds. */
export const publishedTime = (at: Date): string => `${at.toISOString().slice(0, 19)}Z`;
