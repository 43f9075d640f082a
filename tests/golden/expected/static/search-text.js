/* sitegen search page: the text work behind search.js, with no DOM and no network (loaded before it).
 *
 * - Excerpts are cut from a result's own text after its header (the title and authors, which the result shows
 *   anyway): a paper page's indexed text runs title, authors, then its first heading (Abstract or Notes), which
 *   Pagefind records as an anchor. The words Pagefind matched are marked.
 * - A word missing from the index is cut back by Pagefind to its longest indexed prefix ("atention" searches
 *   "at", Pagefind/pagefind#780); results that only match a start that short are not results: a match shares
 *   at least 3 letters and half of the word with it ("installa" still finds "installation").
 * - "Did you mean": the nearest title word or tag to each query word, when a query finds nothing.
 */
(function () {
  "use strict";

  var MIN_TERM = 3; // a lone shorter word is not searched, and a match shares at least this many first letters

  function chars(text) { return Array.from(text).length; }

  // Lower case, accents and punctuation dropped: how Pagefind compares words (it drops dashes from queries too).
  function fold(word) {
    return String(word).toLowerCase().normalize("NFD").replace(/[^\p{L}\p{N}]+/gu, "");
  }

  function terms(query) { return String(query).trim().split(/\s+/).map(fold).filter(Boolean); }

  // True when every word of the query is shorter than 3 letters: "at" would list every paper with an "at…" word.
  function tooShort(query) {
    var all = terms(query);
    return all.length > 0 && all.every(function (t) { return chars(t) < MIN_TERM; });
  }

  function sharedStart(a, b) {
    var n = 0;
    while (n < a.length && n < b.length && a.charAt(n) === b.charAt(n)) n++;
    return n;
  }

  // The page's words as Pagefind numbers them (its match locations index this list), and how to join them.
  function words(data) {
    var raw = String(data.raw_content || data.content || "");
    if (raw.indexOf("\u200B") >= 0) {
      return { list: raw.split("\u200B").map(function (w) { return w.replace(/&lt;/g, "<").replace(/&gt;/g, ">"); }),
               joiner: "" };
    }
    return { list: String(data.content || "").split(/[\r\n\s]+/g), joiner: " " };
  }

  // Whether each query word of 3 letters or more matched a page word starting with the same 3 letters and half
  // of it, rather than only a shorter start of it that Pagefind fell back to.
  function matchesTerms(data, query) {
    var wanted = terms(query).filter(function (t) { return chars(t) >= MIN_TERM; });
    if (!wanted.length) return true;
    var list = words(data).list;
    var found = (data.locations || []).map(function (i) { return fold(list[i] || ""); });
    return wanted.every(function (t) {
      var need = Math.max(MIN_TERM, Math.ceil(t.length / 2));
      return found.some(function (w) { return sharedStart(t, w) >= need; });
    });
  }

  // Where a window of `length` words holding the most matches starts, a quarter of it before its first match.
  function windowStart(hits, start, end, length) {
    var lead = Math.floor(length / 4);
    var best = -1;
    var most = 0;
    for (var i = 0; i < hits.length; i++) {
      var count = 0;
      for (var j = i; j < hits.length && hits[j] < hits[i] + length - lead; j++) count++;
      if (count > most) { most = count; best = hits[i]; }
    }
    var from = best < 0 ? start : best - lead;
    return Math.max(start, Math.min(from, end - length));
  }

  // The excerpt of a result: {parts: [{text, mark}], cutStart, cutEnd}, or null when the page has no text past
  // its header. Plain text only: what the page says is shown as text, never read as HTML.
  function excerpt(data, length) {
    var w = words(data);
    var end = w.list.length;
    var anchors = (data.anchors || []).map(function (a) { return a.location; })
      .filter(function (n) { return typeof n === "number" && n >= 0; });
    var start = anchors.length ? Math.min.apply(null, anchors) : end;
    if (start >= end) return null;
    var hits = (data.locations || []).filter(function (l) { return l >= start && l < end; })
      .sort(function (a, b) { return a - b; });
    var from = windowStart(hits, start, end, length);
    var to = Math.min(end, from + length);
    var marked = {};
    hits.forEach(function (l) { marked[l] = true; });
    var parts = [];
    for (var i = from; i < to; i++) {
      var last = parts[parts.length - 1];
      var gap = i > from ? w.joiner : "";
      if (marked[i]) {
        if (gap) { if (last && !last.mark) last.text += gap; else parts.push({ text: gap, mark: false }); }
        parts.push({ text: w.list[i], mark: true });
      } else if (last && !last.mark) {
        last.text += gap + w.list[i];
      } else {
        parts.push({ text: gap + w.list[i], mark: false });
      }
    }
    return { parts: parts, cutStart: from > start, cutEnd: to < end };
  }

  // Optimal string alignment distance (edits, with a swap of neighbours as one), or limit + 1 when it is larger.
  function distance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var before = null;
    var previous = [];
    for (var j = 0; j <= b.length; j++) previous.push(j);
    for (var i = 1; i <= a.length; i++) {
      var row = [i];
      var smallest = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1;
        var d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
        if (before && i > 1 && j > 1 && a.charAt(i - 1) === b.charAt(j - 2) && a.charAt(i - 2) === b.charAt(j - 1)) {
          d = Math.min(d, before[j - 2] + 1);
        }
        row.push(d);
        smallest = Math.min(smallest, d);
      }
      if (smallest > limit) return limit + 1;
      before = previous;
      previous = row;
    }
    return Math.min(previous[b.length], limit + 1);
  }

  // The query with each word the vocabulary lacks replaced by its nearest word there (one edit for words of up to
  // 4 letters, two for longer ones; ties go to the word listed first); null when nothing was replaced.
  function suggest(query, vocabulary) {
    var known = {};
    vocabulary.forEach(function (v) { known[v] = true; });
    var changed = false;
    var out = String(query).trim().split(/\s+/).map(function (word) {
      var t = word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
      if (chars(t) < MIN_TERM || known[t]) return word;
      var limit = t.length <= 4 ? 1 : 2;
      var best = null;
      var nearest = limit + 1;
      vocabulary.forEach(function (v) {
        var d = distance(t, v, nearest - 1);
        if (d < nearest) { nearest = d; best = v; }
      });
      if (best === null) return word;
      changed = true;
      return best;
    });
    return changed ? out.join(" ") : null;
  }

  // The words suggestions are drawn from: the tags (whole and by their parts), then the title words.
  function vocabulary(tags, titleWords) {
    var seen = {};
    var out = [];
    function add(word) {
      var w = String(word).toLowerCase();
      if (chars(w) >= MIN_TERM && !seen[w]) { seen[w] = true; out.push(w); }
    }
    tags.forEach(function (tag) { add(tag); String(tag).split(/[-_\s]+/).forEach(add); });
    titleWords.forEach(add);
    return out;
  }

  // The "authors" metadata of paper.html in words: it holds up to three names or the count of unnamed authors,
  // " \u2026" when there are more, then those of them with a page on the site (only names, which the page's text
  // has, and digits: Pagefind indexes metadata as well).
  function authorsLine(value) {
    var parts = String(value || "").split("\u2026").map(function (s) { return s.trim(); });
    var head = parts[0];
    var tail = parts.length > 1 ? parts[1] : "";
    if (/^\d+$/.test(head)) head += head === "1" ? " author" : " authors";
    else if (head && parts.length > 1) head += " et al.";
    if (!tail) return head;
    return head ? head + ", including " + tail : "Including " + tail;
  }

  window.SitegenSearchText = {
    MIN_TERM: MIN_TERM, tooShort: tooShort, matchesTerms: matchesTerms, excerpt: excerpt,
    distance: distance, suggest: suggest, vocabulary: vocabulary, authorsLine: authorsLine
  };
})();
