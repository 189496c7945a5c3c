import { releaseAnchors } from "@mc/releases";
import type { Download, Release } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { iecSize } from "./directory-page.js";
import { escapeHtml, renderPage } from "./page-shell.js";

export const releasesPageScript = "/_assets/releases-page.js";

function downloadRow(d: Download): string {
  const curl = `curl -fLO ${d.url}`;
  return `<tr>
<td>${escapeHtml(`${d.os}-${d.arch}`)}</td>
<td><a href="${escapeHtml(d.url)}">${escapeHtml(d.filename)}</a><br><a href="${escapeHtml(d.latestUrl)}">latest</a> · <a href="${escapeHtml(d.signatureUrl)}">signature</a> · <a href="${escapeHtml(d.checksumUrl)}">checksum</a></td>
<td class="size">${iecSize(d.size)}</td>
<td><code class="sha">${escapeHtml(d.sha256)}</code> <button type="button" hidden data-copy="${escapeHtml(d.sha256)}" aria-label="Copy the SHA-256 of ${escapeHtml(d.filename)} for ${escapeHtml(`${d.os}-${d.arch}`)}">Copy</button>
<br><code>${escapeHtml(curl)}</code> <button type="button" hidden data-copy="${escapeHtml(curl)}" aria-label="Copy the curl line for ${escapeHtml(`${d.os}-${d.arch}`)}">Copy</button></td>
</tr>`;
}

/**
 * Notes headings sit under the release's own h2: shift them two levels down.
 * The notes are sanitised HTML with bare heading tags, so a tag swap is safe.
 */
function demoteHeadings(html: string): string {
  return html.replace(/<(\/?)h([1-6])>/g, (_m, slash: string, level: string) => `<${slash}h${Math.min(Number(level) + 2, 6)}>`);
}

function article(r: Release, anchor: string): string {
  const downloads = [...(r.downloads?.linux ?? []), ...(r.downloads?.macos ?? []), ...(r.downloads?.windows ?? [])];
  const a = r.artifacts;
  const title = `${r.product} ${r.component} ${r.releaseId}`;
  return `<article id="${escapeHtml(anchor)}" data-release="${escapeHtml(r.releaseId)}" data-component="${escapeHtml(r.component)}" aria-labelledby="${escapeHtml(anchor)}-title">
<h2 id="${escapeHtml(anchor)}-title"><a href="#${escapeHtml(anchor)}">${escapeHtml(title)}</a></h2>
<p class="meta">Published <time datetime="${escapeHtml(r.releaseDate)}">${escapeHtml(r.releaseDate.replace("T", " ").replace("Z", " UTC"))}</time></p>
<div class="notes">${demoteHeadings(r.notes?.html ?? "")}</div>
<h3>Documents</h3>
<ul class="docs">
<li><a href="${escapeHtml(a?.releaseNotes ?? "")}">Release notes (Markdown)</a></li>
<li><a href="${escapeHtml(a?.sbomCyclonedx ?? "")}">SBOM (CycloneDX)</a></li>
<li><a href="${escapeHtml(a?.sbomSpdx ?? "")}">SBOM (SPDX)</a></li>
<li><a href="${escapeHtml(a?.goModules ?? "")}">Go modules</a></li>
</ul>
<h3>Downloads</h3>
<table class="cards downloads">
<thead><tr><th scope="col">Platform</th><th scope="col">File</th><th scope="col" class="size">Size</th><th scope="col">SHA-256 and download</th></tr></thead>
<tbody>
${downloads.map(downloadRow).join("\n")}
</tbody>
</table>
</article>`;
}

/**
 * The release-notes page of a product: complete without JavaScript; the
 * script adds filtering and search through Connect-Web, and copy buttons.
 * Notes HTML comes sanitised from the release service.
 */
export function renderReleasesPage(product: string, releases: readonly Release[], publicKeyUrl: string): string {
  const components = [...new Set(releases.map((r) => r.component))].sort();
  // The same anchors the feeds link to.
  const anchors = releaseAnchors(releases);
  const articles = releases.map((r, i) => article(r, anchors[i] ?? r.releaseId));
  const body = `<header>
<h1>${escapeHtml(product)} releases</h1>
<nav class="crumbs"><a href="../">All products</a> · downloads: ${components.map((c) => `<a href="${escapeHtml(c)}/release/">${escapeHtml(c)}/release/</a>`).join(" ")}</nav>
<p class="meta">Every release, newest first. Binaries are signed with minisign: <a href="${escapeHtml(publicKeyUrl)}">public key</a>. Feeds: <a href="../api/feeds/${escapeHtml(product)}.json">JSON Feed</a>, <a href="../feed-${escapeHtml(product)}.rss">RSS</a>.</p>
<form id="filters" role="search" hidden>
<label>Search ids and notes <input id="search" type="search" name="q" autocomplete="off"></label>
<label>Component <select id="component" name="component"><option value="">All</option>${components.map((c) => `<option value="${escapeHtml(c)}">${escapeHtml(c)}</option>`).join("")}</select></label>
</form>
<p id="status" class="meta" role="status" aria-live="polite">${releases.length} releases</p>
</header>
<main data-releases data-product="${escapeHtml(product)}">
${articles.join("\n")}
</main>`;
  return renderPage({ title: `${product} releases`, product, toRoot: "../", body, script: releasesPageScript });
}
