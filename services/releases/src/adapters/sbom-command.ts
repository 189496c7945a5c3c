import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { AppError, writeFileAtomic } from "@mc/shared";
import { documentName } from "../domain/catalog-entry.js";
import { parseReleaseId } from "../domain/release-id.js";
import { generateSboms } from "../domain/sbom-generate.js";

export interface SbomCommandOptions {
  readonly from: string;
  readonly licenses: string;
  readonly component: string;
  readonly releaseId: string;
  readonly outDir?: string;
}

async function readJsonMap(path: string): Promise<Record<string, string>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch {
    throw new AppError("invalid_argument", `${path}: not a JSON object of module path -> SPDX license id`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== "string")) {
    throw new AppError("invalid_argument", `${path}: not a JSON object of module path -> SPDX license id`);
  }
  return value as Record<string, string>;
}

/** `releases sbom`: both SBOMs from a Go modules list and a license map. */
export async function runSbom(options: SbomCommandOptions): Promise<string[]> {
  parseReleaseId(options.releaseId);
  const goModules = await readFile(options.from, "utf8").catch(() => {
    throw new AppError("invalid_argument", `cannot read ${options.from}`);
  });
  const sboms = generateSboms({
    component: options.component,
    releaseId: options.releaseId,
    goModules,
    licenses: await readJsonMap(options.licenses),
    now: new Date(),
    uuid: randomUUID(),
    tool: "releases-sbom-0.1.0",
  });
  const out = options.outDir ?? dirname(options.from);
  const written = [join(out, documentName("sbom_cyclonedx", options.releaseId)), join(out, documentName("sbom_spdx", options.releaseId))];
  await writeFileAtomic(written[0] ?? "", `${JSON.stringify(sboms.cyclonedx, null, 2)}\n`);
  await writeFileAtomic(written[1] ?? "", `${JSON.stringify(sboms.spdx, null, 2)}\n`);
  return written;
}
