/** HTML text escaping for attribute and element content. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PageParts {
  readonly title: string;
  /** The product whose feeds the page announces; none on the landing page, which links them all. */
  readonly product?: string;
  /** The path from this page to the site root, e.g. "../" or "../../../../". */
  readonly toRoot: string;
  readonly body: string;
  readonly script?: string;
}

// One stylesheet for every page: readable on a phone, visible focus,
// light and dark schemes. Headers never wrap (th nowrap); on a phone a
// "cards" table keeps its header row and lays each row out on the same grid,
// its wide last column on a line of its own under the other three.
const style = `:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--accent:#0a58ca;--code:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#8b949e;--line:#30363d;--accent:#58a6ff;--code:#161b22}}
*{box-sizing:border-box}body{overflow-wrap:anywhere;margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main,header{max-width:60rem;margin:0 auto;padding:1rem}a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin:0}article{border-top:1px solid var(--line);padding:1rem 0}
.meta{color:var(--muted);font-size:.9rem}table{border-collapse:collapse;width:100%;font-size:.9rem}
td,th{padding:.3rem .5rem;text-align:left;border-bottom:1px solid var(--line);vertical-align:top}td.size,th.size{text-align:right}
th{white-space:nowrap;overflow-wrap:normal;word-break:normal}td.size,td.date,table.downloads td:first-child{white-space:nowrap}
code{word-break:break-all}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--code);border-radius:4px}code{padding:0 .2rem}pre{padding:.5rem;overflow-x:auto}
.sha{word-break:break-all;font-size:.8rem}.notes{overflow-wrap:anywhere}button{font:inherit;font-size:.8rem;cursor:pointer}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0}label{display:flex;flex-direction:column;font-size:.9rem}
input,select{font:inherit;padding:.3rem}ul.docs{padding-left:1.2rem}
nav.crumbs{font-size:.9rem}
@media (max-width:40rem){td,th{padding:.3rem .25rem}td.date{white-space:normal}
table.cards,table.cards thead,table.cards tbody{display:block}table.cards tr{display:grid;grid-template-columns:8rem minmax(0,1fr) 4.5rem;border-bottom:1px solid var(--line)}
table.cards td,table.cards th{display:block;border:0;min-width:0}table.cards tr>:nth-child(4){grid-column:1/-1}}`;

/** The page around a body: head with feed discovery links, one stylesheet. */
export function renderPage(parts: PageParts): string {
  const p = parts.product === undefined ? undefined : escapeHtml(parts.product);
  const feeds = p === undefined ? "" : `<link rel="alternate" type="application/feed+json" title="${p} releases (JSON Feed)" href="${parts.toRoot}api/feeds/${p}.json">
<link rel="alternate" type="application/rss+xml" title="${p} releases (RSS)" href="${parts.toRoot}feed-${p}.rss">
`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${escapeHtml(parts.title)}</title>
${feeds}<style>${style}</style>
${parts.script ? `<script type="module" src="${parts.script}"></script>` : ""}
</head>
<body>
${parts.body}
</body>
</html>
`;
}
