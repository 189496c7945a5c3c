// The four documents of an mc release (contracts/releases.md §3, §7): both
// SBOMs and the module list describe exactly the packages of the bundle
// inside the executable (bundle-packages.ts), plus the Node.js runtime the
// executable is made of; the notes say what was built and from what.
import { createHash } from "node:crypto";
import type { BundledPackage } from "./bundle-packages.js";

export interface ReleaseFacts {
  readonly releaseId: string;
  /** The main package (@mc/cli): the executable's own name, version and license. */
  readonly main: BundledPackage;
  /** Every other bundled package. */
  readonly packages: readonly BundledPackage[];
  readonly node: { readonly version: string; readonly license: string };
  readonly now: Date;
  readonly uuid: string;
  /** License ids the CycloneDX schema enumerates (others are written as expressions). */
  readonly cyclonedxLicenseIds: ReadonlySet<string>;
  readonly tool: string;
}

const isoSeconds = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** `pkg:npm/%40scope/name@1.2.3` (purl-spec: the scope's @ is encoded). */
export const npmPurl = (p: { name: string; version: string }): string => `pkg:npm/${p.name.replace(/^@/, "%40")}@${p.version}`;
const nodePurl = (version: string): string => `pkg:generic/nodejs@${version}`;
const spdxRef = (s: string): string => `SPDXRef-${s.replace(/[^A-Za-z0-9.-]/g, "-")}`;

function cyclonedxLicense(license: string, ids: ReadonlySet<string>): object[] {
  return [ids.has(license) ? { license: { id: license } } : { expression: license }];
}

/** npm's `sha512-<base64>` integrity as a hex digest, for SBOM hashes. */
function sha512Hex(integrity: string | undefined): string | undefined {
  const m = /^sha512-([A-Za-z0-9+/=]+)$/.exec(integrity ?? "");
  return m?.[1] ? Buffer.from(m[1], "base64").toString("hex") : undefined;
}

export function cyclonedxDocument(f: ReleaseFacts): object {
  const rootRef = `mc@${f.releaseId}`;
  const nodeRef = nodePurl(f.node.version);
  const refOf = new Map([[f.main.dir, rootRef], ...f.packages.map((p): [string, string] => [p.dir, `${npmPurl(p)}#${p.dir}`])]);
  const component = (p: BundledPackage): object => {
    const hash = sha512Hex(p.integrity);
    return {
      type: "library",
      "bom-ref": refOf.get(p.dir),
      name: p.name,
      version: p.version,
      purl: npmPurl(p),
      licenses: cyclonedxLicense(p.license, f.cyclonedxLicenseIds),
      ...(hash ? { hashes: [{ alg: "SHA-512", content: hash }] } : {}),
      ...(p.resolved ? { externalReferences: [{ type: "distribution", url: p.resolved }] } : {}),
    };
  };
  return {
    bomFormat: "CycloneDX",
    specVersion: "1.6",
    serialNumber: `urn:uuid:${f.uuid}`,
    version: 1,
    metadata: {
      timestamp: isoSeconds(f.now),
      tools: { components: [{ type: "application", name: f.tool }] },
      component: { type: "application", "bom-ref": rootRef, name: "mc", version: f.releaseId, licenses: cyclonedxLicense(f.main.license, f.cyclonedxLicenseIds) },
    },
    components: [
      { type: "platform", "bom-ref": nodeRef, name: "nodejs", version: f.node.version, purl: nodeRef, licenses: cyclonedxLicense(f.node.license, f.cyclonedxLicenseIds) },
      ...f.packages.map(component),
    ],
    dependencies: [
      { ref: rootRef, dependsOn: [nodeRef, ...f.main.dependsOn.flatMap((d) => refOf.get(d) ?? [])] },
      { ref: nodeRef, dependsOn: [] },
      ...f.packages.map((p) => ({ ref: refOf.get(p.dir), dependsOn: p.dependsOn.flatMap((d) => refOf.get(d) ?? []) })),
    ],
  };
}

export function spdxDocument(f: ReleaseFacts): object {
  const refOf = new Map([[f.main.dir, spdxRef("mc")], ...f.packages.map((p): [string, string] => [p.dir, spdxRef(`npm-${p.dir}`)])]);
  const nodeRef = spdxRef("nodejs");
  const pkg = (p: BundledPackage): object => {
    const hash = sha512Hex(p.integrity);
    return {
      SPDXID: refOf.get(p.dir),
      name: p.name,
      versionInfo: p.version,
      downloadLocation: p.resolved ?? "NOASSERTION",
      filesAnalyzed: false,
      licenseConcluded: p.license,
      licenseDeclared: p.license,
      copyrightText: "NOASSERTION",
      externalRefs: [{ referenceCategory: "PACKAGE-MANAGER", referenceType: "purl", referenceLocator: npmPurl(p) }],
      ...(hash ? { checksums: [{ algorithm: "SHA512", checksumValue: hash }] } : {}),
    };
  };
  const main = f.main;
  return {
    spdxVersion: "SPDX-2.3",
    dataLicense: "CC0-1.0",
    SPDXID: "SPDXRef-DOCUMENT",
    name: `mc-${f.releaseId}`,
    documentNamespace: `https://spdx.org/spdxdocs/mc-${f.releaseId}-${f.uuid}`,
    creationInfo: { created: isoSeconds(f.now), creators: [`Tool: ${f.tool}`] },
    packages: [
      { SPDXID: spdxRef("mc"), name: "mc", versionInfo: f.releaseId, downloadLocation: "NOASSERTION", filesAnalyzed: false, licenseConcluded: main.license, licenseDeclared: main.license, copyrightText: "NOASSERTION", primaryPackagePurpose: "APPLICATION" },
      { SPDXID: nodeRef, name: "nodejs", versionInfo: f.node.version, downloadLocation: "NOASSERTION", filesAnalyzed: false, licenseConcluded: f.node.license, licenseDeclared: f.node.license, copyrightText: "NOASSERTION", primaryPackagePurpose: "FRAMEWORK" },
      ...f.packages.map(pkg),
    ],
    relationships: [
      { spdxElementId: "SPDXRef-DOCUMENT", relationshipType: "DESCRIBES", relatedSpdxElement: spdxRef("mc") },
      { spdxElementId: spdxRef("mc"), relationshipType: "DEPENDS_ON", relatedSpdxElement: nodeRef },
      ...[main, ...f.packages].flatMap((p) => p.dependsOn.flatMap((d) => (refOf.has(d) ? [{ spdxElementId: refOf.get(p.dir), relationshipType: "DEPENDS_ON", relatedSpdxElement: refOf.get(d) }] : []))),
    ],
  };
}

/**
 * The `go list -m all` line format (contracts/releases.md §7.3) with npm
 * names: the main package first without a version, then `<name> v<version>`
 * per bundled package, sorted. Two installed versions of one name are two lines.
 */
export function moduleList(f: Pick<ReleaseFacts, "main" | "packages">): string {
  const lines = [...new Set(f.packages.map((p) => `${p.name} v${p.version}`))].sort();
  return `${[f.main.name, ...lines].join("\n")}\n`;
}

export interface NotesInput {
  readonly releaseId: string;
  readonly platforms: readonly string[];
  readonly nodeVersion: string;
  readonly packages: number;
  readonly sourceHash: string;
  readonly extra?: string;
}

export function releaseNotes(n: NotesInput): string {
  return [
    `# mc ${n.releaseId}`,
    "",
    `The mc client as one executable file for ${n.platforms.join(", ")}: no Node.js or npm needed beside it.`,
    "",
    `- Runtime: Node.js ${n.nodeVersion} (single executable application).`,
    `- ${n.packages} npm packages inside, each listed with its version and license in the SBOMs (CycloneDX and SPDX) and in the module list.`,
    `- Built from CLI sources ${n.sourceHash.slice(0, 12)}.`,
    "- `mc update` verifies the minisign signature of every download against the publisher key built into this file.",
    ...(n.extra ? ["", n.extra] : []),
    "",
  ].join("\n");
}

/** sha256 of strings, for source hashes. */
export const sha256 = (parts: readonly (string | Buffer)[]): string => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
};
