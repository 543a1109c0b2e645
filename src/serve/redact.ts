// Keeps API keys out of logs: every line that may carry a URL goes through here.

const API_KEY = /([?&]apikey=)[^&#\s]*/gi;

export const redact = (text: string): string => text.replace(API_KEY, "$1<redacted>");
