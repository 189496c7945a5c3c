import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { AppError } from "@mc/shared/errors";
import { writeFileAtomic } from "@mc/shared/node";
import { documentName } from "../domain/catalog-entry.js";
import { checkName } from "../domain/names.js";
import { parseReleaseId } from "../domain/release-id.js";
import { generateSboms, parseGoModules } from "../domain/sbom-generate.js";
import { unassertedModules } from "../domain/sbom-licenses.js";

/** `releases sbom --help`: the one place the --licenses file is described (the README repeats it). */
export const sbomUsage = `Usage: releases sbom --from gomod.txt --licenses licenses.json --component C --release ID [--out DIR]

Writes sbom-<ID>.cyclonedx.json (CycloneDX 1.6) and sbom-<ID>.spdx.json
(SPDX 2.2) into DIR (default: the folder of --from), ready for publish.

  --from FILE      \`go list -m all\` output: the main module on line 1, then
                   "<path> <version>" per module ("... => <path> <version>" for
                   a replaced module)
  --licenses FILE  a JSON object from module path to license, one entry for the
                   main module and for every module of --from (for a replaced
                   module, the replacement's path):
                     {
                       "example.com/main": "Apache-2.0",
                       "github.com/a/lib": "MIT",
                       "github.com/b/dual": "MIT OR Apache-2.0",
                       "github.com/c/unknown": "NOASSERTION"
                     }
                   Each value is an SPDX license id (https://spdx.org/licenses/)
                   or an SPDX expression (AND, OR, WITH, parentheses);
                   anything else is refused, naming the module and the value.
                   NOASSERTION is written, with a warning: publish needs a
                   real license for every component.
  --component C    the program name (e.g. mc)
  --release ID     the release id, RELEASE.<yyyy-mm-ddThh-mm-ssZ>[.hotfix.<hex>]
  --out DIR        an existing, writable folder
`;

export interface SbomCommandOptions {
  readonly from: string;
  readonly licenses: string;
  readonly component: string;
  readonly releaseId: string;
  readonly outDir?: string;
  /** One line per warning (NOASSERTION licenses); ignored when absent. */
  readonly warn?: (line: string) => void;
}

const mapShape = "not a JSON object of module path -> SPDX license id (see releases sbom --help)";

async function readJsonMap(path: string): Promise<Record<string, string>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch {
    throw new AppError("invalid_argument", `${path}: ${mapShape}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== "string")) {
    throw new AppError("invalid_argument", `${path}: ${mapShape}`);
  }
  return value as Record<string, string>;
}

/** The ids the vendored CycloneDX schema accepts as `license.id` (see schemas/README.md). */
async function cyclonedxLicenseIds(): Promise<ReadonlySet<string>> {
  const schema = JSON.parse(await readFile(new URL("../../schemas/cyclonedx/spdx.schema.json", import.meta.url), "utf8")) as { enum?: unknown };
  return new Set(Array.isArray(schema.enum) ? schema.enum.filter((v): v is string => typeof v === "string") : []);
}

/** `releases sbom`: both SBOMs from a Go modules list and a license map. */
export async function runSbom(options: SbomCommandOptions): Promise<string[]> {
  parseReleaseId(options.releaseId);
  checkName("component", options.component);
  const goModules = await readFile(options.from, "utf8").catch(() => {
    throw new AppError("invalid_argument", `cannot read ${options.from}`);
  });
  const licenses = await readJsonMap(options.licenses);
  const sboms = generateSboms({
    component: options.component,
    releaseId: options.releaseId,
    goModules,
    licenses,
    now: new Date(),
    uuid: randomUUID(),
    tool: "releases-sbom-0.1.0",
    cyclonedxLicenseIds: await cyclonedxLicenseIds(),
  });
  const { main, modules } = parseGoModules(goModules);
  for (const m of unassertedModules(licenses, [main, ...modules.map((x) => x.path)])) {
    options.warn?.(`license of module '${m}' is NOASSERTION: publish refuses components without a license`);
  }
  const out = options.outDir ?? dirname(options.from);
  const written = [join(out, documentName("sbom_cyclonedx", options.releaseId)), join(out, documentName("sbom_spdx", options.releaseId))];
  await writeFileAtomic(written[0] ?? "", `${JSON.stringify(sboms.cyclonedx, null, 2)}\n`);
  await writeFileAtomic(written[1] ?? "", `${JSON.stringify(sboms.spdx, null, 2)}\n`);
  return written;
}
