// The site model and per-paper fragments for the Eleventy side of sitegen's benchmark: a port of
// benchmarks/pelican/plugins/reading_list.py (itself sitegen's model and outputs in a Pelican plugin).
//
// buildModel() runs once per build, from eleventy.config.js's collections: BibTeX keys de-duplicated like
// sitegen's, neighbours in time, co-authors (top 30) and topics (top 15) per author, related tags (top 8), the A–Z
// author index, tags by count, the latest 100 papers by date added, years with their months, feed heads. Each
// paper's fragments are made once per build and kept on the paper, as sitegen renders each once and reuses it: its
// list item per heading level and its feed entries (Memo, through the Nunjucks partials), its BibTeX, RIS and
// CSL-JSON text, its title, abstract and summary as HTML; MathML is cached per formula (temml).

import { createHash } from "node:crypto";
import temml from "temml";

export const SITE = {
	title: "Synthetic reading list",
	description: "A generated corpus for benchmarks.",
	language: "en",
	url: "/reading-list", // root-relative links in pages, like the Hugo and Pelican sites
	absolute: "https://example.org/reading-list", // feeds, sitemap, citations, canonical links
	pageSize: 20,
	nav: [["", "Papers"], ["authors/", "Authors"], ["tags/", "Tags"], ["timeline/", "Timeline"],
		["recent/", "Recently added"], ["search/", "Search"]],
};

const MAX_COAUTHORS = 30; // sitegen.model.MAX_COAUTHORS
const MAX_TOPICS = 15;
const MAX_RELATED = 8;
const HOME_TAGS = 16;
const RECENT_SIZE = 100; // sitegen.routes.RECENT_SIZE
const FEED_SIZE = 50;
const TOPIC_FEED_SIZE = 20;
const MAX_SLUG = 60;
const BIB_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
	"October", "November", "December"];
