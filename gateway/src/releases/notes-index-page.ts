import type { GetNotesIndexResponse } from "@mc/releases/gen/releases/v1/releases_pb.js";

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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

/** The HTML listing, in the look of the anchor's fancyindex pages. */
export function notesIndexHtml(index: GetNotesIndexResponse): string {
  const title = `Index of /${index.product}/${index.component}/release/notes/`;
  const rows = index.releases
    .flatMap((r) => r.files)
    .map((f) => `<tr><td class="link"><a href="${escapeHtml(f.name)}">${escapeHtml(f.name)}</a></td><td class="size">${iecSize(Number(f.size))}</td><td class="date">${indexDate(f.modified)}</td></tr>`)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="alternate" type="application/feed+json" href="../../../../api/feeds/${escapeHtml(index.product)}.json">
<style>body{font-family:system-ui,sans-serif;margin:1rem}table{border-collapse:collapse;width:100%}td,th{padding:.3rem .6rem;text-align:left}td.size,th.size{text-align:right}tbody tr:nth-child(even){background:rgba(127,127,127,.1)}@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}a{color:#8cf}}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<table id="list">
<thead><tr><th>File Name</th><th class="size">File Size</th><th>Date</th></tr></thead>
<tbody>
<tr><td class="link"><a href="../">Parent directory/</a></td><td class="size">-</td><td class="date">-</td></tr>
${rows}
</tbody>
</table>
</body>
</html>
`;
}
