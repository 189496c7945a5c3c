import { AppError } from "@mc/shared/errors";
import type { MinisignPublicKey } from "@mc/wasm";
import { documentKinds, documentName, type CatalogEntry, type DocumentFile, type DocumentKind, type PlatformFile } from "./catalog-entry.js";
import { checkGoModules } from "./go-modules.js";
import { checksumSuffix, layout, signatureSuffix } from "./layout.js";
import { archiveName, checkName } from "./names.js";
import { listBinaries, readAgain } from "./publish-binaries.js";
import { readCatalogEntry, readLatestEntry } from "./catalog-reader.js";
import { compareReleases, parseReleaseId } from "./release-id.js";
import type { ReleaseStore } from "./release-store.js";

/** A release directory as `releases publish --from` reads it. */
export interface ReleaseSource {
  /** Names at the top of the directory. */
  list(): Promise<string[]>;
  listDir(dir: string): Promise<string[]>;
  /** A file's bytes, good until the next read: a source may reuse its memory. */
  read(path: string): Promise<Uint8Array>;
}

export interface Signer {
  readonly publicKey: MinisignPublicKey;
  /** The text of `minisign.pub` for this key. */
  publicKeyFile(): string;
  /** A minisign signature file of `data`, named `fileName` in its trusted comment. */
  sign(data: Uint8Array, fileName: string): string;
  /** Throws unless `signature` verifies against the given public key file. */
  verify(data: Uint8Array, signature: string, publicKeyFile: string): void;
}

export interface PublishDeps {
  readonly store: ReleaseStore;
  readonly signer: Signer;
  readonly sha256Hex: (data: Uint8Array) => string;
  /** JSON-schema validation of an SBOM; throws AppError naming the file and the first error. */
  readonly validateSbom: (kind: "cyclonedx" | "spdx", doc: unknown, file: string) => string[];
  readonly now: () => Date;
}

export interface PublishRequest {
  readonly product: string;
  readonly component: string;
  readonly releaseId: string;
  readonly source: ReleaseSource;
}

export interface PublishResult {
  readonly entry: CatalogEntry;
  /** The same id was already published with identical bytes. */
  readonly unchanged: boolean;
  readonly latestChanged: boolean;
  readonly warnings: readonly string[];
}

const text = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });

async function readDocuments(req: PublishRequest, deps: PublishDeps): Promise<{ docs: Map<DocumentKind, Uint8Array>; warnings: string[] }> {
  const names = new Set(await req.source.list());
  const docs = new Map<DocumentKind, Uint8Array>();
  for (const kind of documentKinds) {
    const name = documentName(kind, req.releaseId);
    if (!names.has(name)) throw new AppError("invalid_argument", `missing ${name}`);
    // A copy: the source's bytes are only good until its next read.
    docs.set(kind, (await req.source.read(name)).slice());
  }
  const decode = (kind: DocumentKind): string => {
    try {
      return utf8.decode(docs.get(kind));
    } catch {
      throw new AppError("invalid_argument", `${documentName(kind, req.releaseId)}: not UTF-8`);
    }
  };
  const parse = (kind: DocumentKind): unknown => {
    try {
      return JSON.parse(decode(kind)) as unknown;
    } catch {
      throw new AppError("invalid_argument", `${documentName(kind, req.releaseId)}: not valid JSON`);
    }
  };
  const cdxName = documentName("sbom_cyclonedx", req.releaseId);
  const spdxName = documentName("sbom_spdx", req.releaseId);
  const warnings = [...deps.validateSbom("cyclonedx", parse("sbom_cyclonedx"), cdxName), ...deps.validateSbom("spdx", parse("sbom_spdx"), spdxName)];
  checkGoModules(decode("go_modules"), documentName("go_modules", req.releaseId));
  if (decode("release_notes").trim() === "") throw new AppError("invalid_argument", `${documentName("release_notes", req.releaseId)}: release notes are empty`);
  return { docs, warnings };
}

/** Whether every file is in the store with these hashes: one file read at a time. */
async function allSame(store: ReleaseStore, files: ReadonlyArray<readonly [string, string]>, deps: PublishDeps): Promise<boolean> {
  for (const [path, sha256] of files) {
    const existing = await store.read(path);
    if (existing === undefined || deps.sha256Hex(existing) !== sha256) return false;
  }
  return true;
}

