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
