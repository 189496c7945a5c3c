import { create } from "xmlbuilder2";
import type { CatalogEntry } from "./catalog-entry.js";
import { layout, urlOf } from "./layout.js";
import type { RenderedNotes } from "./notes-render.js";
import { releaseAnchors } from "./page-anchor.js";
import { artifactUrls } from "./release-record.js";

export interface FeedItem {
  readonly entry: CatalogEntry;
  readonly markdown: string;
  readonly notes: RenderedNotes;
}

/** Feeds list at most this many releases, newest first (contracts/releases.md §5.2). */
export const feedSize = 50;

const title = (e: CatalogEntry): string => `${e.product} ${e.component} ${e.releaseId}`;

/** RFC 822 in GMT, as RSS wants (`Wed, 01 May 2024 03:12:44 GMT`). */
export function rfc822(iso: string): string {
  return new Date(iso).toUTCString();
}

/** Where an item links: its release on the product's page; the Markdown stays an attachment. */
function pageLinks(product: string, items: readonly FeedItem[], base: string): string[] {
  const page = urlOf(base, layout.releasesPage(product));
  return releaseAnchors(items.map((i) => i.entry)).map((anchor) => `${page}#${anchor}`);
}

export function renderJsonFeed(product: string, items: readonly FeedItem[], base: string): string {
  const shown = items.slice(0, feedSize);
  const links = pageLinks(product, shown, base);
  const feed = {
    version: "https://jsonfeed.org/version/1.1",
    title: `${product} releases`,
    home_page_url: urlOf(base, layout.releasesPage(product)),
    feed_url: urlOf(base, layout.jsonFeed(product)),
    language: "en",
    items: shown.map(({ entry, markdown, notes }, i) => {
      const artifacts = artifactUrls(entry, base);
      return {
        // The id never changes (readers key on it), so it stays the notes URL.
        id: artifacts.releaseNotes,
        url: links[i],
        title: title(entry),
        content_text: markdown,
        content_html: notes.html,
        summary: notes.summary,
        date_published: entry.releaseDate,
        tags: [entry.product, entry.component],
        attachments: [
          { url: artifacts.releaseNotes, mime_type: "text/markdown", title: "Release notes (Markdown)" },
          { url: artifacts.sbomCyclonedx, mime_type: "application/vnd.cyclonedx+json", title: "SBOM (CycloneDX)" },
          { url: artifacts.sbomSpdx, mime_type: "application/spdx+json", title: "SBOM (SPDX)" },
          { url: artifacts.goModules, mime_type: "text/plain", title: "Go modules" },
        ],
        _release: { product: entry.product, component: entry.component, release_id: entry.releaseId, status: entry.status },
      };
    }),
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}

export function renderRss(product: string, items: readonly FeedItem[], base: string, lastBuild: string): string {
  const doc = create({ version: "1.0", encoding: "UTF-8" }).ele("rss", { version: "2.0", "xmlns:atom": "http://www.w3.org/2005/Atom" });
  const channel = doc.ele("channel");
  channel.ele("title").txt(`${product} releases`);
  channel.ele("link").txt(urlOf(base, layout.releasesPage(product)));
  channel.ele("description").txt(`Releases of ${product}`);
  channel.ele("language").txt("en");
  channel.ele("lastBuildDate").txt(rfc822(lastBuild));
  channel.ele("ttl").txt("5");
  channel.ele("atom:link", { rel: "self", type: "application/rss+xml", href: urlOf(base, layout.rssFeed(product)) });
  const shown = items.slice(0, feedSize);
  const links = pageLinks(product, shown, base);
  for (const [i, { entry, notes }] of shown.entries()) {
    const item = channel.ele("item");
    item.ele("title").txt(title(entry));
    item.ele("link").txt(links[i] ?? "");
    item.ele("guid", { isPermaLink: "false" }).txt(`${entry.product}/${entry.component}/${entry.releaseId}`);
    item.ele("pubDate").txt(rfc822(entry.releaseDate));
    item.ele("description").txt(notes.summary);
    item.ele("category").txt(entry.component);
  }
  return `${doc.end({ prettyPrint: true })}\n`;
}
