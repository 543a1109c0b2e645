// A contract: the service area of one agglomeration, as maintainers write it in contracts.json.
import { z } from "zod";

const Operator = z.strictObject({
  name: z.string().min(1),
  url: z.url().optional(),
  email: z.email().optional(),
  phone: z.string().optional(),
});

const License = z.strictObject({
  id: z.string().min(1).optional().describe("SPDX identifier, e.g. ODbL-1.0"),
  url: z.url().optional(),
});

export const Contract = z.strictObject({
  name: z.string().min(1).describe("Identifier of the contract, used in URLs"),
  commercial_name: z.string().min(1),
  country_code: z
    .string()
    .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code in capitals, e.g. FR"),
  cities: z.array(z.string().min(1)),
  parkingApi: z.boolean().default(false).describe("Whether the contract offers the parking API"),
  // For GBFS system_information; optional until those feeds are published.
  timezone: z.string().optional().describe("IANA time zone, e.g. Europe/Paris"),
  languages: z.array(z.string().min(2)).optional().describe("IETF BCP 47 tags, e.g. fr"),
  operator: Operator.optional(),
  license: License.optional(),
});
export type Contract = z.infer<typeof Contract>;

export const ContractsFile = z.strictObject({ contracts: z.array(z.unknown()) });
