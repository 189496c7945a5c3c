import { readFile } from "node:fs/promises";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { AppError } from "@mc/shared/errors";
import { checkCycloneDxComponents, checkSpdxPackages } from "../domain/sbom-check.js";

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const schemaDir = new URL("../../schemas/", import.meta.url);

async function loadJson(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(new URL(name, schemaDir), "utf8")) as Record<string, unknown>;
}

function firstError(errors: readonly ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return "does not match the schema";
  const where = e.instancePath === "" ? "the document" : e.instancePath;
  const extra = e.keyword === "additionalProperties" ? ` ('${String((e.params as { additionalProperty?: string }).additionalProperty)}')` : "";
  return `${where} ${e.message ?? "is invalid"}${extra}`;
}

export type SbomValidator = (kind: "cyclonedx" | "spdx", doc: unknown, file: string) => string[];

/**
 * Validates SBOMs against the vendored schemas (see schemas/README.md) and
 * then the project's own checks (component name, version and license).
 * Returns warnings; throws naming the file and the first schema error.
 */
export async function createSbomValidator(): Promise<SbomValidator> {
  // strict: false because the CycloneDX schema carries annotation keywords
  // (meta:enum) that strict mode refuses.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  // Formats CycloneDX uses that ajv-formats lacks: checked for shape only.
  ajv.addFormat("iri-reference", /^[^\s<>"{}|\\^`]*$/u);
  ajv.addFormat("idn-email", /^[^\s@]+@[^\s@]+$/u);
  ajv.addSchema(await loadJson("cyclonedx/spdx.schema.json"));
  ajv.addSchema(await loadJson("cyclonedx/jsf-0.82.schema.json"));
  const cyclonedx = ajv.compile(await loadJson("cyclonedx/bom-1.6.schema.json"));
  const spdx = new Map<string, ValidateFunction>([
    ["SPDX-2.2", ajv.compile(await loadJson("spdx/spdx-2.2.schema.json"))],
    ["SPDX-2.3", ajv.compile(await loadJson("spdx/spdx-2.3.schema.json"))],
  ]);
  return (kind, doc, file) => {
    if (kind === "cyclonedx") {
      const d = doc as { bomFormat?: unknown; specVersion?: unknown };
      if (d.bomFormat !== "CycloneDX" || d.specVersion !== "1.6") {
        throw new AppError("invalid_argument", `${file}: not a CycloneDX 1.6 document (bomFormat "CycloneDX", specVersion "1.6")`);
      }
      if (!cyclonedx(doc)) throw new AppError("invalid_argument", `${file}: CycloneDX 1.6 schema: ${firstError(cyclonedx.errors)}`);
      return checkCycloneDxComponents(doc, file);
    }
    const version = (doc as { spdxVersion?: unknown }).spdxVersion;
    const validate = typeof version === "string" ? spdx.get(version) : undefined;
    if (!validate) throw new AppError("invalid_argument", `${file}: spdxVersion must be "SPDX-2.2" or "SPDX-2.3"`);
    if (!validate(doc)) throw new AppError("invalid_argument", `${file}: ${String(version)} schema: ${firstError(validate.errors)}`);
    return checkSpdxPackages(doc, file);
  };
}
