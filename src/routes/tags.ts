// The groups of the route table, one per surface, and what each holds: the OpenAPI document's tags,
// which documentation pages and generated clients show as sections, in this order: the data's
// surfaces first, the pages for people last.

export const TAG_DESCRIPTIONS = {
  v3: "The original service's API v3: contracts and stations, each with its live state (main and overflow stands, mechanical and electrical bikes), field for field as the original answers.",
  v1: "The original service's legacy API v1, for older clients: the same stations in v1's fields (`available_bikes`, `last_update` in milliseconds).",
  parking: "The parking API v1: the bike parkings of the contracts that offer it.",
  gbfs: "GBFS v3.0 and v2.3 feeds of each contract, for trip planners and other GBFS consumers, and the manifest of every contract's discovery file. No key.",
  downloads:
    "Static downloads: each contract's stations as JSON and CSV, as the original service offered them, and the whole network's bundle (JSON and CSV in a zip, with a Frictionless data package).",
  meta: "This API itself: its OpenAPI document, and the server's status (the feed's health) for operators.",
  portal:
    "The portal's web pages, for people: the network's page and this API's reference (Swagger UI), with their scripts and styles. Not data.",
} as const;

export type Tag = keyof typeof TAG_DESCRIPTIONS;
