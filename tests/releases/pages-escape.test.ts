import { suite } from "uvu";
import * as assert from "uvu/assert";
import { create } from "@bufbuild/protobuf";
import { ProductSchema } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { directoryHtml } from "../../gateway/src/releases/directory-page.js";
import { landingHtml } from "../../gateway/src/releases/landing-page.js";

// The catalog's names are held to a grammar today; the new pages escape every
// catalog-derived string anyway, so a looser grammar later cannot inject markup.
const hostile = `x"><script>alert(1)</script><img src=x onerror=alert(2)>'`;
const escape = suite("new pages escape catalog-derived strings");

const noMarkup = (html: string): void => {
  assert.not.match(html, "<script>");
  assert.not.match(html, "<img");
  assert.not.match(html, /"><script/);
  assert.match(html, "&#60;script&#62;");
};

escape("should escape product, component and date on the landing page", () => {
  noMarkup(landingHtml([create(ProductSchema, { name: hostile, components: [hostile], lastReleaseDate: hostile })]));
});

escape("should escape names, dates and the product of an index", () => {
  noMarkup(directoryHtml({ path: `/${hostile}/`, product: hostile, entries: [{ name: hostile, size: 3, modified: hostile }] }));
});

escape.run();
