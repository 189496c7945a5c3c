import type { GetNotesIndexResponse } from "@mc/releases/gen/releases/v1/releases_pb.js";

import { escapeHtml, renderPage } from "./page-shell.js";

/** IEC sizes as the anchor's fancyindex shows them (`1.2 KiB`). */
export function iecSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** `YYYY-MM-DD HH:MM` in UTC. */
export function indexDate(iso: string): string {
  return iso.slice(0, 16).replace("T", " ");
}

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

/** The HTML listing, in the look of the anchor's fancyindex pages, in the site's page shell. */
export function notesIndexHtml(index: GetNotesIndexResponse): string {
  const title = `Index of /${index.product}/${index.component}/release/notes/`;
  const rows = index.releases
    .flatMap((r) => r.files)
    .map((f) => `<tr><td class="link"><a href="${escapeHtml(f.name)}">${escapeHtml(f.name)}</a></td><td class="size">${iecSize(Number(f.size))}</td><td class="date">${indexDate(f.modified)}</td></tr>`)
    .join("\n");
  const body = `<main>
<h1>${escapeHtml(title)}</h1>
<table id="list">
<thead><tr><th scope="col">File Name</th><th scope="col" class="size">File Size</th><th scope="col">Date</th></tr></thead>
<tbody>
<tr><td class="link"><a href="../">Parent directory/</a></td><td class="size">-</td><td class="date">-</td></tr>
${rows}
</tbody>
</table>
</main>`;
  return renderPage({ title, product: index.product, toRoot: "../../../../", body });
}
