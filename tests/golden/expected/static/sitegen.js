/* sitegen: small progressive enhancements. The site works without this file. */
(function () {
  "use strict";
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
