// Rules on contracts: their names identify them in URLs and file paths.
import { excerpt } from "../../errors.js";
import { CONTRACT_NAME, type Contract } from "../../model/contract.js";
import { error, type Problem, type Sourced } from "../problems.js";

/** Clients send `Dublin` for `dublin`, so two names differing only by case would be one contract. */
export function contractNamesUnique(contracts: readonly Sourced<Contract>[]): Problem[] {
  const first = new Map<string, Sourced<Contract>>();
  const problems: Problem[] = [];
  for (const contract of contracts) {
    const key = contract.value.name.toLowerCase();
    const earlier = first.get(key);
    if (earlier) {
      const where = earlier.at.index === undefined ? "" : ` at [${earlier.at.index}]`;
      problems.push(
        error(
          contract.at,
          "name",
          `"${excerpt(contract.value.name)}" is already the name of contract "${excerpt(earlier.value.name)}"${where} (names are compared without case)`,
        ),
      );
    } else first.set(key, contract);
  }
  return problems;
}

/** The name becomes a folder and a URL segment (CONTRACT_NAME). */
export function contractNamesPathSafe(contracts: readonly Sourced<Contract>[]): Problem[] {
  return contracts
    .filter((contract) => !CONTRACT_NAME.test(contract.value.name))
    .map((contract) => {
      const { name } = contract.value;
      const fixed = name.trim().toLowerCase();
      let message = `"${excerpt(name)}" cannot be used in URLs: use 1 to 64 lower-case ASCII letters, digits, "-" or "_", starting with a letter (put the display name in commercial_name)`;
      // Spaces around it (unseen in an editor) and capitals: said, rather than the rules of a name.
      if (CONTRACT_NAME.test(fixed) && name.trim() !== name)
        message = `"${name}" has spaces around the name${fixed === name.trim() ? "" : " and capitals"}: write "${fixed}"`;
      else if (CONTRACT_NAME.test(fixed))
        message = `"${name}" has capitals: write it "${fixed}" (static hosts match paths case-sensitively; a client asking for "${name}" is still answered)`;
      return error(contract.at, "name", message);
    });
}
