import type { GetNotesIndexResponse } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { directoryHtml } from "./directory-page.js";

/** The HTML listing: the site's one directory listing, its entries the notes files. */
export function notesIndexHtml(index: GetNotesIndexResponse): string {
  const entries = (index.listing?.files ?? []).map((f) => ({ name: f.name, size: Number(f.size), modified: f.modified }));
  return directoryHtml({ path: `/${index.product}/${index.component}/release/notes/`, product: index.product, entries });
}
