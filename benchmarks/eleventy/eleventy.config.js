// Eleventy 3 settings for a site equivalent to a sitegen build of the benchmark corpus (see
// benchmarks/eleventy_site.py and README.md here).
//
// The runner copies this folder and writes `content/papers/<slug>.md` into the copy. Every path here is found from
// this file's place, so `node …/cmd.cjs --config=/abs/path/eleventy.config.js` builds the same site from any working
// directory (no --input or --output: see `dir` below). The site model (reading-list.js) is computed once per build, in
// the collections below; the templates in content/ paginate over it (size 1 for each author, tag, year and paper
// file, 20 for the home) and render through the layouts in content/_layouts/, which Eleventy compiles once (a
// Nunjucks page body is compiled again for every page of a pagination).

import path from "node:path";
import { fileURLToPath } from "node:url";

import {
	SITE, Memo, bibFile, bibtex, buildModel, coins, cslFile, cslLine, entryId, humanDate, jsonArray,
	jsonLd, papersFile, ris, risFile,
} from "./reading-list.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));

// This file's folders, relative to the working directory, whatever it is: Eleventy 3.1 reads directory data files
// (content/papers/papers.11tydata.js) only when the input folder is a relative path (an absolute --input skips them).
const fromCwd = (folder) => path.relative(process.cwd(), path.join(HERE, folder)) || ".";

export const config = {
	dir: { input: fromCwd("content"), includes: "_includes", layouts: "_layouts", data: "_data",
		output: fromCwd("public") },
	templateFormats: ["md", "njk"],
	// Papers are Markdown notes, never templates: no Liquid or Nunjucks runs over them.
	markdownTemplateEngine: false,
};

export default function (eleventyConfig) {
	let model = null; // built on the first collection asked for, once per build
	let nunjucks = null;
	let env = null;
	const memo = new Memo((name, context) => env.render(name, context));

	eleventyConfig.on("eleventy.before", () => {
		model = null; // a new build: forget the fragments of any earlier one in this process
	});
	eleventyConfig.on("eleventy.engine.njk", (engine) => {
		nunjucks = engine.nunjucks;
		env = engine.environment;
	});

	// The theme's CSS, JavaScript and icon (copied here by eleventy_site.convert), written to public/static/.
	eleventyConfig.addPassthroughCopy({ [path.join(HERE, "static")]: "static" });
	// sitegen's Jinja settings: autoescaped, a missing value an error, blocks trimmed.
	eleventyConfig.setNunjucksEnvironmentOptions({ throwOnUndefined: true, trimBlocks: true, lstripBlocks: true,
		autoescape: true });
	// Notes as sitegen renders them: raw HTML shown as text, code blocks focusable, tables in a scrolling box.
	eleventyConfig.amendLibrary("md", (md) => {
		md.set({ html: false, linkify: false, typographer: false });
		for (const name of ["fence", "code_block"]) {
			const rule = md.renderer.rules[name];
			md.renderer.rules[name] = (...args) => rule(...args)
				.replace("<pre>", '<pre tabindex="0" role="region" aria-label="Code">');
		}
		const tableOpen = (tokens, idx, options, env, self) => '<div class="table-scroll" tabindex="0" role="region" '
			+ 'aria-label="Table">' + self.renderToken(tokens, idx, options);
		const tableClose = (tokens, idx, options, env, self) => self.renderToken(tokens, idx, options) + "</div>\n";
		md.renderer.rules.table_open = tableOpen;
		md.renderer.rules.table_close = tableClose;
	});

	const site = (api) => {
		if (model === null) {
			model = buildModel(api.getAll().filter((item) => item.inputPath.endsWith(".md")));
			model.bySlug = Object.fromEntries(model.bySlug);
		}
		return model;
	};
	eleventyConfig.addCollection("rl", site);
	eleventyConfig.addCollection("rlPapers", (api) => site(api).papers);
	eleventyConfig.addCollection("rlAuthors", (api) => site(api).authors);
	eleventyConfig.addCollection("rlTags", (api) => site(api).tags);
	eleventyConfig.addCollection("rlYears", (api) => site(api).years);

	eleventyConfig.addGlobalData("site", SITE);

	const safe = (fn) => (...args) => nunjucks.runtime.markSafe(fn(...args));
	eleventyConfig.addNunjucksGlobal("item", safe((p, level = 3) => memo.item(p, level)));
	eleventyConfig.addNunjucksGlobal("items", safe((papers, level = 3) => memo.items(papers, level)));
	eleventyConfig.addNunjucksGlobal("feedEntries", safe((papers, full) => memo.feedEntries(papers, full)));
	eleventyConfig.addNunjucksGlobal("jsonLd", safe(jsonLd));
	for (const [name, fn] of Object.entries({ bibtex, bibFile, ris, risFile, cslLine, cslFile, papersFile, jsonArray,
		coins, entryId })) {
		eleventyConfig.addNunjucksGlobal(name, fn);
	}
	eleventyConfig.addFilter("humanDate", humanDate);
	eleventyConfig.addFilter("share", (count, largest) => (100 * count / largest).toFixed(1));
}
