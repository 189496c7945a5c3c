import { createRequire } from "node:module";
import { AppError } from "@mc/shared/errors";

// spdx-expression-parse is CommonJS without types; it checks every id against
// spdx-license-ids and spdx-exceptions (the SPDX lists, pinned by the lockfile).
const parseExpression = createRequire(import.meta.url)("spdx-expression-parse") as (text: string) => unknown;

/** "The author makes no claim": allowed when writing, although publish counts it as no license (contract §7.2.1). */
export const noAssertion = "NOASSERTION";

/** True for an SPDX license id (`MIT`) or expression (`MIT OR Apache-2.0`, `GPL-2.0-only WITH Classpath-exception-2.0`). */
export function isSpdxLicense(value: string): boolean {
  try {
    parseExpression(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks every license of the map that the SBOMs will carry, naming the
 * module and the value, so `releases sbom` never writes a document that
 * publish later refuses with a schema path that names neither.
 */
export function checkLicenses(licenses: Readonly<Record<string, string>>, modules: readonly string[]): void {
  const bad = modules.filter((m) => {
    const value = licenses[m];
    return value !== undefined && value !== noAssertion && !isSpdxLicense(value);
  });
  if (bad.length === 0) return;
  const lines = bad.map((m) => `license '${licenses[m] ?? ""}' of module '${m}' is not an SPDX license id`);
  throw new AppError("invalid_argument", `${lines.join("; ")} (see https://spdx.org/licenses/; NOASSERTION when unknown)`);
}

/** Modules whose license is NOASSERTION: publish refuses them until a real license is given. */
export function unassertedModules(licenses: Readonly<Record<string, string>>, modules: readonly string[]): string[] {
  return modules.filter((m) => licenses[m] === noAssertion);
}
