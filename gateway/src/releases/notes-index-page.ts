import type { GetNotesIndexResponse } from "@mc/releases/gen/releases/v1/releases_pb.js";

import { directoryHtml } from "./directory-page.js";

/** JSON form of the notes index (contracts/releases.md §4), newest first. */
export function notesIndexJson(index: GetNotesIndexResponse): object {
  return {
    product: index.product,
    component: index.component,
    releases: index.releases.map((r) => ({
      release_id: r.releaseId,
      release_date: r.releaseDate,
      release_notes: r.releaseNotes,
      sbom_cyclonedx: r.sbomCyclonedx,
      sbom_spdx: r.sbomSpdx,
      go_modules: r.goModules,
    })),
  };
}

/** The HTML listing: the site's one directory listing, its entries the notes files. */
export function notesIndexHtml(index: GetNotesIndexResponse): string {
  const entries = index.releases.flatMap((r) => r.files).map((f) => ({ name: f.name, size: Number(f.size), modified: f.modified }));
  return directoryHtml({ path: `/${index.product}/${index.component}/release/notes/`, product: index.product, entries });
}
