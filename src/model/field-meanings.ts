// What the published fields mean, said once for the OpenAPI document's schemas and the static
// bundle's Table Schemas (datapackage.json): a consumer reads the same meaning in both.

/** Coordinates, of a station or a parking (v3 `position`, v1 `lat`/`lng`, the bundle's columns). */
export const POSITION = {
  latitude: "WGS84 latitude, in decimal degrees (-90 to 90).",
  longitude: "WGS84 longitude, in decimal degrees (-180 to 180).",
} as const;

/** A station's fields, in every form the API and the downloads publish. */
export const STATION = {
  number:
    "Station number. Unique only within its contract: a station is identified by its contract and its number.",
  contract: "Name of the contract the station belongs to: that contract's `name`.",
  name: "Station name, as the operator gives it.",
  address:
    "Indicative address, raw from the operator: it may be a comment rather than an address. The empty string when there is none, never null.",
  banking: "true when a payment terminal is present at the station.",
  bonus:
    "true when the operator classes the station as a bonus station. What that earns a rider is the operator's rule: this data does not carry it.",
  overflow: "true when the station accepts overflow bike returns, as the operator states it.",
  status:
    "`OPEN` or `CLOSED`. A station that never reported a state is published `CLOSED`, with no bikes and no free stands.",
} as const;

/** A contract's fields, in v3, v1 and the bundle. */
export const CONTRACT = {
  name: "Identifier of the contract, as the API's URLs and `?contract=` take it (matched there without regard to case): lower-case ASCII letters, digits, `-` and `_`.",
  commercial_name:
    "Commercial name of the bike-sharing service, as riders know it (e.g. `Vélo'v`).",
  country_code: "Country of the contract: its ISO 3166-1 alpha-2 code, in capitals (e.g. `FR`).",
  cities: "Cities the contract serves; the list may be empty.",
} as const;

/** A bike parking's fields, in the parking API and the bundle. All are static. */
export const PARKING = {
  contract:
    "Name of the contract the parking belongs to: that contract's `name`. Only a contract that offers the parking API has parkings.",
  name: "Parking name, as the operator gives it.",
  number:
    "Parking number. Unique only within its contract: a parking is identified by its contract and its number.",
  status:
    "`OPEN` or `CLOSED`, as the operator states it. Static data: it changes when the source data is rebuilt, not every minute.",
  accessType: "`FREE_ACCESS`: free access; `SECURED`: secured access.",
  lockerType: "Kind of parking: `SINGLE` (a single parking) or `COLLECTIVE` (a collective one).",
  hasSurveillance: "true when the parking is supervised.",
  isFree: "true when parking a bike there is free of charge.",
  address: "Indicative address. The empty string when there is none, never null.",
  zipCode:
    "Postal code, as text: leading zeros kept (`01000`). The empty string when there is none, never null.",
  city: "City of the parking. The empty string when there is none, never null.",
  isOffStreet:
    "true when the parking is in a structure (off street); false when it is on the street.",
  hasElectricSupport:
    "true when the parking has a charging system for electrically assisted bikes.",
  hasPhysicalReception: "true when the parking has a customer reception service.",
} as const;