// sitegen.markdown.INLINE_MATH: `$…$` not preceded by a backslash
const INLINE_MATH = /\$(?<!\\\$)(?!\s*\$)([\s\S]+?)(?<!\\)\$/g;
const LATEX = {
	"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "&": "\\&", "%": "\\%", $: "\\$",
	"#": "\\#", _: "\\_", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}",
};
const LATEX_RE = /[\\{}&%$#_~^]/g;
const NOTHING_TO_ESCAPE = /^[^\\{}&%$#_~^\s]+(?: [^\\{}&%$#_~^\s]+)*$/;
const AND = /\band\b/i;
// Letters NFKD does not split into an ASCII letter and accents, spelled as sitegen's transliterator spells them
const TRANSLIT = {
	"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Đ": "D", "đ": "d",
	"Þ": "TH", "þ": "th", "ı": "i",
};
const FEED_NAMESPACE = Buffer.from("6f1c51d45d1a4c499a432b9d7c1f0e7a", "hex"); // sitegen.feeds.NAMESPACE

// -- text ----------------------------------------------------------------------------------------------------------
const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
export function escapeText(text) {
	return String(text).replace(/[&<>]/g, (c) => ESCAPES[c]);
}
function escapeAttr(text) {
	return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const words = (text) => text.split(/\s+/).filter(Boolean);

const slugs = new Map();
/** sitegen.slugs.slugify for this corpus: accents stripped, lower case, other runs of characters → '-'. */
export function slugify(text) {
	let slug = slugs.get(text);
	if (slug === undefined) {
		slug = text.normalize("NFKD").replace(/\p{M}/gu, "").replace(/[ŁłØøßÆæŒœĐđÞþı]/g, (c) => TRANSLIT[c])
			.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
		if (slug.length > MAX_SLUG) slug = slug.slice(0, MAX_SLUG).replace(/-[^-]*$/, "") || slug.slice(0, MAX_SLUG);
		if (!slug) slug = "p-" + shortHash(text);
		slugs.set(text, slug);
	}
	return slug;
}

function shortHash(text, length = 8) {
	return createHash("sha1").update(text, "utf8").digest("hex").slice(0, length);
}

/** sitegen.slugs.unique_slug: `base`, or `base-<hash>` (then -2, -3 …) when another name already has it. */
function uniqueSlug(base, taken, seed) {
	if (!taken.has(base)) return base;
	let candidate = `${base.slice(0, MAX_SLUG - 9)}-${shortHash(seed)}`;
	for (let n = 2; taken.has(candidate); n++) candidate = `${base.slice(0, MAX_SLUG - 12)}-${shortHash(seed)}-${n}`;
	return candidate;
}

function nameSlugs(names) {
	const taken = new Set();
	const result = new Map();
	for (const name of names) {
		const slug = uniqueSlug(slugify(name), taken, name);
		result.set(name, slug);
		taken.add(slug);
	}
	return result;
}

/** A name-based UUID (version 5), as Python's uuid.uuid5. */
function uuid5(namespace, name) {
	const hash = createHash("sha1").update(namespace).update(name, "utf8").digest();
	hash[6] = (hash[6] & 0x0f) | 0x50;
	hash[8] = (hash[8] & 0x3f) | 0x80;
	const hex = hash.subarray(0, 16).toString("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// -- math ----------------------------------------------------------------------------------------------------------
const mathml = new Map();
/** TeX to inline MathML labelled with its source; the escaped TeX in <code> when it does not convert. */
export function mathToMathml(tex) {
	let html = mathml.get(tex);
	if (html === undefined) {
		const source = tex.trim();
		try {
			const out = temml.renderToString(source, { displayMode: false, throwOnError: true });
			html = out.replace(/^<math/, `<math aria-label="${escapeAttr(source)}"`);
		} catch {
			html = `<code class="tex">${escapeAttr(tex)}</code>`;
		}
		mathml.set(tex, html);
	}
	return html;
}

/** Plain text escaped, with its `$…$` spans as MathML (sitegen.markdown.text_with_math). */
export function textWithMath(text) {
	let out = "";
	let last = 0;
	for (const match of String(text).matchAll(INLINE_MATH)) {
		out += escapeText(text.slice(last, match.index)) + mathToMathml(match[1]);
		last = match.index + match[0].length;
	}
	return out + escapeText(text.slice(last));
}

/** The start of a text, cut at a word outside math, as HTML with MathML (sitegen.markdown.summary). */
export function summaryHtml(text, limit = 280) {
	if (text.length <= limit) return textWithMath(text);
	let cut = text.slice(0, limit);
	if (cut.includes(" ")) cut = cut.slice(0, cut.lastIndexOf(" "));
	if (cut.replace(INLINE_MATH, "").split("$").length % 2 === 0) cut = cut.slice(0, cut.lastIndexOf("$")).trimEnd();
	return textWithMath(cut.replace(/[ ,;:.]+$/, "")) + "…";
}

// -- dates ---------------------------------------------------------------------------------------------------------
/** YYYY-MM-DD of a front-matter date: a string as written, a Date (YAML's, at UTC midnight) in UTC. */
function isoDay(value) {
	if (value instanceof Date) return value.toISOString().slice(0, 10);
	return value ? String(value).slice(0, 10) : "";
}

/** 'Sep 21, 2018' from YYYY-MM-DD. */
export function humanDate(iso) {
	return iso ? `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}` : "";
}

// -- citations (sitegen.outputs.citations) -------------------------------------------------------------------------
function escapePlain(text) {
	return text.replace(LATEX_RE, (c) => LATEX[c]);
}

function balanced(text) {
	let depth = 0;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if ((ch === "{" || ch === "}") && i && text[i - 1] === "\\") continue;
		depth += ch === "{" ? 1 : ch === "}" ? -1 : 0;
		if (depth < 0) return false;
	}
	return depth === 0;
}

/** Escape LaTeX's special characters outside `$…$` math whose braces balance. */
function latexEscape(text) {
	if (NOTHING_TO_ESCAPE.test(text)) return text;
	text = words(text).join(" ");
	let out = "";
	let last = 0;
	for (const match of text.matchAll(INLINE_MATH)) {
		const tex = match[0];
		if (balanced(tex) && !tex.includes("\\\\")) {
			out += escapePlain(text.slice(last, match.index)) + tex;
			last = match.index + tex.length;
		}
	}
	return out + escapePlain(text.slice(last));
}

/** [family, given]: the last word is the family name. */
function splitName(name) {
	const parts = words(name);
	return parts.length ? [parts[parts.length - 1], parts.slice(0, -1).join(" ")] : ["", ""];
}

const bibNames = new Map();
function bibName(name) {
	let text = bibNames.get(name);
	if (text === undefined) {
		const [family, given] = splitName(name);
		text = AND.test(name) ? `{${latexEscape(name)}}`
			: given ? `${latexEscape(family)}, ${latexEscape(given)}` : latexEscape(family);
		bibNames.set(name, text);
	}
	return text;
}

/** A JSON array with one item per line (sitegen.outputs.data.json_lines). */
export function jsonArray(lines) {
	return lines.length ? "[\n" + lines.join(",\n") + "\n]\n" : "[]\n";
}

/** Python's urllib.parse.urlencode (quote_plus) of [key, value] pairs. */
function urlencode(pairs) {
	const quote = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
		.replace(/%20/g, "+");
	return pairs.map(([k, v]) => `${quote(k)}=${quote(v)}`).join("&");
}

// -- memoized fragments --------------------------------------------------------------------------------------------
/** Per-build caches of per-paper fragments; each is built on first use and kept on the paper. */
export class Memo {
	constructor(render) {
		this.render = render; // (template name, context) -> string, Eleventy's Nunjucks environment
	}

	/** The paper's list item at a heading level, rendered once per build and reused on every listing. */
	item(p, level = 3) {
		const key = level === 2 ? "_item2" : level === 3 ? "_item3" : `_item${level}`;
		return p[key] ?? (p[key] = this.render("partials/item.njk", { p, level, site: SITE }));
	}

	items(papers, level = 3) {
		let out = "";
		for (const p of papers) out += this.item(p, level);
		return out;
	}

	/** The paper's Atom entry, with the abstract (site and recently-added feeds) or the summary (others). */
	feedEntry(p, full) {
		const key = full ? "_entryFull" : "_entry";
		return p[key] ?? (p[key] = this.render("partials/feed-entry.njk", { p, full, site: SITE }));
	}

	feedEntries(papers, full) {
		let out = "";
		for (const p of papers) out += this.feedEntry(p, full);
		return out;
	}
}

/** The paper's @misc entry, built once per build; no abstract, as in sitegen's. */
export function bibtex(p) {
	if (p._bib === undefined) {
		const fields = [["title", `{{${latexEscape(p.title)}}}`]];
		if (p.authors.length) fields.push(["author", `{${p.authors.map((a) => bibName(a.name)).join(" and ")}}`]);
		fields.push(["year", `{${p.year}}`], ["month", BIB_MONTHS[p.month - 1]]);
		if (p.tags.length) fields.push(["keywords", `{${latexEscape(p.tags.map((t) => t.name).join(", "))}}`]);
		fields.push(["url", `{${p.absoluteUrl}}`]);
		p._bib = `@misc{${p.citeKey},\n${fields.map(([k, v]) => `\t${k} = ${v}`).join(",\n")}\n}\n`;
	}
	return p._bib;
}

/** A .bib file: the entries, separated by blank lines. */
export function bibFile(papers) {
	return papers.map(bibtex).join("\n");
}

/** The paper's RIS record, built once per build. */
export function ris(p) {
	if (p._ris === undefined) {
		const lines = ["TY  - GEN", `TI  - ${p.title}`];
		for (const a of p.authors) {
			const [family, given] = splitName(a.name);
			lines.push(given ? `AU  - ${family}, ${given}` : `AU  - ${family}`);
		}
		lines.push(`PY  - ${p.year}`, `DA  - ${p.date.replaceAll("-", "/")}`);
		if (p.abstract) lines.push(`AB  - ${p.abstract}`);
		for (const t of p.tags) lines.push(`KW  - ${t.name}`);
		lines.push(`UR  - ${p.absoluteUrl}`, `ID  - ${p.citeKey}`, "ER  - ");
		p._ris = lines.join("\n") + "\n";
	}
	return p._ris;
}

export function risFile(papers) {
	return papers.map(ris).join("");
}

// The JSON objects below are built with their keys in sorted order: sitegen writes json.dumps(sort_keys=True),
// compact, and JSON.stringify keeps the order keys were added in.

/** The paper's CSL-JSON item as one line (sitegen writes one item per line), built once per build. */
export function cslLine(p) {
	if (p._csl === undefined) {
		const item = { URL: p.absoluteUrl };
		if (p.abstract) item.abstract = p.abstract;
		if (p.authors.length) {
			item.author = p.authors.map((a) => {
				const [family, given] = splitName(a.name);
				return given ? { family, given } : { literal: family };
			});
		}
		item.id = p.citeKey;
		item.issued = { "date-parts": [[p.year, p.month, p.day]] };
		if (p.tags.length) item.keyword = p.tags.map((t) => t.name).join(", ");
		item.title = p.title;
		item.type = "article";
		p._csl = JSON.stringify(item);
	}
	return p._csl;
}

export function cslFile(papers) {
	return jsonArray(papers.map(cslLine));
}

/** The paper's front matter and URL as one papers.json line (sitegen.outputs.data.papers_json). */
function recordLine(p) {
	const record = {};
	if (p.abstract) record.abstract = p.abstract;
	if (p.added) record.added = p.added;
	if (p.authors.length) record.authors = p.authors.map((a) => a.name);
	record.date = p.date;
	record.slug = p.slug;
	if (p.tags.length) record.tags = p.tags.map((t) => t.name);
	record.title = p.title;
	record.url = p.absoluteUrl;
	return JSON.stringify(record);
}

export function papersFile(papers) {
	return jsonArray(papers.map(recordLine));
}

/** schema.org ScholarlyArticle, safe inside <script> (sitegen.render.Renderer.json_ld). */
export function jsonLd(p) {
	const data = { "@context": "https://schema.org", "@type": "ScholarlyArticle" };
	if (p.abstract) data.abstract = p.abstract;
	if (p.authors.length) data.author = p.authors.map((a) => ({ "@type": "Person", name: a.name }));
	data.datePublished = p.date;
	data.headline = [...p.title].slice(0, 110).join("");
	if (p.tags.length) data.keywords = p.tags.map((t) => t.name);
	data.name = p.title;
	data.url = p.absoluteUrl;
	return JSON.stringify(data).replace(/[<>&]/g, (c) => ({ "<": "\\u003c", ">": "\\u003e", "&": "\\u0026" })[c]);
}

/** OpenURL ContextObject (COinS) so Zotero's connector finds the paper. */
export function coins(p) {
	return urlencode([["ctx_ver", "Z39.88-2004"], ["rft_val_fmt", "info:ofi/fmt:kev:mtx:journal"],
		["rft.genre", "preprint"],
		["rft.atitle", p.title], ...p.authors.map((a) => ["rft.au", a.name]), ["rft.date", p.date]]);
}

// -- the site model ------------------------------------------------------------------------------------------------
/** Names ranked A–Z (case-folded, then as written) with their slugs: sitegen.model.Ranking. */
class Ranking {
	constructor(slugOf) {
		this.names = [...slugOf.keys()].sort((a, b) => cmp(a.toLowerCase(), b.toLowerCase()) || cmp(a, b));
		this.rank = new Map(this.names.map((name, i) => [name, i]));
		this.slugOf = slugOf;
	}

	/** The `limit` most frequent of a Map rank -> count as {name, slug, count}, ties A–Z. Each pair is packed
	 * into one number (rank - count × size), so the sort compares plain numbers, as sitegen does. */
	top(counts, limit) {
		const size = this.names.length;
		const codes = new Float64Array(counts.size);
		let i = 0;
		for (const [rank, n] of counts) codes[i++] = rank - n * size;
		codes.sort();
		return Array.from(codes.subarray(0, limit), (code) => {
			const n = Math.ceil(-code / size);
			const name = this.names[code + n * size];
			return { name, slug: this.slugOf.get(name), count: n };
		});
	}
}

function count(counter, key) {
	counter.set(key, (counter.get(key) ?? 0) + 1);
}

function suffix(n) {
	const letters = "abcdefghijklmnopqrstuvwxyz";
	return n < 26 ? letters[n] : suffix(Math.floor(n / 26) - 1) + letters[n % 26];
}

/** Stable BibTeX keys like 'hu2026vtc'; clashes get a, b, c … in slug order (sitegen.model.cite_keys). */
function citeKeys(papers) {
	const base = new Map();
	for (const p of [...papers].sort((a, b) => cmp(a.slug, b.slug))) {
		const family = p.authorNames.length ? slugify(words(p.authorNames[0]).at(-1)).replaceAll("-", "") : "";
		const word = words(p.title).map(slugify).find((s) => s.length > 2)?.replaceAll("-", "") ?? "paper";
		base.set(p.slug, family ? `${family}${p.year}${word}` : `${word}${p.year}`);
	}
	const counts = new Map();
	for (const key of base.values()) count(counts, key);
	const seen = new Map();
	const keys = new Map();
	for (const [slug, key] of base) {
		if (counts.get(key) > 1) {
			const n = seen.get(key) ?? 0;
			keys.set(slug, key + suffix(n));
			seen.set(key, n + 1);
		} else {
			keys.set(slug, key);
		}
	}
	return keys;
}

/** Family name first, case-folded: authors are listed A–Z by surname. */
function sortName(name) {
	const parts = words(name);
	return [...parts.slice(-1), ...parts.slice(0, -1)].join(" ").toLowerCase();
}

/** One paper of the model from an Eleventy collection item (a Markdown file's data). */
function paperOf(item) {
	const data = item.data;
	if (data.layout !== "paper.njk") { // Eleventy skips directory data files when --input is an absolute path
		throw new Error(`${item.inputPath}: no layout; content/papers/papers.11tydata.js was not read`);
	}
	const date = isoDay(data.date);
	if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`${item.inputPath}: no date (YYYY-MM-DD)`);
	const slug = String(data.slug ?? item.page.fileSlug);
	return {
		slug, title: String(data.title ?? ""), date, year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)),
		day: Number(date.slice(8, 10)), added: isoDay(data.added), abstract: String(data.abstract ?? ""),
		authorNames: (data.authors ?? []).map(String), tagNames: (data.tags ?? []).map(String),
		url: `papers/${slug}/`, absoluteUrl: `${SITE.absolute}/papers/${slug}/`,
	};
}

/** Everything sitegen's model computes, from the Markdown files' collection items; built once per build. */
export function buildModel(items) {
	const papers = items.map(paperOf).sort((a, b) => cmp(b.date, a.date)
		|| cmp(a.title.toLowerCase(), b.title.toLowerCase())
		|| cmp(a.slug, b.slug)); // sitegen's order: newest first, then title (case-folded), then slug
	const authorSlugs = nameSlugs([...new Set(papers.flatMap((p) => p.authorNames))].sort());
	const tagSlugs = nameSlugs([...new Set(papers.flatMap((p) => p.tagNames))]
		.sort((a, b) => cmp(a.toLowerCase(), b.toLowerCase()) || cmp(a, b)));
	const authorsByName = new Map([...authorSlugs].map(([name, slug]) => [name, { name, slug, papers: [] }]));
	const tagsByName = new Map([...tagSlugs].map(([name, slug]) => [name, { name, slug, papers: [] }]));
	const keys = citeKeys(papers);
	const authorRanking = new Ranking(authorSlugs);
	const tagRanking = new Ranking(tagSlugs);
	const bySlug = new Map();
	papers.forEach((p, i) => {
		p.citeKey = keys.get(p.slug);
		p.newer = i > 0 ? papers[i - 1] : null;
		p.older = i + 1 < papers.length ? papers[i + 1] : null;
		p.authors = p.authorNames.map((n) => authorsByName.get(n));
		p.tags = p.tagNames.map((n) => tagsByName.get(n));
		p.authorRanks = p.authorNames.map((n) => authorRanking.rank.get(n));
		p.tagRanks = p.tagNames.map((n) => tagRanking.rank.get(n));
		p.titleHtml = textWithMath(p.title);
		p.abstractHtml = textWithMath(p.abstract);
		p.summaryHtml = summaryHtml(p.abstract);
		p.description = p.abstract.length > 250 ? p.abstract.slice(0, 250) + "…" : p.abstract;
		for (const a of p.authors) a.papers.push(p);
		for (const t of p.tags) t.papers.push(p);
		bySlug.set(p.slug, p);
	});

	const authors = [...authorsByName.values()]
		.sort((a, b) => cmp(sortName(a.name), sortName(b.name)) || cmp(a.name, b.name));
	const letters = new Map();
	for (const a of authors) {
		const co = new Map();
		const topics = new Map();
		for (const p of a.papers) {
			for (const r of p.authorRanks) count(co, r);
			for (const r of p.tagRanks) count(topics, r);
		}
		co.delete(authorRanking.rank.get(a.name));
		a.coauthors = authorRanking.top(co, MAX_COAUTHORS);
		a.coauthorTotal = co.size;
		a.topics = tagRanking.top(topics, MAX_TOPICS);
		a.feed = feedOf(`authors/${a.slug}/`, `${SITE.title}: papers by ${a.name}`, a.papers.slice(0, TOPIC_FEED_SIZE));
		const family = words(a.name).at(-1) ?? "#";
		const initial = family[0].toUpperCase();
		const letter = /^[A-Z]$/.test(initial) ? initial : "#";
		if (!letters.has(letter)) letters.set(letter, []);
		letters.get(letter).push(a);
	}

	const tags = [...tagsByName.values()]; // A–Z, as tagSlugs
	for (const t of tags) {
		const related = new Map();
		for (const p of t.papers) for (const r of p.tagRanks) count(related, r);
		related.delete(tagRanking.rank.get(t.name));
		t.related = tagRanking.top(related, MAX_RELATED);
		t.feed = feedOf(`tags/${t.slug}/`, `${SITE.title}: ${t.name}`, t.papers.slice(0, TOPIC_FEED_SIZE));
	}
	const tagsByCount = [...tags].sort((a, b) => b.papers.length - a.papers.length
		|| cmp(a.name.toLowerCase(), b.name.toLowerCase()));

	const byYear = new Map();
	for (const p of papers) {
		if (!byYear.has(p.year)) byYear.set(p.year, []);
		byYear.get(p.year).push(p);
	}
	const years = [...byYear].sort((a, b) => b[0] - a[0]).map(([year, own]) => {
		const months = new Map();
		for (const p of own) {
			if (!months.has(p.month)) months.set(p.month, []);
			months.get(p.month).push(p);
		}
		return { year, slug: String(year), url: `timeline/${year}/`, papers: own,
			months: [...months].sort((a, b) => b[0] - a[0])
				.map(([number, list]) => ({ number, name: MONTH_NAMES[number - 1], papers: list })) };
	});
	years.forEach((y, i) => {
		y.newer = years[i - 1] ?? null;
		y.older = years[i + 1] ?? null;
	});

	const recent = papers.filter((p) => p.added).sort((a, b) => cmp(b.added, a.added)); // stable: newest-first ties
	const recentDays = [];
	for (const p of recent.slice(0, RECENT_SIZE)) {
		if (recentDays.at(-1)?.day !== p.added) recentDays.push({ day: p.added, papers: [] });
		recentDays.at(-1).papers.push(p);
	}
	const pageCount = Math.max(1, Math.ceil(papers.length / SITE.pageSize));
	const sitemap = ["", ...Array.from({ length: pageCount - 1 }, (_, i) => `page/${i + 2}/`), ...papers.map((p) => p.url),
		"authors/", ...authors.map((a) => `authors/${a.slug}/`), "tags/", ...tags.map((t) => `tags/${t.slug}/`),
		"categories/", "timeline/", ...years.map((y) => y.url), "recent/", "search/"];
	return {
		papers, bySlug, authors, tags, years, letters: [...letters].sort((a, b) => cmp(a[0], b[0])),
		tagsByCount, topTags: tagsByCount.slice(0, HOME_TAGS),
		largestTag: Math.max(1, ...tags.map((t) => t.papers.length)),
		largestYear: Math.max(1, ...years.map((y) => y.papers.length)),
		recent, recentDays, recentShown: Math.min(RECENT_SIZE, recent.length), pageCount, sitemap,
		feed: feedOf("", SITE.title, papers.slice(0, FEED_SIZE), "feed.xml"),
		recentFeed: feedOf("recent/", `${SITE.title}: recently added`, recent.slice(0, FEED_SIZE)),
	};
}

/** A feed's head (sitegen.feeds.feed_context): title, id, links and `updated` from its newest date. */
function feedOf(alt, title, papers, output = `${alt}feed.xml`) {
	const updated = papers.reduce((max, p) => {
		const day = p.added > p.date ? p.added : p.date;
		return day > max ? day : max;
	}, "1970-01-01");
	return { title, id: `urn:uuid:${uuid5(FEED_NAMESPACE, output)}`, selfUrl: `${SITE.absolute}/${output}`,
		altUrl: `${SITE.absolute}/${alt}`, updated: `${updated}T00:00:00Z`, papers };
}

/** A paper's feed entry id: sitegen.feeds.entry_id. */
export function entryId(p) {
	return p._entryId ?? (p._entryId = `urn:uuid:${uuid5(FEED_NAMESPACE, p.slug)}`);
}
