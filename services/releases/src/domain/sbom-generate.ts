import { AppError } from "@mc/shared/errors";
import { checkGoModules } from "./go-modules.js";
import { checkLicenses, noAssertion } from "./sbom-licenses.js";

export interface GoModule {
  readonly path: string;
  readonly version: string;
}

export interface SbomInput {
  readonly component: string;
  readonly releaseId: string;
  /** `go list -m all` text. */
  readonly goModules: string;
  /** Module path -> SPDX license id or expression. */
  readonly licenses: Readonly<Record<string, string>>;
  readonly now: Date;
  /** A random UUID v4, for the serial number and the SPDX namespace. */
  readonly uuid: string;
  readonly tool: string;
  /**
   * The ids the vendored CycloneDX schema enumerates for `license.id`. The
   * SPDX list moves faster than the schema: a newer id is written as a
   * one-id `expression`, which the schema leaves free. Absent: every id is
   * written as `license.id`.
   */
  readonly cyclonedxLicenseIds?: ReadonlySet<string>;
}

export interface Sboms {
  readonly cyclonedx: object;
  readonly spdx: object;
}

/** The dependency modules of a `go list -m all` text (the main module excluded). */
export function parseGoModules(text: string): { main: string; modules: GoModule[] } {
  checkGoModules(text);
  const [main = "", ...rest] = text.trimEnd().split("\n");
  // A replaced module ships the replacement's code: describe that one.
  const modules = rest.map((line) => {
    const [path = "", version = "", , target, targetVersion] = line.split(" ");
    return target !== undefined && targetVersion !== undefined ? { path: target, version: targetVersion } : { path, version };
  });
  return { main, modules };
}

const spdxRef = (s: string): string => `SPDXRef-${s.replace(/[^A-Za-z0-9.-]/g, "-")}`;
const purl = (m: GoModule): string => `pkg:golang/${m.path}@${m.version}`;
/** A CycloneDX license entry: an id the schema knows, a named NOASSERTION, or an expression. */
function licenseChoice(license: string, ids: ReadonlySet<string> | undefined): object {
  if (license === noAssertion) return { license: { name: noAssertion } };
  const single = ids ? ids.has(license) : !/[ ()]/.test(license);
  return single ? { license: { id: license } } : { expression: license };
}
const isoSeconds = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * CycloneDX 1.6 and SPDX 2.2 documents for a Go build, so a release engineer
 * without SBOM tooling can publish. Every module needs a license in the map.
 */
export function generateSboms(input: SbomInput): Sboms {
  const { main, modules } = parseGoModules(input.goModules);
  const mainLicense = input.licenses[main];
  if (!mainLicense) throw new AppError("invalid_argument", `no license given for the main module ${main}`);
  const unlicensed = modules.filter((m) => !input.licenses[m.path]);
  if (unlicensed.length > 0) {
    throw new AppError("invalid_argument", `no license given for: ${unlicensed.map((m) => m.path).join(", ")}`);
  }
  checkLicenses(input.licenses, [main, ...modules.map((m) => m.path)]);
  const ids = input.cyclonedxLicenseIds;
  const created = isoSeconds(input.now);
  const rootRef = `${input.component}@${input.releaseId}`;
  const cyclonedx = {
    bomFormat: "CycloneDX",
    specVersion: "1.6",
    serialNumber: `urn:uuid:${input.uuid}`,
    version: 1,
    metadata: {
      timestamp: created,
      tools: { components: [{ type: "application", name: input.tool }] },
      component: {
        type: "application",
        "bom-ref": rootRef,
        name: input.component,
        version: input.releaseId,
        purl: `pkg:golang/${main}@${input.releaseId}`,
        licenses: [licenseChoice(mainLicense, ids)],
      },
    },
    components: modules.map((m) => ({
      type: "library",
      "bom-ref": purl(m),
      name: m.path,
      version: m.version,
      purl: purl(m),
      licenses: [licenseChoice(input.licenses[m.path] ?? "", ids)],
    })),
    dependencies: [{ ref: rootRef, dependsOn: modules.map(purl) }, ...modules.map((m) => ({ ref: purl(m), dependsOn: [] }))],
  };
  const rootId = spdxRef(input.component);
  const spdx = {
    spdxVersion: "SPDX-2.2",
    dataLicense: "CC0-1.0",
    SPDXID: "SPDXRef-DOCUMENT",
    name: `${input.component}-${input.releaseId}`,
    documentNamespace: `https://spdx.org/spdxdocs/${input.component}-${input.releaseId}-${input.uuid}`,
    creationInfo: { created, creators: [`Tool: ${input.tool}`] },
    packages: [
      { SPDXID: rootId, name: input.component, versionInfo: input.releaseId, downloadLocation: "NOASSERTION", filesAnalyzed: false, licenseConcluded: mainLicense, licenseDeclared: mainLicense, copyrightText: "NOASSERTION" },
      ...modules.map((m) => ({
        SPDXID: spdxRef(`${m.path}-${m.version}`),
        name: m.path,
        versionInfo: m.version,
        downloadLocation: `https://proxy.golang.org/${m.path}/@v/${m.version}.zip`,
        filesAnalyzed: false,
        licenseConcluded: input.licenses[m.path] ?? "NOASSERTION",
        licenseDeclared: input.licenses[m.path] ?? "NOASSERTION",
        copyrightText: "NOASSERTION",
        externalRefs: [{ referenceCategory: "PACKAGE_MANAGER", referenceType: "purl", referenceLocator: purl(m) }],
      })),
    ],
    relationships: [
      { spdxElementId: "SPDXRef-DOCUMENT", relationshipType: "DESCRIBES", relatedSpdxElement: rootId },
      ...modules.map((m) => ({ spdxElementId: rootId, relationshipType: "DEPENDS_ON", relatedSpdxElement: spdxRef(`${m.path}-${m.version}`) })),
    ],
  };
  return { cyclonedx, spdx };
}
