import { AppError } from "@mc/shared/errors";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);
/** `NOASSERTION` and `NONE` say nothing about a license. */
const licenseText = (v: unknown): string | undefined => {
  const t = text(v);
  return t === undefined || t === "NOASSERTION" || t === "NONE" ? undefined : t;
};

function cyclonedxLicense(component: Json): boolean {
  const licenses = component.licenses;
  if (!Array.isArray(licenses)) return false;
  return licenses.some((l) => isObject(l) && (licenseText(l.expression) !== undefined || (isObject(l.license) && licenseText(l.license.id) !== undefined)));
}

function listMissing(file: string, missing: readonly string[]): void {
  if (missing.length === 0) return;
  throw new AppError("invalid_argument", `${file}: components without a name, version or license: ${missing.join("; ")}`);
}

/** Every CycloneDX component needs a name, a version and a license id or expression (§7.2.1). */
export function checkCycloneDxComponents(doc: unknown, file: string): string[] {
  if (!isObject(doc)) throw new AppError("invalid_argument", `${file}: not a JSON object`);
  const components = Array.isArray(doc.components) ? doc.components : [];
  const missing: string[] = [];
  components.forEach((c, i) => {
    const comp = isObject(c) ? c : {};
    const gaps = [text(comp.name) ? "" : "name", text(comp.version) ? "" : "version", cyclonedxLicense(comp) ? "" : "license"].filter(Boolean);
    if (gaps.length > 0) missing.push(`${text(comp.name) ?? `components[${i}]`} (missing ${gaps.join(", ")})`);
  });
  listMissing(file, missing);
  const warnings: string[] = [];
  if (!(typeof doc.serialNumber === "string" && /^urn:uuid:[0-9a-f-]{36}$/.test(doc.serialNumber))) warnings.push(`${file}: serialNumber should be urn:uuid:<v4>`);
  const meta = isObject(doc.metadata) ? doc.metadata : {};
  if (!text(meta.timestamp)) warnings.push(`${file}: metadata.timestamp is missing`);
  if (!isObject(meta.component)) warnings.push(`${file}: metadata.component is missing`);
  if (!Array.isArray(doc.dependencies)) warnings.push(`${file}: dependencies[] is missing`);
  return warnings;
}

/** SPDX packages need name, versionInfo and a declared or concluded license; the document a namespace (§7.2). */
export function checkSpdxPackages(doc: unknown, file: string): string[] {
  if (!isObject(doc)) throw new AppError("invalid_argument", `${file}: not a JSON object`);
  const ns = text(doc.documentNamespace);
  if (!ns || !/^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i.test(ns)) {
    throw new AppError("invalid_argument", `${file}: documentNamespace must be a unique absolute URI`);
  }
  const packages = Array.isArray(doc.packages) ? doc.packages : [];
  const missing: string[] = [];
  packages.forEach((p, i) => {
    const pkg = isObject(p) ? p : {};
    const gaps = [
      text(pkg.name) ? "" : "name",
      text(pkg.versionInfo) ? "" : "version",
      licenseText(pkg.licenseDeclared) ?? licenseText(pkg.licenseConcluded) ? "" : "license",
    ].filter(Boolean);
    if (gaps.length > 0) missing.push(`${text(pkg.name) ?? `packages[${i}]`} (missing ${gaps.join(", ")})`);
  });
  listMissing(file, missing);
  return [];
}
