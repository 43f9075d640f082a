/* sitegen: the co-author network page. The drawing is an SVG made when the site is built, each author a link to
   their page, so it works without this file. This adds: the panel (pointing at, tapping or tabbing to an author
   shows their papers on the list and their co-authors), one tab stop for the drawing with arrow keys between
   authors, and "Find an author", which matches any part of a name in the drawing and in the list. */
(function () {
  "use strict";
  var svg = document.getElementById("network-drawing"), source = document.getElementById("network-data");
  var section = document.querySelector(".network[data-root]");
  if (!svg || !source || !section) return;
  var data = JSON.parse(source.textContent), root = section.getAttribute("data-root");
  var people = [].slice.call(svg.querySelectorAll(".net-people a"));
  var ties = svg.querySelector(".net-ties").children;
  var panel = document.getElementById("network-panel"), find = document.getElementById("network-find");
  var status = document.getElementById("network-status");
  var items = [].slice.call(document.querySelectorAll("#network-list li[data-i]"));
  var NS = "http://www.w3.org/2000/svg", current = -1, touched = false, marked = [];
  var near = people.map(function () { return []; });
  data.ties.forEach(function (t, k) { near[t[0]].push([t[1], k, t[2]]); near[t[1]].push([t[0], k, t[2]]); });
  near.forEach(function (mine) { mine.sort(function (a, b) { return b[2] - a[2] || a[0] - b[0]; }); });
  var who = people.map(function (a) {
    var said = /^(.*), (\d+) papers?$/.exec(a.querySelector("title").textContent);
    return {name: said[1], papers: +said[2], href: a.getAttribute("href"), dot: a.querySelector("circle")};
  });
  var folded = who.map(function (p) { return fold(p.name); });
  var tip = document.createElementNS(NS, "text");
  tip.setAttribute("class", "net-tip");
  tip.setAttribute("aria-hidden", "true");

  function fold(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ł/g, "l").replace(/ø/g, "o");
  }

  function element(tag, text, href) {
    var made = document.createElement(href ? "a" : tag);
    if (href) made.href = href;
    if (text) made.textContent = text;
    return made;
  }

  function mark(node, name) { node.classList.add(name); marked.push([node, name]); }

  function select(i) {
    marked.forEach(function (m) { m[0].classList.remove(m[1]); });
    marked = [];
    if (tip.parentNode) tip.parentNode.removeChild(tip);
    if (current >= 0) people[current].setAttribute("tabindex", "-1");
    current = i;
    svg.classList.toggle("focusing", i >= 0);
    if (i < 0) { people[0].setAttribute("tabindex", "0"); section.removeAttribute("data-selected"); return; }
    people[i].setAttribute("tabindex", "0");
    mark(people[i], "on");
    near[i].forEach(function (n) { mark(people[n[0]], "near"); mark(ties[n[1]], "near"); });
    if (!people[i].querySelector("text")) {  // a dot drawn without its name gets it while selected
      var r = +who[i].dot.getAttribute("r");
      tip.setAttribute("x", +who[i].dot.getAttribute("cx") + r + 3);
      tip.setAttribute("y", +who[i].dot.getAttribute("cy") + 4);
      tip.textContent = who[i].name;
      svg.appendChild(tip);
    }
    section.setAttribute("data-selected", who[i].href.split("/").slice(-2)[0]);
    show(i);
  }

  function show(i) {
    var p = who[i], box = document.createDocumentFragment(), heading = element("h2");
    heading.id = "network-panel-heading";
    heading.appendChild(element("a", p.name, p.href));
    box.appendChild(heading);
    var mine = data.people[i], listed = element("ul");
    box.appendChild(element("p", p.papers + (p.papers === 1 ? " paper" : " papers") + " on this list" +
      (p.papers > mine.length ? ", the newest " + mine.length + ":" : ":")));
    mine.forEach(function (k) {
      var li = element("li");
      li.appendChild(element("a", data.papers[k][0], root + "papers/" + data.papers[k][1] + "/"));
      listed.appendChild(li);
    });
    box.appendChild(listed);
    if (p.papers > mine.length) {
      var more = element("p");
      more.appendChild(element("a", "All " + p.papers + " papers on their page", p.href));
      box.appendChild(more);
    }
    if (near[i].length) {
      var with_ = element("p", "Wrote with ");
      near[i].forEach(function (n, k) {
        if (k) with_.appendChild(document.createTextNode(", "));
        with_.appendChild(element("a", who[n[0]].name, who[n[0]].href));
        if (n[2] > 1) with_.appendChild(document.createTextNode(" (" + n[2] + ")"));
      });
      with_.appendChild(document.createTextNode("."));
      box.appendChild(with_);
    }
    panel.textContent = "";
    panel.appendChild(box);
  }

  function index(target) {
    var link = target.closest ? target.closest(".net-people a") : null;
    return link ? people.indexOf(link) : -1;
  }

  // The author that way from author i: a co-author within 60 degrees of the direction if there is one, else the
  // nearest author that way; nearer and straighter ahead is better.
  function toward(i, dx, dy) {
    var x = +who[i].dot.getAttribute("cx"), y = +who[i].dot.getAttribute("cy"), best = -1, score = Infinity;
    function pick(candidates) {
      candidates.forEach(function (n) {
        if (n === i) return;
        var vx = who[n].dot.getAttribute("cx") - x, vy = who[n].dot.getAttribute("cy") - y;
        var length = Math.hypot(vx, vy) || 1, cos = (vx * dx + vy * dy) / length;
        if (cos >= 0.5 && length * (2 - cos) < score) { score = length * (2 - cos); best = n; }
      });
    }
    pick(near[i].map(function (n) { return n[0]; }));
    if (best < 0) pick(people.map(function (_, n) { return n; }));
    return best;
  }

  var MOVES = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
  svg.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || current < 0) return;
    var move = MOVES[event.key], next = -1;
    if (move) next = toward(current, move[0], move[1]);
    else if (event.key === "Home") next = 0;
    else if (event.key === "Escape") { people[current].blur(); select(-1); }
    else return;
    event.preventDefault();
    if (next >= 0) people[next].focus();
  });
  svg.addEventListener("focusin", function (event) { if (index(event.target) >= 0) select(index(event.target)); });
  // pointing selects after a moment, so a pointer on its way to the panel does not select each dot it crosses
  var waiting = 0;
  svg.addEventListener("mouseover", function (event) {
    var i = index(event.target);
    clearTimeout(waiting);
    if (i >= 0 && i !== current) waiting = setTimeout(function () { select(i); }, 120);
  });
  svg.addEventListener("mouseout", function () { clearTimeout(waiting); });
  // a tap shows the author, a second tap opens their page (the tap's focus selects them before its click comes)
  var before = -1;
  svg.addEventListener("pointerdown", function (event) { touched = event.pointerType !== "mouse"; before = current; });
  svg.addEventListener("click", function (event) {
    var i = index(event.target);
    if (i >= 0 && touched && i !== before) { event.preventDefault(); select(i); before = i; }
  });

  var hits = [];
  function filter() {
    var wanted = fold(find.value.trim()), names = [];
    hits = [];
    folded.forEach(function (name, i) {
      var hit = wanted !== "" && name.indexOf(wanted) >= 0;
      people[i].classList.toggle("match", hit);
      if (hit) { hits.push(i); names.push(who[i].name); }
    });
    svg.classList.toggle("finding", wanted !== "");
    items.forEach(function (li) { li.hidden = wanted !== "" && hits.indexOf(+li.getAttribute("data-i")) < 0; });
    document.querySelectorAll("#network-list .cluster").forEach(function (group) {
      group.hidden = !group.querySelector("li[data-i]:not([hidden])");
    });
    status.textContent = !wanted ? "" : !hits.length ? "No author drawn matches “" + find.value.trim() + "”." :
      hits.length + (hits.length === 1 ? " author matches: " : " authors match: ") + names.slice(0, 5).join(", ") +
      (hits.length > 5 ? ", …" : "") + ". Enter shows the first.";
    if (hits.length) select(hits[0]);
  }
  find.addEventListener("input", filter);
  find.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !hits.length) return;
    event.preventDefault();
    reach(hits[0]);
  });

  function drawn() { return svg.getBoundingClientRect().width > 0; }

  function reach(i) {  // the author's dot when the drawing shows, else their line of the list
    if (drawn()) { people[i].focus(); return; }
    select(i);
    var link = items.filter(function (li) { return +li.getAttribute("data-i") === i; })[0].querySelector("a");
    link.focus();
  }

  people.forEach(function (a, i) { a.setAttribute("tabindex", i ? "-1" : "0"); });
  svg.setAttribute("aria-describedby", "network-keys");
  var keys = element("p", "In the drawing, arrow keys move between authors, Enter opens their page.");
  keys.id = "network-keys";
  keys.className = "visually-hidden";
  section.appendChild(keys);
  section.querySelector(".net-tools").hidden = false;
  panel.appendChild(element("p", "Point at an author, tap one or tab to the drawing: their papers show here."));
  var asked = new URLSearchParams(window.location.search).get("author");
  var wanted = asked ? who.map(function (p) { return p.href; }).indexOf(root + "authors/" + asked + "/") : -1;
  if (wanted >= 0) {
    select(wanted);
    var item = items.filter(function (li) { return +li.getAttribute("data-i") === wanted; })[0];
    if (!drawn()) { item.classList.add("asked"); item.scrollIntoView({block: "center"}); }
  } else if (asked) {
    status.textContent = "That author is not among those drawn: see the note under the drawing on who is.";
  }
  section.setAttribute("data-ready", "");
})();
