import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

export interface RenderedNotes {
  readonly html: string;
  /** The first paragraph as plain text. */
  readonly summary: string;
}

const marked = new Marked({ gfm: true, async: false });

// Raw HTML in notes survives only as far as this list allows: no scripts, no
// event-handler attributes, and links only to http(s) and mailto.
const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "h1", "h2", "del", "details", "summary"],
  allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "title"], code: ["class"], th: ["align"], td: ["align"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
  // A relative image would resolve against whichever page shows the notes: drop it.
  exclusiveFilter: (frame) => frame.tag === "img" && !/^https:\/\//i.test(frame.attribs.src ?? ""),
};

function plainText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** Markdown to sanitised HTML, with a plain-text summary for feeds. */
export function renderNotes(markdown: string): RenderedNotes {
  const raw = marked.parse(markdown) as string;
  const html = sanitizeHtml(raw, sanitizeOptions);
  const tokens = marked.lexer(markdown);
  const first = tokens.find((t) => t.type === "paragraph");
  const summary = first ? plainText(marked.parser([first])) : plainText(html).slice(0, 280);
  return { html, summary };
}