/**
 * Moves the catalog's head (layout.catalogHead) right before the record is
 * written (the record stays the commit point, the last write): catalogs
 * that saw the old head read the listing again, and keep doing so until the
 * record the head names is in it (adapters/catalog.ts). Its bytes differ
 * from every earlier head (a random part is in).
 */
async function touchCatalogHead(store: ReleaseStore, now: Date, entry: CatalogEntry): Promise<void> {
  const head = `${now.toISOString()} ${entry.product}/${entry.component}/${entry.releaseId} ${Math.random().toString(36).slice(2)}\n`;
  await store.write(layout.catalogHead(), text.encode(head));
}

/**
 * Publishes a release (contracts/releases.md §8). Everything is validated
 * before the first write; immutable files go first, then the latest aliases,
 * and the catalog record is written last: it is the commit point, so a
 * publish killed at any moment leaves the catalog as it was, and running it
 * again completes it.
 */
export async function publishRelease(req: PublishRequest, deps: PublishDeps): Promise<PublishResult> {
  const { product, component, releaseId } = req;
  checkName("product", product);
  checkName("component", component);
  parseReleaseId(releaseId);
  const { store, signer } = deps;
  const published = await readCatalogEntry(store, product, component, releaseId);
  const pubFile = published ? undefined : await store.read(layout.publicKey());
  const publicKeyText = pubFile === undefined ? signer.publicKeyFile() : new TextDecoder().decode(pubFile);
  // Signed (and checked against the store's key) as each binary is first read: before the first write.
  const sign = published ? undefined : (bytes: Uint8Array): string => {
    const sig = signer.sign(bytes, archiveName(component, releaseId));
    signer.verify(bytes, sig, publicKeyText);
    return sig;
  };
  const binaries = await listBinaries(req, deps, sign);
  const { docs, warnings } = await readDocuments(req, deps);

  if (published) {
    const files = [
      ...binaries.map((b) => [layout.archive(product, component, b.os, b.arch, releaseId), b.sha256] as const),
      ...documentKinds.map((k) => [layout.document(product, component, k, releaseId), deps.sha256Hex(docs.get(k) ?? new Uint8Array(0))] as const),
    ];
    if (published.platforms.length !== binaries.length || !(await allSame(store, files, deps))) throw new AppError("already_exists", "release already exists");
    return { entry: published, unchanged: true, latestChanged: false, warnings };
  }

  const entry: CatalogEntry = {
    product,
    component,
    releaseId,
    releaseDate: deps.now().toISOString().replace(/\.\d{3}Z$/, "Z"),
    status: "supported",
    platforms: binaries.map((b): PlatformFile => ({ os: b.os, arch: b.arch, size: b.size, sha256: b.sha256 })),
    documents: documentKinds.map((k): DocumentFile => ({ kind: k, name: documentName(k, releaseId), size: docs.get(k)?.byteLength ?? 0 })),
  };
  const currentEntry = await readLatestEntry(store, product, component);
  const latestChanged = !currentEntry || compareReleases(entry, currentEntry) > 0;

  if (pubFile === undefined) await store.write(layout.publicKey(), text.encode(publicKeyText));
  for (const kind of documentKinds) await store.write(layout.document(product, component, kind, releaseId), docs.get(kind) ?? new Uint8Array(0));
  // Each binary is read once more and written under its archive name, then (when this release
  // becomes the latest) under its alias: every alias names an archive whose files are in place.
  for (const b of binaries) {
    const bytes = await readAgain(req, b, deps);
    const files: Array<[string, Uint8Array]> = [
      ["", bytes],
      [checksumSuffix, text.encode(`${b.sha256} ${archiveName(component, releaseId)}\n`)],
      [signatureSuffix, text.encode(b.signature ?? "")],
    ];
    const archive = layout.archive(product, component, b.os, b.arch, releaseId);
    for (const [suffix, data] of files) await store.write(archive + suffix, data);
    if (!latestChanged) continue;
    const alias = layout.latest(product, component, b.os, b.arch);
    for (const [suffix, data] of files) await store.write(alias + suffix, data);
  }
  // The commit point: one atomic write makes the release part of the catalog.
  await touchCatalogHead(store, deps.now(), entry);
  await store.write(layout.catalogEntry(product, component, releaseId), text.encode(`${JSON.stringify(entry, null, 2)}\n`));
  return { entry, unchanged: false, latestChanged, warnings };
}
