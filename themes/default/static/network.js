/* sitegen: the co-author network page draws network/graph.json with Cytoscape.js (static/cytoscape.min.js).
   Places are worked out when the site is built, so the drawing only draws, pans and zooms. By keyboard: the
   drawing takes the focus; arrow keys move to the co-author in that direction, Enter opens their page, + and -
   zoom, 0 shows the whole drawing; "Find an author" selects one by name. Without this file (or JavaScript) the
   page lists every author drawn, by cluster. */
(function () {
  "use strict";
  var section = document.querySelector(".network[data-graph]");
  if (!section || typeof cytoscape !== "function") return;
  var box = document.getElementById("network-canvas");
  var status = document.getElementById("network-status");
  var find = document.getElementById("network-find");
  var root = section.getAttribute("data-root");
  var COLOURS = 8, LABELLED = 3;

  fetch(section.getAttribute("data-graph"))
    .then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    })
    .then(draw)
    .catch(function () {
      box.querySelector(".network-note").textContent =
        "The drawing could not be loaded. Every author it shows is listed below, by cluster.";
    });

  function colours() {
    var style = getComputedStyle(section), read = function (name) { return style.getPropertyValue(name).trim(); };
    var clusters = [];
    for (var i = 0; i < COLOURS; i++) clusters.push(read("--graph-" + i));
    return {clusters: clusters, none: read("--graph-none"), text: read("--text"), muted: read("--muted"),
            surface: read("--surface"), focus: read("--focus"), tie: read("--graph-tie")};
  }

  function sheet(c) {
    return [
      {selector: "node.author", style: {
        "width": "data(size)", "height": "data(size)", "background-color": "data(colour)", "z-index": "data(z)",
        "border-width": 1, "border-color": c.surface,
        "label": "data(name)", "font-size": "data(font)", "min-zoomed-font-size": 11, "color": c.text,
        "text-valign": "bottom", "text-margin-y": 2, "text-outline-color": c.surface, "text-outline-width": 2}},
      {selector: "node.cluster", style: {
        "width": 1, "height": 1, "background-opacity": 0, "events": "no", "label": "data(label)",
        "font-size": 20, "font-weight": "bold", "color": c.text, "text-valign": "top", "text-margin-y": -4,
        "text-wrap": "wrap", "text-outline-color": c.surface, "text-outline-width": 3}},
      {selector: "edge", style: {
        "curve-style": "haystack", "line-color": c.tie, "width": "mapData(weight, 1, 5, 0.6, 3)", "opacity": 0.5}},
      {selector: "edge.across", style: {"opacity": 0.12}},
      {selector: ".faded", style: {"opacity": 0.12, "text-opacity": 0}},
      {selector: "edge.near", style: {"opacity": 1, "line-color": c.text}},
      {selector: "node.author.near", style: {"font-size": 13, "min-zoomed-font-size": 0, "z-index": 5}},
      {selector: "node.author:selected", style: {
        "border-width": 4, "border-color": c.focus, "font-size": 15, "font-weight": "bold",
        "min-zoomed-font-size": 0, "z-index": 10}}
    ];
  }

  // The drawing's box as tall as the drawing needs at its width, within the screen: a phone shows it whole
  function fitHeight(nodes) {
    var w = 1, h = 1;
    nodes.forEach(function (n) { w = Math.max(w, n[0]); h = Math.max(h, n[1]); });
    var wanted = box.clientWidth * (h + 60) / w + 40;
    box.style.height = Math.round(Math.max(320, Math.min(wanted, window.innerHeight * 0.8))) + "px";
  }

  function draw(data) {
    var c = colours(), elements = [], names = document.getElementById("network-names");
    var largest = Math.max.apply(null, data.nodes.map(function (n) { return n[3]; }).concat([1]));
    var named = {};  // the authors named at first sight: each cluster's LABELLED with most papers
    data.nodes.forEach(function (n, i) {
      var share = Math.sqrt(n[3] / largest), rank = named[n[2]] = (named[n[2]] || 0) + 1;
      elements.push({group: "nodes", classes: "author", position: {x: n[0], y: n[1]}, data: {
        id: "n" + i, cluster: n[2], papers: n[3], name: n[4], slug: n[5], size: 8 + 26 * share,
        font: rank <= LABELLED ? 12 + 6 * share : 5.4, z: rank <= LABELLED ? 2 : 1, colour: n[2] < 0 ? c.none : c.clusters[n[2] % COLOURS]}});
      var option = document.createElement("option");
      option.value = n[4];
      names.appendChild(option);
    });
    data.edges.forEach(function (e, i) {
      var across = data.nodes[e[0]][2] !== data.nodes[e[1]][2] || data.nodes[e[0]][2] < 0;
      elements.push({group: "edges", classes: across ? "across" : "", data: {
        id: "e" + i, source: "n" + e[0], target: "n" + e[1], weight: e[2]}});
    });
    data.clusters.forEach(function (k, i) {
      var lines = k[0].split(" · ");
      elements.push({group: "nodes", classes: "cluster", position: {x: k[1], y: k[2]}, data: {
        id: "c" + i, label: lines.join("\n"), room: k[3] + 60,
        chars: Math.max.apply(null, lines.map(function (line) { return line.length; }))}});
    });
    box.textContent = "";
    fitHeight(data.nodes);
    var cy = cytoscape({container: box, elements: elements, layout: {name: "preset"}, style: sheet(c),
                        minZoom: 0.05, maxZoom: 6, autoungrabify: true, boxSelectionEnabled: false,
                        selectionType: "single"});
    // cluster names about 13 px high on the screen, as wide as their cluster at most, hidden while that would
    // make them smaller than 8 px (on a phone, until zoomed in: the list below names every cluster)
    var labels = cy.nodes(".cluster");
    function nameClusters() {
      var zoom = cy.zoom();
      labels.forEach(function (label) {
        var size = Math.min(Math.max(20, 13 / zoom), label.data("room") / (0.62 * label.data("chars")));
        label.style({"font-size": size, "text-opacity": size * zoom < 8 ? 0 : 1});
      });
    }
    cy.on("zoom", nameClusters);
    cy.fit(undefined, 16);
    nameClusters();
    var authors = cy.nodes(".author");
    box.setAttribute("tabindex", "0");
    box.setAttribute("role", "application");
    box.setAttribute("aria-roledescription", "co-author network");
    box.setAttribute("aria-label", "Co-author network of " + authors.length + " authors");
    box.setAttribute("aria-describedby", "network-keys");
    section.querySelector(".network-tools").hidden = false;
    document.getElementById("network-keys").hidden = false;
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () {
      c = colours();
      authors.forEach(function (node) {
        var k = node.data("cluster");
        node.data("colour", k < 0 ? c.none : c.clusters[k % COLOURS]);
      });
      cy.style(sheet(c));
    });
    var selected = null;

    function select(node, why) {
      cy.elements().removeClass("faded near");
      if (selected) selected.unselect();
      selected = node;
      if (!node) {
        status.textContent = why || "";
        box.removeAttribute("data-selected");
        return;
      }
      node.select();
      var around = node.closedNeighborhood();
      cy.elements().not(around).not(".cluster").addClass("faded");
      around.addClass("near");
      box.setAttribute("data-selected", node.data("slug"));
      show(node);
      say(node);
    }

    function show(node) {
      var at = node.renderedPosition(), margin = 40;
      if (at.x < margin || at.y < margin || at.x > box.clientWidth - margin || at.y > box.clientHeight - margin) {
        cy.center(node);
      }
    }

    function say(node) {
      var ties = node.connectedEdges().sort(function (a, b) { return b.data("weight") - a.data("weight"); });
      var most = ties.slice(0, 3).map(function (edge) {
        var other = edge.source().same(node) ? edge.target() : edge.source();
        return other.data("name") + " (" + edge.data("weight") + ")";
      });
      var papers = node.data("papers");
      status.textContent = "";
      var link = document.createElement("a");
      link.href = root + "authors/" + node.data("slug") + "/";
      link.textContent = node.data("name");
      status.appendChild(link);
      status.appendChild(document.createTextNode(": " + papers + (papers === 1 ? " paper" : " papers") +
        (most.length ? "; wrote most with " + most.join(", ") : "; no co-author drawn") + "."));
    }

    // The node that way from `node`: a co-author if one lies within 60 degrees of the direction, else the
    // nearest author that way; nearer and straighter ahead is better.
    function toward(node, dx, dy) {
      var from = node.position(), best = null, score = Infinity;
      var pick = function (candidates) {
        candidates.forEach(function (other) {
          if (other.same(node)) return;
          var p = other.position(), vx = p.x - from.x, vy = p.y - from.y, length = Math.hypot(vx, vy) || 1;
          var cos = (vx * dx + vy * dy) / length;
          if (cos < 0.5) return;
          var s = length * (2 - cos);
          if (s < score) { score = s; best = other; }
        });
      };
      pick(node.neighborhood("node.author"));
      if (!best) pick(authors);
      return best;
    }

    var MOVES = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
    box.addEventListener("focus", function () {
      if (!selected && authors.length) select(authors[0]);
    });
    box.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      var move = MOVES[event.key];
      if (move && selected) {
        var next = toward(selected, move[0], move[1]);
        if (next) select(next);
      } else if (event.key === "Enter" && selected) {
        window.location.href = root + "authors/" + selected.data("slug") + "/";
      } else if (event.key === "+" || event.key === "=") {
        zoom(1.4);
      } else if (event.key === "-") {
        zoom(1 / 1.4);
      } else if (event.key === "0") {
        cy.fit(undefined, 16);
      } else if (event.key === "Home" && authors.length) {
        select(authors[0]);
      } else if (event.key === "Escape") {
        select(null);
      } else {
        return;
      }
      event.preventDefault();
    });

    function zoom(factor) {
      var at = selected ? selected.renderedPosition() : {x: box.clientWidth / 2, y: box.clientHeight / 2};
      cy.zoom({level: cy.zoom() * factor, renderedPosition: at});
    }

    section.querySelectorAll("button[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom");
        if (how === "fit") cy.fit(undefined, 16);
        else zoom(how === "in" ? 1.4 : 1 / 1.4);
      });
    });
    cy.on("tap", "node.author", function (event) { select(event.target); });
    cy.on("dbltap", "node.author", function (event) {
      window.location.href = root + "authors/" + event.target.data("slug") + "/";
    });
    cy.on("tap", function (event) { if (event.target === cy) select(null); });

    function found(name) {
      var wanted = name.trim().toLowerCase();
      return wanted ? authors.filter(function (n) { return n.data("name").toLowerCase() === wanted; })[0] : null;
    }
    find.addEventListener("change", function () {
      var node = found(find.value);
      if (node) select(node);
      else if (find.value.trim()) select(null, "No author named “" + find.value.trim() + "” is drawn.");
    });
    find.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      var node = found(find.value);
      if (node) { select(node); box.focus(); }
    });

    var asked = new URLSearchParams(window.location.search).get("author");
    if (asked) {
      var node = authors.filter(function (n) { return n.data("slug") === asked; })[0];
      if (node) select(node);
      else select(null, "That author is not among those drawn: see the note above on who is.");
    }
    window.sitegenNetwork = cy;
  }
})();
