import { ReleaseStatus, type Download, type Release } from "@mc/releases/gen/releases/v1/releases_pb.js";

/**
 * The contract's JSON field names (contracts/releases.md §5.1), in one place
 * so they can be aligned if the anchor's real names become known. Key order
 * here is output order.
 */
function download(d: Download): Record<string, unknown> {
  return {
    component: d.component,
    os: d.os,
    arch: d.arch,
    filename: d.filename,
    url: d.url,
    latest_url: d.latestUrl,
    size: Number(d.size),
    sha256: d.sha256,
    checksum_url: d.checksumUrl,
    signature_url: d.signatureUrl,
  };
}

export function releaseRecordJson(r: Release): Record<string, unknown> {
  return {
    product: r.product,
    component: r.component,
    release_id: r.releaseId,
    release_date: r.releaseDate,
    release_time: r.releaseTime,
    status: r.status === ReleaseStatus.WITHDRAWN ? "withdrawn" : "supported",
    public_key_url: r.publicKeyUrl,
    artifacts: {
      release_notes: r.artifacts?.releaseNotes ?? "",
      sbom_cyclonedx: r.artifacts?.sbomCyclonedx ?? "",
      sbom_spdx: r.artifacts?.sbomSpdx ?? "",
      go_modules: r.artifacts?.goModules ?? "",
    },
    downloads: {
      linux: (r.downloads?.linux ?? []).map(download),
      macos: (r.downloads?.macos ?? []).map(download),
      windows: (r.downloads?.windows ?? []).map(download),
      docker: (r.downloads?.docker ?? []).map((d) => ({ component: d.component, image: d.image, tag: d.tag, pull: d.pull })),
    },
  };
}
