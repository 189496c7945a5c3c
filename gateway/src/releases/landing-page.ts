import type { Product } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { layout, urlOf } from "@mc/releases";
import { indexDate } from "./directory-page.js";
import { escapeHtml, renderPage } from "./page-shell.js";

/** `{base}/` in JSON: every product with its page, feeds, API and download indexes. */
export function landingJson(products: readonly Product[], base: string): object {
  return {
    public_key_url: urlOf(base, layout.publicKey()),
    products: products.map((p) => ({
      name: p.name,
      last_release_date: p.lastReleaseDate,
      page_url: urlOf(base, layout.releasesPage(p.name)),
      api_url: urlOf(base, layout.apiList(p.name)),
      json_feed_url: urlOf(base, layout.jsonFeed(p.name)),
      rss_feed_url: urlOf(base, layout.rssFeed(p.name)),
      components: p.components.map((c) => ({ name: c, url: urlOf(base, `${p.name}/${c}/release/`) })),
    })),
  };
}

function productRow(p: Product): string {
  const n = escapeHtml(p.name);
  const downloads = p.components.map((c) => `<a href="${n}/${escapeHtml(c)}/release/">${escapeHtml(c)}</a>`).join(" ");
  const last = p.lastReleaseDate === "" ? "-" : `<time datetime="${escapeHtml(p.lastReleaseDate)}">${escapeHtml(indexDate(p.lastReleaseDate))}</time>`;
  return `<tr>
<td><a href="${n}/releases"><strong>${n}</strong> releases</a></td>
<td>${downloads}</td>
<td><a href="api/feeds/${n}.json">JSON Feed</a> · <a href="feed-${n}.rss">RSS</a> · <a href="api/releases/${n}">API</a></td>
<td class="date">${last}</td>
</tr>`;
}

/**
 * The site's front door, as a download site has one: each product's
 * release-notes page, its download indexes, its feeds, and the public key.
 */
export function landingHtml(products: readonly Product[]): string {
  const body = `<main>
<h1>Downloads</h1>
<p class="meta">Signed binaries, checksums, release notes and SBOMs. Binaries are signed with minisign: <a href="minisign.pub">public key</a> (<code>minisign -Vm &lt;file&gt; -p minisign.pub</code>).</p>
<table id="products">
<thead><tr><th scope="col">Product</th><th scope="col">Downloads</th><th scope="col">Feeds</th><th scope="col">Last release</th></tr></thead>
<tbody>
${products.map(productRow).join("\n")}
</tbody>
</table>
</main>`;
  return renderPage({ title: "Downloads", toRoot: "", body });
}
