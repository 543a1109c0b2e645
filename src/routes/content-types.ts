// The content types of the answers, as the real service sends them.

// JSON is UTF-8 by definition and takes no charset parameter.
export const JSON_TYPE = "application/json";
export const CSV_TYPE = "text/csv; charset=utf-8";
export const ZIP_TYPE = "application/zip";
export const HTML_TYPE = "text/html; charset=utf-8";
export const SCRIPT_TYPE = "text/javascript; charset=utf-8";
export const STYLE_TYPE = "text/css; charset=utf-8";
export const TEXT_TYPE = "text/plain; charset=utf-8";
