// Every paper (content/papers/<slug>.md, written by benchmarks/eleventy_site.py): the layout and sitegen's route.
export default {
	layout: "paper.njk",
	permalink: (data) => `papers/${data.slug}/index.html`,
};
