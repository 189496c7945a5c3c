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

/** One row of a browsable index: a folder (name ends with "/") or a file. */
export interface DirectoryEntry {
  /** Shown name and relative link, e.g. `linux-amd64/` or `mc.exe.sha256sum`. */
  readonly name: string;
  /** Bytes, when known (a minisig's size is not in the catalog). */
  readonly size?: number;
  /** RFC 3339: the publish date of the release the entry belongs to. */
  readonly modified?: string;
}

export interface Directory {
  /** The index's own path, from the root, with both slashes: `/client/mc/release/`. */
  readonly path: string;
  /** The product whose feeds the page announces, when it belongs to one. */
  readonly product?: string;
  readonly entries: readonly DirectoryEntry[];
  /** A line under the title, e.g. a link to the releases page (HTML, already escaped). */
  readonly note?: string;
}

/** Relative path from a directory to the site root: one `../` per segment. */
export const toRootOf = (path: string): string => "../".repeat(path.split("/").filter(Boolean).length);

/**
 * JSON form of an index, the same content as the HTML: absolute URLs built
 * from the public base, folders first, then files.
 */
export function directoryJson(dir: Directory, base: string): object {
  const here = `${base}${dir.path}`;
  return {
    path: dir.path,
    parent: dir.path === "/" ? null : new URL("../", here).href,
    entries: dir.entries.map((e) => ({
      name: e.name,
      type: e.name.endsWith("/") ? "directory" : "file",
      url: new URL(e.name, here).href,
      size: e.size ?? null,
      modified: e.modified ?? null,
    })),
  };
}

/** The HTML listing in the look of the notes index (the anchor's fancyindex pages). */
export function directoryHtml(dir: Directory): string {
  const title = `Index of ${dir.path}`;
  const rows = dir.entries
    .map(
      (e) =>
        `<tr><td class="link"><a href="${escapeHtml(e.name)}">${escapeHtml(e.name)}</a></td><td class="size">${e.size === undefined ? "-" : iecSize(e.size)}</td><td class="date">${e.modified === undefined ? "-" : escapeHtml(indexDate(e.modified))}</td></tr>`,
    )
    .join("\n");
  const body = `<main>
<h1>${escapeHtml(title)}</h1>
${dir.note ? `<p class="meta">${dir.note}</p>` : ""}
<table id="list">
<thead><tr><th scope="col">File Name</th><th scope="col" class="size">File Size</th><th scope="col">Date</th></tr></thead>
<tbody>
<tr><td class="link"><a href="../">Parent directory/</a></td><td class="size">-</td><td class="date">-</td></tr>
${rows}
</tbody>
</table>
</main>`;
  return renderPage({ title, ...(dir.product === undefined ? {} : { product: dir.product }), toRoot: toRootOf(dir.path), body });
}
