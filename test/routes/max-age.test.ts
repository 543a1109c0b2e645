// How long each route's answers may be kept: every GBFS feed as its station_status, the rest as their freshness says.
import { describe, expect, it } from "vitest";
import { keptAs } from "../../src/routes/max-age.js";
import { ROUTE_LIST, ROUTES } from "../../src/routes/routes.js";

describe("keptAs", () => {
  it("keeps every GBFS file until the next refresh, those of the static source too", () => {
    const gbfs = ROUTE_LIST.filter((route) => route.tag === "gbfs");
    expect(gbfs.filter((route) => route.freshness === "static")).toHaveLength(7);
    for (const route of gbfs) expect(keptAs(route), route.name).toBe("dynamic");
  });

  it("keeps every other answer as its freshness says: the API's static answers an hour", () => {
    for (const route of ROUTE_LIST.filter((each) => each.tag !== "gbfs"))
      expect(keptAs(route), route.name).toBe(route.freshness);
    expect(keptAs(ROUTES.contracts)).toBe("static");
    expect(keptAs(ROUTES.station)).toBe("dynamic");
  });
});
