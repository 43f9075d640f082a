/* sitegen: small progressive enhancements. The site works without this file. */
(function () {
  "use strict";
  // Opened from disk (file://), a folder's address shows the folder, not its page: every link and form of the
  // site that ends in "/" is pointed at the folder's index.html. Served over HTTP, links stay as they are.
  if (window.location.protocol === "file:") {
    var toPage = function (element, attribute) {
      var url = new URL(element.getAttribute(attribute), document.baseURI);
      if (url.protocol !== "file:" || url.pathname.slice(-1) !== "/") return;
      url.pathname += "index.html";
      element.setAttribute(attribute, url.href);
    };
    document.querySelectorAll("a[href]").forEach(function (a) { toPage(a, "href"); });
    document.querySelectorAll("form[action]").forEach(function (form) { toPage(form, "action"); });
  }
  // "/" focuses the search box, as on most documentation sites.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var box = document.querySelector("#search input[type=search]") || document.getElementById("site-search");
    if (box) { event.preventDefault(); box.focus(); }
  });
  // "Cite them" on author, tag and category pages: the papers' own citation files fetched and joined as the
  // whole list's files join them (no file per author or tag is published), then saved as one download.
  var FORMATS = {
    bib: { type: "application/x-bibtex", join: function (texts) { return texts.join("\n"); } },
    ris: { type: "application/x-research-info-systems", join: function (texts) { return texts.join(""); } },
    json: { type: "application/vnd.citationstyles.csl+json", join: function (texts) {
      // each cite.json is "[\n<item>\n]\n": the items become the lines of one array
      var items = texts.map(function (text) {
        if (text.slice(0, 2) !== "[\n" || text.slice(-3) !== "\n]\n") throw new Error("not a CSL-JSON array");
        return text.slice(2, -3);
      });
      return items.length ? "[\n" + items.join(",\n") + "\n]\n" : "[]\n";
    } }
  };
  var gather = function (urls, status) {
    var texts = new Array(urls.length), next = 0, done = 0;
    var worker = function () {
      if (next >= urls.length) return Promise.resolve();
      var at = next++;
      return fetch(urls[at]).then(function (response) {
        if (!response.ok) throw new Error(urls[at] + ": " + response.status);
        return response.text();
      }).then(function (text) {
        texts[at] = text;
        done += 1;
        if (urls.length > 20) status.textContent = " · gathering " + done + " of " + urls.length + "…";
        return worker();
      });
    };
    var workers = [];
    for (var i = 0; i < Math.min(8, urls.length); i++) workers.push(worker());
    return Promise.all(workers).then(function () { return texts; });
  };
  var save = function (text, type, name) {
    var url = URL.createObjectURL(new Blob([text], { type: type }));
    var link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  };
  if (window.fetch && window.Blob && window.URL && window.location.protocol !== "file:") {
    document.querySelectorAll(".cite-bundle[data-papers]").forEach(function (bundle) {
      var slugs = bundle.getAttribute("data-papers").split(" ").filter(Boolean);
      var root = bundle.getAttribute("data-root") || "";
      var status = bundle.querySelector(".cite-status");
      bundle.hidden = false;
      bundle.querySelectorAll("button[data-format]").forEach(function (button) {
        button.addEventListener("click", function () {
          var format = button.getAttribute("data-format"), kind = FORMATS[format];
          var urls = slugs.map(function (slug) { return root + "papers/" + slug + "/cite." + format; });
          button.disabled = true;
          gather(urls, status).then(function (texts) {
            save(kind.join(texts), kind.type, bundle.getAttribute("data-name") + "." + format);
            status.textContent = "";
          }).catch(function () {
            status.textContent = " · could not gather every citation: try again, or use each paper's own files";
          }).then(function () { button.disabled = false; });
        });
      });
    });
  }
  // "Copy BibTeX" buttons: shown only where the clipboard can be written.
  if (navigator.clipboard) {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var source = document.querySelector(button.getAttribute("data-copy"));
      if (!source) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(source.textContent).then(function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = "Copy BibTeX"; }, 1500);
        });
      });
    });
  }
})();
