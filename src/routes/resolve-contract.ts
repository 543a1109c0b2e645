// The contract rules of a route: the contract in the URL found without regard to case, or the row's answer.

import { withFields } from "../with-fields.js";
import { NOT_FOUND } from "./outcomes.js";
import type { ContractFeature, Outcome } from "./route.js";
import { type Endpoint, routeOf } from "./routes.js";

/** What the rules need to know of a contract. */
export type ContractFacts = { readonly name: string } & {
  readonly [F in ContractFeature]: boolean;
};

export type Resolved = { endpoint: Endpoint } | { outcome: Outcome };

/**
 * Finds the contract as it is spelled in the release (clients send `Dublin` for `dublin`) and
 * applies the row's status rules; `contracts` is keyed by lower-case name.
 */
export function resolveContract(
  contracts: ReadonlyMap<string, ContractFacts>,
  endpoint: Endpoint,
): Resolved {
  if (!("contract" in endpoint)) return { endpoint };
  const route = routeOf(endpoint);
  const contract = contracts.get(endpoint.contract.toLowerCase());
  if (!contract) return { outcome: route.unknownContract ?? route.notFound ?? NOT_FOUND };
  const needs = route.contractNeeds;
  if (needs && !contract[needs.feature]) return { outcome: needs.outcome };
  return { endpoint: withFields(endpoint, { contract: contract.name }) };
}

/** The answer when the release holds no file for a matched endpoint. */
export const notFoundOf = (endpoint: Endpoint): Outcome => routeOf(endpoint).notFound ?? NOT_FOUND;
