/* sitegen search page: a small, dependency-free UI over Pagefind's JavaScript API.
 *
 * The index is the Pagefind bundle that `sitegen build` writes to <site>/pagefind/, in shards; its address comes from
 * the page (data-bundle="{{ root }}pagefind/", relative), so the page works under a sub-path and without network.
 * State lives in the URL (?q=&tag=&author=&year=&category=&status=&rating=&sort=), so every result list can be linked.
 * Excerpts are untrusted: they are cut from the result's text (search-text.js) and shown as text nodes, with <mark>
 * elements round the matched words. The query box has the focus when the page opens with a query (the header's
 * box sends one), so the arrow keys reach the results at once.
 */
(function () {
  "use strict";

  var mount = document.getElementById("search");
  var text = window.SitegenSearchText;
  if (!mount || !text || !window.URL || !window.history) return;

  var FACETS = [
    { key: "tag", label: "Tag", noun: "tag", any: "Any tag" },
    // thousands of authors: a box that suggests names as they are typed, not a list to scroll
    { key: "author", label: "Author", noun: "author", any: "Any author", typeahead: true },
    { key: "year", label: "Year", noun: "year", any: "Any year" },
    { key: "category", label: "arXiv category", noun: "arXiv category", any: "Any category" },
    // the curator's fields: shown once the index holds a paper with one (a list may use neither)
    { key: "status", id: "search-reading-status", label: "Reading status", noun: "status", any: "Any status",
      optional: true },
    { key: "rating", label: "Rating", noun: "rating", any: "Any rating", optional: true }
  ];
  var SORTS = [
    { key: "", label: "Relevance", sort: null },
    { key: "newest", label: "Newest first", sort: { date: "desc" } },
    { key: "oldest", label: "Oldest first", sort: { date: "asc" } },
    { key: "rating", label: "Best rated", sort: { rating: "desc" } },
    { key: "upvotes", label: "Most upvotes", sort: { upvotes: "desc" } }
  ];
  var PAGE_SIZE = 20;
  var DEBOUNCE_MS = 160;
  var EXCERPT_WORDS = 28;
  // On phones the filters fold into a disclosure, so the results start on the first screen (search.css agrees).
  var PHONE = window.matchMedia("(max-width: 600px)");

  var bundle = new URL(mount.getAttribute("data-bundle") || "../pagefind/", document.baseURI);
  var siteRoot = new URL("../", bundle);
  var params = new URLSearchParams(window.location.search);

  var pagefind = null;
  var totals = {}; // facet -> value -> count over the whole index
  var generation = 0; // bumps with every search; late answers of older searches are dropped
  var timer = 0;
  var pending = []; // results not yet rendered ("Show more")
  var words = null; // a promise of the suggestion vocabulary, fetched the first time a query finds nothing

  // ---- DOM helpers ---------------------------------------------------------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  // The excerpt as a paragraph of text nodes and <mark> elements (see search-text.js); null when there is none.
  function excerptParagraph(data) {
    var cut = text.excerpt(data, EXCERPT_WORDS);
    if (!cut || !cut.parts.length) return null;
    var names = ["result-excerpt"];
    if (cut.cutStart) names.push("cut-start");
    if (cut.cutEnd) names.push("cut-end");
    return el("p", { class: names.join(" ") }, cut.parts.map(function (part) {
      return part.mark ? el("mark", { text: part.text }) : document.createTextNode(part.text);
    }));
  }

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  // ---- the index ------------------------------------------------------------------------------------------------
  // The index is cut into shards of consecutive papers, oldest first (sitegen-search.json lists them), each a
  // Pagefind bundle searched by an instance of its own Pagefind script. A search runs in every shard; the answers
  // are merged as Pagefind merges indexes (by score), or, sorted by date, shard after shard; filter counts add up.
  function addCounts(all) {
    var sum = {};
    all.forEach(function (filters) {
      Object.keys(filters || {}).forEach(function (key) {
        var into = sum[key] = sum[key] || {};
        Object.keys(filters[key]).forEach(function (value) { into[value] = (into[value] || 0) + filters[key][value]; });
      });
    });
    return sum;
  }

  function merged(shards) {
    return {
      filters: function () {
        return Promise.all(shards.map(function (s) { return s.filters(); })).then(addCounts);
      },
      preload: function (term, options) {
        shards.forEach(function (s) { s.preload(term, options); });
      },
      search: function (term, options) {
        return Promise.all(shards.map(function (s) { return s.search(term, options); })).then(function (answers) {
          var sort = options && options.sort ? Object.keys(options.sort)[0] : null;
          var date = sort === "date" ? options.sort.date : null;
          var order = date === "desc" ? answers.slice().reverse() : answers;
          var results = [].concat.apply([], order.map(function (a) { return a.results; }));
          if (!sort) results.sort(function (a, b) { return b.score - a.score; });
          var answer = { results: results, filters: addCounts(answers.map(function (a) { return a.filters; })),
                         totalFilters: addCounts(answers.map(function (a) { return a.totalFilters; })) };
          if (!sort || date || shards.length < 2) return answer;
          // A rating or upvotes sort: each shard's results come sorted, merged here by the value in their meta
          return Promise.all(results.map(function (r) {
            return r.data().then(function (d) { return { r: r, v: Number((d.meta || {})[sort]) || 0 }; });
          })).then(function (valued) {
            valued.sort(function (a, b) { return b.v - a.v; });
            answer.results = valued.map(function (x) { return x.r; });
            return answer;
          });
        });
      }
    };
  }

  function openIndex() {
    return fetch(new URL("sitegen-search.json", bundle).href).then(function (response) {
      if (!response.ok) throw Object.assign(new Error("no search index here"), { missing: true });
      return response.json();
    }).then(function (manifest) {
      var places = manifest.shards.map(function (shard) { return new URL(shard.path, bundle); });
      if (!places.length) return merged([]);  // a list with no papers yet
      // Each shard through its own copy of the script: Pagefind's WebAssembly glue keeps one module per script, so
      // instances of one script overwrite each other's index as they load (a trap, "unreachable", at random).
      return Promise.all(places.map(function (place) {
        return import(new URL("pagefind.js", place).href).then(function (module) {
          var shard = module.createInstance({ basePath: place.pathname });
          return shard.options({ baseUrl: siteRoot.pathname, excerptLength: EXCERPT_WORDS }).then(function () {
            return shard;
          });
        });
      })).then(merged);
    });
  }

  // ---- the interface ---------------------------------------------------------------------------------------------
  var input = el("input", {
    id: "search-query", type: "search", name: "q", autocomplete: "off", spellcheck: "false",
    placeholder: "e.g. speculative decoding", "aria-describedby": "search-hint",
    "aria-controls": "search-results"
  });
  input.value = params.get("q") || "";
  var form = el("form", { class: "search-form", role: "search", "aria-label": "Search the reading list" }, [
    el("label", { for: "search-query", class: "search-label", text: "Search titles, authors, abstracts and notes" }),
    el("div", { class: "search-box" }, [input]),
    el("p", { id: "search-hint", class: "search-hint muted",
              text: "Arrow keys move through the results, Enter opens one, Escape comes back here." })
  ]);

  var selects = {};
  var fields = {};
  var suggestions = {}; // typeahead facet -> its <datalist>
  var known = {}; // typeahead facet -> the values it suggests now
  var facetControls = FACETS.map(function (facet) {
    var id = facet.id || "search-" + facet.key;
    var select = facet.typeahead
      ? el("input", { id: id, name: facet.key, type: "search", list: id + "-names", autocomplete: "off",
                      spellcheck: "false", placeholder: facet.any, disabled: true })
      : el("select", { id: id, name: facet.key, disabled: true }, [el("option", { value: "", text: facet.any })]);
    selects[facet.key] = select;
    if (facet.typeahead) suggestions[facet.key] = el("datalist", { id: id + "-names" });
    fields[facet.key] = el("div", { class: "search-field", hidden: !!facet.optional }, [
      el("label", { for: select.id, text: facet.label }), select, suggestions[facet.key]
    ]);
    return fields[facet.key];
  });
  var sortSelect = el("select", { id: "search-sort", name: "sort", disabled: true }, SORTS.map(function (s) {
    return el("option", { value: s.key, text: s.label });
  }));
  var wantedSort = params.get("sort") || "";
  sortSelect.value = SORTS.some(function (s) { return s.key === wantedSort; }) ? wantedSort : "";
  var clearButton = el("button", { type: "button", class: "search-clear", hidden: true, text: "Clear filters" });
  var sortField = el("div", { class: "search-field" }, [
    el("label", { for: "search-sort", text: "Sort by" }), sortSelect
  ]);
  var legend = el("legend", { class: "visually-hidden", text: "Filter and sort the results" });
  var activeCount = el("span", { class: "search-controls-count" });
  var controls = el("details", { class: "search-controls" }, [
    el("summary", {}, ["Filter and sort", activeCount]),
    el("fieldset", { class: "search-filters" }, [legend].concat(facetControls, [sortField]))
  ]);
  controls.open = !PHONE.matches;
  PHONE.addEventListener("change", function () { controls.open = !PHONE.matches; });
  var status = el("p", { id: "search-status", class: "search-status", role: "status", "aria-live": "polite" });
  var summary = el("div", { class: "search-summary" }, [status, clearButton]);
  var list = el("ol", { id: "search-results", class: "search-results", "aria-label": "Search results" });
  var more = el("button", { type: "button", class: "search-more", hidden: true, text: "Show more results" });

  mount.textContent = "";
  [form, controls, summary, list, more].forEach(function (node) { mount.appendChild(node); });
  // Arriving with a query (from the header's box, or a link): the box has the focus, the caret after the query.
  if (input.value) {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }

  function selectedFilters() {
    var filters = {};
    FACETS.forEach(function (facet) {
      var value = selects[facet.key].value || params.get(facet.key);
      if (value && facet.key === "rating") value = String(parseInt(value, 10) || "");  // "4 of 5", as links had
      if (value) filters[facet.key] = value;
    });
    return filters;
  }

  // The filters as Pagefind takes them: an author typed in part ("gupta") stands for every author it is part of.
  function indexFilters(filters) {
    var out = {};
    Object.keys(filters).forEach(function (key) {
      var value = filters[key];
      var known = totals[key] || {};
      if (key === "author" && !known[value]) {
        var part = value.toLowerCase();
        var names = Object.keys(known).filter(function (name) { return name.toLowerCase().indexOf(part) >= 0; });
        out[key] = names.length ? { any: names } : value;
      } else {
        out[key] = value;
      }
    });
    return out;
  }

  // Each chosen facet's values counted with the other filters alone, so the other values stay offered
  function facetCounts(q, filters) {
    var chosen = Object.keys(filters);
    return Promise.all(chosen.map(function (key) {
      var others = {};
      chosen.forEach(function (k) { if (k !== key) others[k] = filters[k]; });
      if (!q && !Object.keys(others).length) return Promise.resolve(totals[key] || {});
      return pagefind.search(q || null, { filters: indexFilters(others) }).then(function (r) {
        return (r.filters || {})[key] || {};
      });
    })).then(function (counts) {
      var out = {};
      chosen.forEach(function (key, i) { out[key] = counts[i]; });
      return out;
    });
  }

  function currentSort() {
    var key = sortSelect.value;
    for (var i = 0; i < SORTS.length; i++) if (SORTS[i].key === key) return SORTS[i];
    return SORTS[0];
  }

  function writeUrl() {
    var next = new URLSearchParams();
    var q = input.value.trim();
    if (q) next.set("q", q);
    var filters = selectedFilters();
    FACETS.forEach(function (facet) { if (filters[facet.key]) next.set(facet.key, filters[facet.key]); });
    if (sortSelect.value) next.set("sort", sortSelect.value);
    params = next;
    var query = next.toString();
    window.history.replaceState(window.history.state, "", window.location.pathname + (query ? "?" + query : ""));
  }

  // Options "value (count)"; values without results are left out, except the one selected.
  function fillSelect(facet, counts) {
    var select = selects[facet.key];
    var chosen = select.value || params.get(facet.key) || "";
    var values = Object.keys(counts || {}).filter(function (v) { return counts[v] > 0 || v === chosen; });
    if (chosen && values.indexOf(chosen) < 0) values.push(chosen);
    values.sort(facet.key === "year" || facet.key === "rating"
      ? function (a, b) { return b.localeCompare(a); }
      : function (a, b) { return a.localeCompare(b, undefined, { sensitivity: "base" }); });
    var list = suggestions[facet.key];
    if (list) known[facet.key] = {};
    (list || select).textContent = "";
    if (!list) select.appendChild(el("option", { value: "", text: facet.any }));
    values.forEach(function (value) {
      var count = (counts && counts[value]) || 0;
      if (list) known[facet.key][value] = true;
      var shown = facet.key === "rating" ? value + " of 5" : value;
      (list || select).appendChild(el("option", list ? { value: value, label: plural(count, "paper", "papers") }
                                                    : { value: value, text: shown + " (" + count + ")" }));
    });
    select.value = chosen;
  }

  function fillSelects(response, chosenCounts) {
    var filters = selectedFilters();
    FACETS.forEach(function (facet) {
      var counts = totals[facet.key];
      if (response) counts = filters[facet.key] ? chosenCounts && chosenCounts[facet.key]
                                                 : response.filters && response.filters[facet.key];
      fillSelect(facet, counts || totals[facet.key] || {});
    });
    var active = Object.keys(filters).length + (sortSelect.value ? 1 : 0);
    clearButton.hidden = Object.keys(filters).length === 0;
    activeCount.textContent = active ? " (" + active + " active)" : "";
  }

  function describe(count, q, filters) {
    var text = count === 0 ? "No papers match" : plural(count, "paper matches", "papers match");
    if (q) text += " \u201c" + q + "\u201d";
    var parts = FACETS.filter(function (f) { return filters[f.key]; }).map(function (f) {
      return f.noun + " " + filters[f.key];
    });
    if (parts.length) text += (q ? " with " : " ") + parts.join(", ");
    return text + ".";
  }

  function resultItem(data, position) {
    var meta = data.meta || {};
    var filters = data.filters || {};
    var link = el("a", { href: data.url, class: "result-link", tabindex: position === 0 ? "0" : "-1",
                         text: meta.title || data.url });
    var facts = [];
    if (meta.date) facts.push(el("span", { class: "result-date", text: meta.date }));
    if (filters.category && filters.category.length) facts.push(el("span", { text: filters.category.join(", ") }));
    var authors = text.authorsLine(meta.authors);
    if (authors) facts.push(el("span", { class: "result-authors", text: authors }));
    var reading = filters.status && filters.status[0];
    if (reading) {
      facts.unshift(el("span", { class: "status status-" + reading,
                                 text: reading.charAt(0).toUpperCase() + reading.slice(1).replace("-", " ") }));
    }
    var rating = filters.rating && parseInt(filters.rating[0], 10);
    if (rating) {
      facts.push(el("span", { class: "rating", "aria-label": "rated " + rating + " of 5",
                              text: "\u2605".repeat(rating) }));
    }
    var item = el("li", { class: "result", "data-rating": rating || "", "data-upvotes": meta.upvotes || "" }, [
      el("h2", { class: "result-title" }, [link]),
      facts.length ? el("p", { class: "result-meta" }, facts) : null,
      excerptParagraph(data)
    ]);
    if (filters.tag && filters.tag.length) {
      item.appendChild(el("ul", { class: "result-tags", "aria-label": "Tags" }, filters.tag.map(function (t) {
        return el("li", { text: t });
      })));
    }
    return item;
  }

  function links() { return Array.prototype.slice.call(list.querySelectorAll("a.result-link")); }

  function focusResult(index) {
    var all = links();
    if (!all.length) return;
    index = Math.max(0, Math.min(index, all.length - 1));
    all.forEach(function (a, i) { a.setAttribute("tabindex", i === index ? "0" : "-1"); });
    all[index].focus();
  }

  function setState(state) { mount.setAttribute("data-state", state); }

  // The next batch of results as list items; the list is replaced (a new search) or extended ("Show more").
  function renderNext(mine, replace) {
    var batch = pending.splice(0, PAGE_SIZE);
    return Promise.all(batch.map(function (r) { return r.data(); })).then(function (datas) {
      if (mine !== generation) return false;
      if (replace) list.textContent = "";
      var start = links().length;
      datas.forEach(function (data, i) { list.appendChild(resultItem(data, start + i)); });
      more.hidden = pending.length === 0;
      more.textContent = "Show more results (" + pending.length + " more)";
      return true;
    });
  }

  var SHORT = "Type at least " + text.MIN_TERM + " letters to search.";

  function idle(short) {
    generation++;
    list.textContent = "";
    pending = [];
    more.hidden = true;
    status.textContent = short ? SHORT : "Type to search the reading list, or pick a filter to list its papers.";
    fillSelects(null);
    setState("idle");
  }

  // The results, or none when they only match a 1- or 2-letter start Pagefind fell back to for a word it lacks:
  // that fallback is the same for every result, so the first one tells.
  function genuine(results, q) {
    if (!q || !results.length) return Promise.resolve(results);
    return results[0].data().then(function (data) { return text.matchesTerms(data, q) ? results : []; });
  }

  function vocabulary() {
    if (!words) {
      words = fetch(new URL("sitegen-words.json", bundle).href)
        .then(function (response) { return response.ok ? response.json() : {}; })
        .then(function (data) { return text.vocabulary(Object.keys(totals.tag || {}), data.words || []); })
        .catch(function () { return []; });
    }
    return words;
  }

  // "Did you mean": the nearest title words and tags, offered only when they find papers with the same filters.
  function suggestion(q, filters) {
    return vocabulary().then(function (known) {
      var guess = text.suggest(q, known);
      if (!guess) return null;
      return pagefind.search(guess, { filters: indexFilters(filters) }).then(function (response) {
        return genuine(response.results, guess);
      }).then(function (results) { return results.length ? guess : null; });
    });
  }

  function offer(guess) {
    var next = new URLSearchParams(params);
    next.set("q", guess);
    var link = el("a", { href: "?" + next.toString(), class: "search-suggestion", text: guess });
    link.addEventListener("click", function (event) {
      event.preventDefault();
      input.value = guess;
      search();
      input.focus();
    });
    status.appendChild(document.createTextNode(" Did you mean "));
    status.appendChild(link);
    status.appendChild(document.createTextNode("?"));
  }

  function search() {
    clearTimeout(timer);
    writeUrl();
    if (!pagefind) return Promise.resolve();
    var typed = input.value.trim();
    var short = Boolean(typed) && text.tooShort(typed);
    var q = short ? "" : typed;
    var filters = selectedFilters();
    if (!q && Object.keys(filters).length === 0) { idle(short); return Promise.resolve(); }
    var mine = ++generation;
    setState("searching");
    var sort = currentSort().sort;
    var chosen = indexFilters(filters);
    var searches = [pagefind.search(q || null, { filters: chosen })];
    // A sort leaves out pages without its value (a date, a rating); those come after the others.
    if (sort) searches.push(pagefind.search(q || null, { filters: chosen, sort: sort }));
    var counted = facetCounts(q, filters);
    var response = null;
    return Promise.all(searches).then(function (answers) {
      response = answers[0];
      var results = response.results;
      if (sort) {
        var seen = {};
        answers[1].results.forEach(function (r) { seen[r.id] = true; });
        results = answers[1].results.concat(results.filter(function (r) { return !seen[r.id]; }));
      }
      return genuine(results, q);
    }).then(function (results) {
      if (mine !== generation) return;
      if (!results.length) response = { filters: {}, totalFilters: {} };
      pending = results.slice();
      return Promise.all([renderNext(mine, true), results.length || !q ? null : suggestion(q, filters), counted])
        .then(function (done) {
          if (!done[0] || mine !== generation) return;
          fillSelects(response, done[2]);
          status.textContent = describe(results.length, q, filters) + (short ? " " + SHORT : "");
          if (done[1]) offer(done[1]);
          setState("done");
        });
    }).catch(function (error) {
      if (mine !== generation) return;
      status.textContent = "The search failed (" + (error && error.message ? error.message : "unknown error") +
        "). Reload the page to try again.";
      setState("failed");
    });
  }

  function schedule() {
    clearTimeout(timer);
    writeUrl();
    var typed = input.value.trim();
    if (pagefind) setState("searching");
    if (pagefind && typed && !text.tooShort(typed)) pagefind.preload(typed, { filters: selectedFilters() });
    timer = setTimeout(search, DEBOUNCE_MS);
  }

  function unavailable() {
    [input, sortSelect].forEach(function (c) { c.disabled = true; });
    controls.hidden = true;
    summary.hidden = true;
    list.textContent = "";
    more.hidden = true;
    status.textContent = "";
    setState("unavailable");
    // Opened from disk, the browser refuses to load the index (file:// has no origin): it may well be built.
    var fromDisk = window.location.protocol === "file:";
    var page = fromDisk ? "index.html" : "";
    var notice = el("div", { class: "notice search-unavailable" }, [
      fromDisk ? el("p", {}, [el("strong", { text: "Search needs the site served over HTTP." }),
        " Browsers do not let a page opened from disk load its search index: open it through ",
        el("code", { text: "sitegen serve" }), " or a web server."]) :
      el("p", {}, [el("strong", { text: "Search is not available on this copy of the site." }),
        " Its search index was not built (for example with ", el("code", { text: "sitegen build --no-search" }),
        ", or where Pagefind cannot run)."]),
      el("p", {}, ["Browse the ", el("a", { href: new URL("tags/" + page, siteRoot).pathname, text: "tags" }), " or the ",
        el("a", { href: new URL("authors/" + page, siteRoot).pathname, text: "authors" }), " instead."])
    ]);
    mount.insertBefore(notice, form);
    form.hidden = true;
  }

  // ---- events --------------------------------------------------------------------------------------------------
  form.addEventListener("submit", function (event) { event.preventDefault(); search(); });
  input.addEventListener("input", schedule);
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" && links().length) { event.preventDefault(); focusResult(0); }
  });
  FACETS.forEach(function (facet) {
    selects[facet.key].addEventListener("change", function () {
      params.delete(facet.key);
      search();
    });
    // a name picked from the suggestions, or the box emptied, filters at once; other typing waits for Enter
    if (facet.typeahead) selects[facet.key].addEventListener("input", function () {
      var value = selects[facet.key].value;
      if (value && !(known[facet.key] || {})[value]) return;
      params.delete(facet.key);
      search();
    });
  });
  sortSelect.addEventListener("change", search);
  clearButton.addEventListener("click", function () {
    FACETS.forEach(function (facet) { selects[facet.key].value = ""; params.delete(facet.key); });
    search();
    input.focus();
  });
  more.addEventListener("click", function () {
    var next = links().length;
    renderNext(generation, false).then(function (current) { if (current) focusResult(next); });
  });

  list.addEventListener("keydown", function (event) {
    var all = links();
    var index = all.indexOf(event.target);
    if (index < 0) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      if (index < all.length - 1) focusResult(index + 1);
      else if (!more.hidden) more.focus();
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      if (index > 0) focusResult(index - 1); else input.focus();
    } else if (event.key === "Home") {
      event.preventDefault(); focusResult(0);
    } else if (event.key === "End") {
      event.preventDefault(); focusResult(all.length - 1);
    } else if (event.key === "Escape") {
      event.preventDefault(); input.focus(); input.select();
    }
    // Enter follows the focused link, as links do.
  });
  more.addEventListener("keydown", function (event) {
    if (event.key === "ArrowUp") { event.preventDefault(); focusResult(links().length - 1); }
    if (event.key === "Escape") { event.preventDefault(); input.focus(); }
  });

  // "/" focuses this page's box rather than the header's (sitegen.js handles "/" on the other pages).
  window.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || input.disabled || form.hidden) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    event.preventDefault();
    event.stopPropagation();
    input.focus();
    input.select();
  }, true);

  // ---- start ---------------------------------------------------------------------------------------------------
  setState("loading");
  if (input.value.trim() || Object.keys(selectedFilters()).length) {
    status.textContent = "Loading the search index\u2026";
  }
  openIndex().then(function (index) {
    pagefind = index;
    return pagefind.filters();
  }).then(function (filters) {
    totals = filters || {};
    FACETS.forEach(function (facet) {
      selects[facet.key].disabled = false;
      var none = !Object.keys(totals[facet.key] || {}).length;
      if (facet.optional) fields[facet.key].hidden = none && !params.get(facet.key);
    });
    sortSelect.disabled = false;
    return search();
  }, function (error) {
    // Opened from disk, the browser refuses every fetch: the notice says why, whatever the error was.
    if ((error && error.missing) || window.location.protocol === "file:") return unavailable();
    // The index is there but would not load (a file lost in a deploy, a network error): not "never built".
    [input, sortSelect].forEach(function (c) { c.disabled = true; });
    status.textContent = "The search index could not be loaded (" + (error && error.message ? error.message :
      "unknown error") + "). Reload the page to try again.";
    setState("failed");
  });
})();
