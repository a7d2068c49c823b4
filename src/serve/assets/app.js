// xpgn serve: the analysis board of the game page. Every page works
// without this script (the steps and moves are plain links, the server
// draws each position); with it, the game page steps without reloading,
// moves can be made on the board, and a line made there can be exported.
// It builds nothing from markup strings: text goes in as text, and the
// board is the server's SVG, parsed as XML.
(function () {
  "use strict";

  var board = document.getElementById("board");

  function typing(e) {
    var t = e.target;
    return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA");
  }

  openForm();
  editor();

  // The board editor: pick a piece of the palette (or the eraser), click
  // squares; the position string of the form follows the board.
  function editor() {
    var box = document.getElementById("editor-board");
    if (!box) return;
    var svg = box.querySelector("svg");
    var palette = document.getElementById("palette");
    var fenField = document.getElementById("f-fen");
    var turn = document.getElementById("editor-turn");
    var castling = document.getElementById("editor-castling");
    var hand = document.getElementById("editor-hand");
    var letters = {};
    var tool = null;
    palette.querySelectorAll("g.palette-piece").forEach(function (g) {
      letters[g.dataset.piece] = g.dataset.letter;
    });
    // What the first position showed besides its pieces no longer holds.
    svg.querySelectorAll("g.hands, g.waiting, g.last-move").forEach(function (g) { g.remove(); });

    function pick(next, button) {
      palette.querySelectorAll(".selected").forEach(function (n) { n.classList.remove("selected"); });
      document.getElementById("editor-eraser").classList.remove("selected");
      tool = next;
      if (button) button.classList.add("selected");
    }

    function boardField() {
      var files = Number(svg.dataset.files), ranks = Number(svg.dataset.ranks);
      var rows = [];
      for (var r = ranks; r >= 1; r--) {
        var row = "", empty = 0;
        for (var f = 0; f < files; f++) {
          var g = svg.querySelector('g.piece[data-square="' + String.fromCharCode(97 + f) + r + '"]');
          if (!g) { empty++; continue; }
          if (empty) { row += empty; empty = 0; }
          row += letters[g.dataset.piece] || "?";
        }
        rows.push(empty ? row + empty : row);
      }
      return rows.join("/");
    }

    // The pattern searches' fields: each piece on its square, and each
    // side's count of every type (the palette's order), as /pattern reads
    // them (the server fills them the same way for the first position).
    function writePatterns() {
      var specs = [], counts = { white: {}, black: {} };
      svg.querySelectorAll("g.piece[data-square]").forEach(function (g) {
        var side = g.dataset.piece.split(" ")[0], letter = letters[g.dataset.piece];
        if (!letter || !counts[side]) return;
        specs.push({ side: side, text: side + ":" + letter + "@" + g.dataset.square });
        var kind = letter.toUpperCase();
        counts[side][kind] = (counts[side][kind] || 0) + 1;
      });
      specs.sort(function (a, b) { return a.side === b.side ? 0 : a.side === "white" ? -1 : 1; });
      var pieces = document.getElementById("editor-pieces");
      if (pieces) pieces.value = specs.map(function (s) { return s.text; }).join(" ");
      var material = document.getElementById("editor-material");
      if (!material) return;
      material.value = ["white", "black"].map(function (side) {
        var terms = [];
        palette.querySelectorAll('g.palette-piece[data-piece^="' + side + ' "]').forEach(function (g) {
          var kind = g.dataset.letter.toUpperCase();
          terms.push(kind + (counts[side][kind] || 0));
        });
        return side + ":" + terms.join(",");
      }).join(";");
    }

    function write() {
      writePatterns();
      var text = boardField();
      if (box.dataset.hands === "1") text += "[" + (hand.value.trim()) + "]";
      if (turn.value) {
        text += " " + turn.value;
        if (castling.value.trim()) text += " " + castling.value.trim();
      }
      fenField.value = text;
    }

    palette.addEventListener("click", function (e) {
      var g = e.target.closest("g.palette-piece");
      if (g) pick(g, g);
    });
    document.getElementById("editor-eraser").addEventListener("click", function (e) { pick("erase", e.target); });
    document.getElementById("editor-clear").addEventListener("click", function () {
      svg.querySelectorAll("g.piece").forEach(function (g) { g.remove(); });
      write();
    });
    [turn, castling, hand].forEach(function (input) {
      if (input) input.addEventListener("input", write);
    });
    document.getElementById("f-variant").addEventListener("change", function (e) {
      window.location.assign("/editor?variant=" + encodeURIComponent(e.target.value));
    });
    box.addEventListener("click", function (e) {
      var at = e.target.closest("[data-square]");
      if (!at || !tool) return;
      var sq = at.dataset.square;
      var old = svg.querySelector('g.piece[data-square="' + sq + '"]');
      if (old) old.remove();
      if (tool !== "erase") {
        var rect = svg.querySelector('rect.square[data-square="' + sq + '"]');
        var piece = tool.querySelector("g.in-hand").cloneNode(true);
        piece.setAttribute("class", "piece");
        piece.setAttribute("data-square", sq);
        piece.setAttribute("transform", "translate(" + rect.getAttribute("x") + " " + rect.getAttribute("y") + ")");
        svg.querySelector("g.pieces").appendChild(piece);
      }
      write();
    });
  }

  // The open page: a dropped or chosen file goes into the text box.
  function openForm() {
    var text = document.getElementById("open-text");
    if (!text) return;
    var max = Number(text.dataset.max);
    var said = document.getElementById("open-message");
    function take(file) {
      if (!file) return;
      if (file.size > max) {
        said.textContent = file.name + " is " + file.size + " bytes, over the " + max + " bytes read at once; split it or import it with xpgn import.";
        said.classList.add("error");
        return;
      }
      file.text().then(function (t) {
        text.value = t;
        said.textContent = file.name + " (" + file.size + " bytes) is ready to open.";
        said.classList.remove("error");
      });
    }
    document.getElementById("open-file").addEventListener("change", function (e) { take(e.target.files[0]); });
    text.addEventListener("dragover", function (e) { e.preventDefault(); text.classList.add("dropping"); });
    text.addEventListener("dragleave", function () { text.classList.remove("dropping"); });
    text.addEventListener("drop", function (e) {
      e.preventDefault();
      text.classList.remove("dropping");
      take(e.dataTransfer.files[0]);
    });
  }

  if (!board || !board.dataset.start) {
    // Other pages: the arrow keys follow the step links, if any.
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || typing(e)) return;
      var ids = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
      var link = ids[e.key] && document.getElementById(ids[e.key]);
      if (link) {
        e.preventDefault();
        window.location.assign(link.href);
      }
    });
    return;
  }

  var game = board.dataset.game;
  var variant = board.dataset.variant;
  var start = board.dataset.start;
  var plies = Number(board.dataset.plies);
  var flip = board.dataset.flip === "1";
  var current = document.querySelector("#moves a.move.current");
  var selected = null; // { from: "e2" } or { drop: "knight", color: "white" }
  var drawn = 0; // the number of the last board asked for
  var svgCache = new Map();
  var legalCache = new Map();
  var localCount = 0;
  var message = document.getElementById("board-message");
  var choices = document.getElementById("choices");

  function q(params) {
    return Object.keys(params).filter(function (k) { return params[k] !== undefined && params[k] !== null; })
      .map(function (k) {
        var v = params[k];
        return (Array.isArray(v) ? v : [v]).map(function (x) {
          return encodeURIComponent(k) + "=" + encodeURIComponent(x);
        }).join("&");
      }).filter(Boolean).join("&");
  }

  function say(text, isError) {
    message.textContent = text || "";
    message.classList.toggle("error", !!isError);
  }

  function remember(cache, key, value) {
    if (cache.size > 300) cache.delete(cache.keys().next().value);
    cache.set(key, value);
    return value;
  }

  // ------------------------------------------------------------ the board

  function fenOf(el) {
    return el ? el.dataset.fen : start;
  }

  function boardUrl(el) {
    var p = { variant: variant, fen: fenOf(el), flip: flip ? "1" : null };
    if (el && el.dataset.to) p.last = (el.dataset.from || el.dataset.to) + "." + el.dataset.to;
    if (el && el.dataset.arrows) p.arrow = el.dataset.arrows.split(" ");
    if (el && el.dataset.marks) p.mark = el.dataset.marks.split(" ");
    return "/api/board.svg?" + q(p);
  }

  function fetchText(url, init) {
    return fetch(url, Object.assign({ credentials: "same-origin" }, init || {})).then(function (r) {
      return r.text().then(function (t) {
        if (!r.ok) throw new Error(t.replace(/^\d+ [^:]*: /, "").trim());
        return t;
      });
    });
  }

  function draw(el) {
    var url = boardUrl(el);
    var fen = fenOf(el);
    var mine = ++drawn;
    var text = svgCache.has(url) ? Promise.resolve(svgCache.get(url)) : fetchText(url).then(function (t) {
      return remember(svgCache, url, t);
    });
    return text.then(function (t) {
      if (mine !== drawn) return;
      var doc = new DOMParser().parseFromString(t, "image/svg+xml");
      var svg = document.importNode(doc.documentElement, true);
      var old = board.querySelector("svg");
      if (old) board.replaceChild(svg, old); else board.appendChild(svg);
      board.dataset.fen = fen;
      markSelection();
      drawCursor();
    }, function (e) {
      if (mine === drawn) say(String(e.message || e), true);
    });
  }

  // ------------------------------------------------------------ stepping

  function moveList() {
    return document.getElementById("moves");
  }

  function isMove(el) {
    return el && el.matches && el.matches("a.move");
  }

  // The move after `el` in its line (the first of the main line after the
  // start), or null.
  function nextOf(el) {
    if (!el) {
      var list = moveList();
      if (!list || list.dataset.from !== "1") return null;
      return list.querySelector(":scope > a.move");
    }
    var n = el.nextElementSibling;
    while (n && !isMove(n)) n = n.nextElementSibling;
    return n;
  }

  // The first moves of the variations that are alternatives to `el`.
  function alternatives(el) {
    var out = [];
    if (!el) return out;
    for (var s = el.nextElementSibling; s && !isMove(s); s = s.nextElementSibling) {
      if (s.matches("span.variation")) {
        var first = s.querySelector(":scope > a.move");
        if (first) out.push(first);
      }
    }
    return out;
  }

  function inMainLine(el) {
    return el && el.parentElement === moveList();
  }

  // The page holding main-line ply `ply`: a stored game's, or for an
  // opened text, the text this page holds posted again (the server keeps
  // none of it), as the body itself.
  function windowPage(ply) {
    if (game) return fetchText("/game/" + game + "?" + q({ ply: ply, flip: flip ? "1" : null }));
    var form = document.getElementById("open-window");
    if (!form) return Promise.reject(new Error("no other window of moves"));
    var url = "/open?" + q({ game: form.elements.game.value, ply: ply, flip: flip ? "1" : null });
    return fetchText(url, {
      method: "POST",
      headers: { "Content-Type": "text/plain; charset=utf-8" },
      body: form.elements.text.value,
    });
  }

  // Loads the window of the move list that holds main-line ply `ply`.
  function loadWindow(ply) {
    return windowPage(ply).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("moves");
      var label = doc.getElementById("window");
      if (!fresh) throw new Error("no move list at ply " + ply);
      var list = moveList();
      list.parentElement.replaceChild(document.importNode(fresh, true), list);
      var old = document.getElementById("window");
      if (old && label) old.textContent = label.textContent;
    });
  }

  // The move before `el` (its id; "" for the start). A main-line move
  // names none: it follows the ply before it.
  function prevId(el) {
    if (el.dataset.prev !== undefined) return el.dataset.prev;
    var ply = Number(el.dataset.ply);
    return ply > 1 ? "m" + (ply - 1) : "";
  }

  // The main-line ply a move's URL names (a variation's: the ply it is an
  // alternative to).
  function anchorOf(el) {
    return el ? el.dataset.anchor || el.dataset.ply : "0";
  }

  // A move's SAN: the link's text before its NAGs.
  function sanOf(el) {
    return el.dataset.san || el.firstChild.nodeValue;
  }

  function mainMove(ply) {
    return ply > 0 ? document.getElementById("m" + ply) : null;
  }

  // Shows main-line ply `ply`, loading its window first when needed.
  function showPly(ply) {
    ply = Math.max(0, Math.min(plies, ply));
    var list = moveList();
    var here = ply === 0 ? Number(list.dataset.from) === 1 : !!mainMove(ply);
    if (here) return show(mainMove(ply));
    return loadWindow(ply).then(function () { show(mainMove(ply)); }, function (e) { say(String(e.message || e), true); });
  }

  function step(dir) {
    if (dir > 0) {
      var n = nextOf(current);
      if (n) return show(n);
      var at = current ? Number(current.dataset.ply) : 0;
      if ((!current || inMainLine(current)) && at < plies) return showPly(at + 1);
      return;
    }
    if (!current) return;
    var prev = prevId(current);
    if (!prev) return show(null);
    var el = document.getElementById(prev);
    if (el) return show(el);
    if (inMainLine(current)) return showPly(Number(current.dataset.ply) - 1);
  }

  function down() {
    var alt = alternatives(nextOf(current));
    if (alt.length) show(alt[0]);
  }

  function up() {
    if (!current || inMainLine(current)) return;
    var line = current.parentElement;
    var first = line.querySelector(":scope > a.move");
    var prev = first && prevId(first);
    show(prev ? document.getElementById(prev) : null);
  }

  function clockText(ms) {
    var h = Math.floor(ms / 3600000), m = Math.floor(ms / 60000) % 60, s = Math.floor(ms / 1000) % 60;
    var t = h + ":" + String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0");
    return ms % 1000 ? t + "." + Math.floor((ms % 1000) / 100) : t;
  }

  // Each side's clock: the last [%clk] of its moves up to `el`.
  function showClocks(el) {
    var box = document.getElementById("clocks");
    if (!box) return;
    var left = {};
    for (var m = el; m && !(left.white && left.black); m = prevId(m) ? document.getElementById(prevId(m)) : null) {
      if (m.dataset.clock && !left[m.dataset.side]) left[m.dataset.side] = clockText(Number(m.dataset.clock));
    }
    box.querySelector(".clock-white").textContent = "White " + (left.white || "–");
    box.querySelector(".clock-black").textContent = "Black " + (left.black || "–");
  }

  function showEval(el) {
    var graph = document.getElementById("eval-graph");
    if (!graph) return;
    var line = graph.querySelector("line.current");
    var width = graph.viewBox.baseVal.width;
    var ply = el ? Number(el.dataset.ply) : 0;
    var x = (ply / Math.max(1, plies) * width).toFixed(1);
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
  }

  function pageUrl(el) {
    if (!game || (el && el.classList.contains("local"))) return null;
    var p = { ply: anchorOf(el) };
    if (el && el.dataset.path) p["var"] = el.dataset.path;
    if (flip) p.flip = "1";
    return "/game/" + game + "?" + q(p);
  }

  // Shows the position after move `el` (null: the start).
  function show(el) {
    if (current) current.classList.remove("current");
    current = el;
    if (el) {
      el.classList.add("current");
      el.scrollIntoView({ block: "nearest" });
    }
    clearSelection();
    say("");
    var fen = fenOf(el);
    document.getElementById("fen").textContent = fen;
    var plyText = document.getElementById("ply");
    var ply = el ? Number(el.dataset.ply) : 0;
    plyText.dataset.ply = String(ply);
    plyText.textContent = !el || inMainLine(el) ? "Ply " + ply + " of " + plies
      : (el.classList.contains("local") ? "Your line, ply " : "Variation, ply ") + ply;
    board.dataset.ply = anchorOf(el);
    board.dataset["var"] = el && el.dataset.path ? el.dataset.path : "";
    var search = document.getElementById("search");
    if (search) search.href = "/position?" + q({ variant: variant, fen: fen });
    var url = pageUrl(el);
    if (url) history.replaceState(null, "", url);
    showClocks(el);
    showEval(el);
    showTree(fen, el);
    return draw(el);
  }

  // ------------------------------------------------------------ the opening tree

  var treeAsked = 0;

  // The opening tree of the position shown, from /api/tree.
  function showTree(fen, el) {
    var section = document.querySelector("section.tree");
    if (!section) return;
    var mine = ++treeAsked;
    fetch("/api/tree?" + q({ variant: variant, fen: fen })).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (t) {
      if (!t || mine !== treeAsked) return;
      var next = nextOf(el);
      var fresh = document.createElement("section");
      fresh.className = "tree";
      var h = document.createElement("h2");
      h.textContent = "Opening tree";
      fresh.appendChild(h);
      if (!t.moves.length) {
        var p = document.createElement("p");
        p.className = "empty";
        p.textContent = "No stored game plays on from here (" + t.games + " reach it).";
        fresh.appendChild(p);
      } else {
        var table = document.createElement("table");
        table.className = "tree";
        var head = table.createTHead().insertRow();
        ["move", "games", "white", "draws", "black", "score", "opening"].forEach(function (c) {
          var th = document.createElement("th");
          th.textContent = c;
          head.appendChild(th);
        });
        var body = table.createTBody();
        t.moves.forEach(function (m) {
          var row = body.insertRow();
          if (next && next.dataset.fen === m.fen) row.className = "played";
          var a = document.createElement("a");
          a.className = "tree-move";
          a.dataset.san = m.san;
          a.href = "/position?" + q({ variant: variant, fen: m.fen });
          a.textContent = m.san;
          row.insertCell().appendChild(a);
          [m.games, m.white_wins, m.draws, m.black_wins,
            m.score === null ? "-" : m.score.toFixed(1) + "%",
            m.eco ? m.eco + " " + m.opening : ""].forEach(function (v) {
            row.insertCell().textContent = String(v);
          });
          row.lastChild.className = "opening";
        });
        fresh.appendChild(table);
        var sum = document.createElement("p");
        sum.textContent = t.games + " games reach this position, " + t.ended + " end in it.";
        fresh.appendChild(sum);
      }
      section.parentElement.replaceChild(fresh, section);
    }, function () {});
  }

  // ------------------------------------------------------------ moves on the board

  function legal(fen) {
    if (legalCache.has(fen)) return Promise.resolve(legalCache.get(fen));
    return fetchText("/api/moves?" + q({ variant: variant, fen: fen })).then(function (t) {
      return remember(legalCache, fen, JSON.parse(t));
    });
  }

  function clearSelection() {
    selected = null;
    while (choices.firstChild) choices.removeChild(choices.firstChild);
    markSelection();
  }

  function markSelection() {
    board.querySelectorAll(".selected, .target").forEach(function (n) {
      n.classList.remove("selected", "target");
    });
    if (!selected) return;
    var fen = fenOf(current);
    if (selected.from) {
      var sq = board.querySelector('rect.square[data-square="' + selected.from + '"]');
      if (sq) sq.classList.add("selected");
    } else {
      board.querySelectorAll("g.hand-piece").forEach(function (g) {
        if (g.dataset.piece === selected.color + " " + selected.drop) g.classList.add("selected");
      });
    }
    if (!legalCache.has(fen)) return;
    legalCache.get(fen).moves.filter(matches(selected)).forEach(function (m) {
      var t = board.querySelector('rect.square[data-square="' + m.to + '"]');
      if (t) t.classList.add("target");
    });
  }

  function matches(sel, to) {
    return function (m) {
      var same = sel.drop ? m.drop === sel.drop : m.from === sel.from;
      return same && (to === undefined || m.to === to);
    };
  }

  function select(sel) {
    selected = sel;
    markSelection();
    var fen = fenOf(current);
    legal(fen).then(function () {
      if (fenOf(current) === fen) markSelection();
    }, function (e) { say(String(e.message || e), true); });
  }

  function attempt(sel, to) {
    var fen = fenOf(current);
    legal(fen).then(function (l) {
      var found = l.moves.filter(matches(sel, to));
      if (found.length === 1) return play(found[0], l.turn);
      if (found.length > 1) return choose(found, l.turn);
      var p = { variant: variant, fen: fen, to: to };
      if (sel.drop) p.drop = sel.drop; else p.from = sel.from;
      return fetchText("/api/moves?" + q(p)).then(function (t) {
        clearSelection();
        say("Illegal: " + JSON.parse(t).reason, true);
      });
    }).catch(function (e) { say(String(e.message || e), true); });
  }

  // Several moves go from the square to the square (promotions, gates,
  // castlings): one button each.
  function choose(found, turn) {
    while (choices.firstChild) choices.removeChild(choices.firstChild);
    var label = document.createElement("span");
    label.textContent = "Which move? ";
    choices.appendChild(label);
    found.forEach(function (m) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.textContent = m.san;
      b.addEventListener("click", function () { play(m, turn); });
      choices.appendChild(b);
    });
    choices.querySelector("button").focus();
  }

  function fenFields(fen) {
    var parts = fen.trim().split(/\s+/);
    return { turn: parts[1] === "b" ? "black" : "white", fullmove: Number(parts[parts.length - 1]) || 1 };
  }

  // Plays `m` from the position shown: the game's own move or variation
  // when it is one, else a move of a line of the reader's own.
  function play(m, turn) {
    clearSelection();
    var next = nextOf(current);
    var known = [next].concat(alternatives(next)).filter(function (el) {
      return el && el.dataset.fen === m.fen;
    });
    if (known.length) return show(known[0]);
    if (!next && current === null && plies > 0 && Number(moveList().dataset.from) !== 1) {
      return showPly(0).then(function () { play(m, turn); });
    }
    var el = document.createElement("a");
    el.className = "move local";
    el.id = "l" + (++localCount);
    el.href = "#";
    el.dataset.fen = m.fen;
    el.dataset.san = m.san;
    el.dataset.to = m.to;
    if (m.from) el.dataset.from = m.from;
    el.dataset.side = turn;
    el.dataset.prev = current ? current.id : "";
    el.dataset.ply = String((current ? Number(current.dataset.ply) : 0) + 1);
    el.dataset.anchor = anchorOf(current);
    el.textContent = m.san;
    var before = fenFields(fenOf(current));
    var num = document.createElement("span");
    num.className = "num";
    num.textContent = before.fullmove + (before.turn === "white" ? "." : "...");
    var line = current && current.classList.contains("local") && !nextOf(current) ? current.parentElement : null;
    if (line) {
      if (before.turn === "white") line.insertBefore(num, line.lastChild);
      line.insertBefore(document.createTextNode(" "), line.lastChild);
      line.insertBefore(el, line.lastChild);
    } else {
      line = document.createElement("span");
      line.className = "variation local";
      line.appendChild(document.createTextNode(" ("));
      line.appendChild(num);
      line.appendChild(document.createTextNode(" "));
      line.appendChild(el);
      line.appendChild(document.createTextNode(")"));
      var after = next || current;
      if (after) after.parentElement.insertBefore(line, after.nextSibling);
      else moveList().appendChild(line);
    }
    document.getElementById("export").hidden = false;
    return show(el);
  }

  function squareAt(target) {
    var hand = target.closest("g.hand-piece");
    if (hand) return { hand: hand.dataset.piece };
    var sq = target.closest("[data-square]");
    return sq ? { square: sq.dataset.square } : null;
  }

  // Dragging a piece (or a piece in hand) to a square makes the same
  // attempt as clicking one and then the other; the piece follows the
  // pointer and goes back if the move is not made.
  var drag = null;
  var dragged = false;

  board.addEventListener("pointerdown", function (e) {
    dragged = false;
    if (e.button !== 0) return;
    var at = squareAt(e.target);
    var node = at && (at.hand ? e.target.closest("g.hand-piece")
      : board.querySelector('g.piece[data-square="' + at.square + '"]'));
    if (!node) return;
    drag = { at: at, node: node, x: e.clientX, y: e.clientY, moved: false, transform: node.getAttribute("transform") || "" };
  });

  board.addEventListener("pointermove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      drag.node.style.pointerEvents = "none";
      board.setPointerCapture(e.pointerId);
    }
    var svg = board.querySelector("svg");
    var scale = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width;
    drag.node.setAttribute("transform", "translate(" + dx * scale + " " + dy * scale + ") " + drag.transform);
  });

  function endDrag(e) {
    var d = drag;
    drag = null;
    if (!d || !d.moved) return;
    dragged = true;
    d.node.setAttribute("transform", d.transform);
    d.node.style.pointerEvents = "";
    var under = document.elementFromPoint(e.clientX, e.clientY);
    var to = under && board.contains(under) ? squareAt(under) : null;
    if (!to || !to.square || to.square === d.at.square) return;
    var parts = d.at.hand ? d.at.hand.split(" ") : null;
    var sel = parts ? { color: parts[0], drop: parts.slice(1).join(" ") } : { from: d.at.square };
    selected = sel;
    attempt(sel, to.square);
  }

  board.addEventListener("pointerup", endDrag);
  board.addEventListener("pointercancel", function () {
    if (drag) drag.node.setAttribute("transform", drag.transform);
    drag = null;
  });

  board.addEventListener("click", function (e) {
    if (dragged) {
      dragged = false;
      return;
    }
    var at = squareAt(e.target);
    if (!at) return;
    if (at.hand) {
      var parts = at.hand.split(" ");
      return select({ color: parts[0], drop: parts.slice(1).join(" ") });
    }
    pressSquare(at.square);
  });

  // A square clicked, or chosen with Enter or Space: selects the piece on
  // it, or makes the move of the piece selected to it.
  function pressSquare(sq) {
    var piece = board.querySelector('g.piece[data-square="' + sq + '"]');
    if (selected && selected.from === sq) return clearSelection();
    if (selected) {
      var mover = selected.from && board.querySelector('g.piece[data-square="' + selected.from + '"]');
      var own = piece && mover && piece.dataset.piece.split(" ")[0] === mover.dataset.piece.split(" ")[0];
      var fen = fenOf(current);
      var l = legalCache.get(fen);
      var reaches = l && l.moves.some(matches(selected, sq));
      if (own && !reaches) return select({ from: sq });
      return attempt(selected, sq);
    }
    if (piece) select({ from: sq });
  }

  // ------------------------------------------------------------ the board by keyboard

  // The board is one stop of the Tab order. While it has the keyboard's
  // focus, the arrow keys move a square cursor (drawn over the squares),
  // Enter or Space press the square under it as a click does, Escape
  // cancels the selection; otherwise (and after a click on it) the arrow
  // keys step through the moves as before.
  var cursor = null;
  var spoken = document.createElement("p");
  spoken.className = "sr-only";
  spoken.setAttribute("aria-live", "polite");
  board.parentElement.insertBefore(spoken, board.nextSibling);
  board.tabIndex = 0;

  function boardSize() {
    var svg = board.querySelector("svg");
    return svg ? { files: Number(svg.dataset.files), ranks: Number(svg.dataset.ranks) } : null;
  }

  function squareName(file, rank) {
    return String.fromCharCode(97 + file) + (rank + 1);
  }

  function cursorFocused() {
    return document.activeElement === board && board.matches(":focus-visible");
  }

  function pieceName(sq) {
    var g = board.querySelector('g.piece[data-square="' + sq + '"]');
    return g ? g.dataset.piece : "empty";
  }

  // The board's label: the position shown and the side to move, then the
  // square under the cursor.
  function labelBoard() {
    var turn = (fenOf(current).split(" ")[1] || "w") === "b" ? "Black" : "White";
    var at = current ? "after ply " + current.dataset.ply + " (" + sanOf(current) + ")" : "at the start";
    var text = "Board " + at + ", " + turn + " to move. Arrow keys move the cursor, Enter or Space selects a piece and then its square, Escape cancels.";
    if (cursor) text += " Cursor on " + cursor + ", " + pieceName(cursor) + ".";
    board.setAttribute("aria-label", text);
  }

  function drawCursor() {
    board.querySelectorAll("rect.key-cursor").forEach(function (n) { n.remove(); });
    labelBoard();
    if (!cursor || !cursorFocused()) return;
    var sq = board.querySelector('rect.square[data-square="' + cursor + '"]');
    if (!sq) return;
    var mark = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    ["x", "y", "width", "height"].forEach(function (a) { mark.setAttribute(a, sq.getAttribute(a)); });
    mark.setAttribute("class", "key-cursor");
    mark.setAttribute("data-square", cursor);
    sq.ownerSVGElement.appendChild(mark);
  }

  // Where the cursor starts: the selected piece, the last move's square,
  // or the corner nearest the viewer's left hand.
  function firstCursor() {
    if (selected && selected.from) return selected.from;
    if (current && current.dataset.to) return current.dataset.to;
    var size = boardSize();
    return flip && size ? squareName(size.files - 1, size.ranks - 1) : "a1";
  }

  function moveCursor(right, up) {
    var size = boardSize();
    if (!size) return;
    if (!cursor) cursor = firstCursor();
    else {
      if (flip) { right = -right; up = -up; }
      var file = cursor.charCodeAt(0) - 97 + right, rank = Number(cursor.slice(1)) - 1 + up;
      cursor = squareName(Math.max(0, Math.min(size.files - 1, file)), Math.max(0, Math.min(size.ranks - 1, rank)));
    }
    drawCursor();
    spoken.textContent = cursor + ", " + pieceName(cursor);
  }

  // The keys of the board while it has the keyboard's focus; true when
  // `e` was one of them.
  function cursorKey(e) {
    if (document.activeElement !== board) return false;
    var arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (arrows[e.key] && cursorFocused()) {
      moveCursor(arrows[e.key][0], arrows[e.key][1]);
      return true;
    }
    if (e.key === "Enter" || e.key === " ") {
      if (!cursor) cursor = firstCursor();
      drawCursor();
      pressSquare(cursor);
      return true;
    }
    return false;
  }

  board.addEventListener("focus", drawCursor);
  board.addEventListener("blur", drawCursor);

  // ------------------------------------------------------------ export

  function exportText() {
    var chain = [];
    for (var m = current; m; m = prevId(m) ? document.getElementById(prevId(m)) : null) chain.unshift(m);
    var from = start;
    if (chain.length && prevId(chain[0])) from = chain.shift().dataset.fen; // an earlier window
    var f = fenFields(from);
    var moves = [];
    var turn = f.turn, n = f.fullmove;
    chain.forEach(function (el, i) {
      if (turn === "white") moves.push(n + ".");
      else if (i === 0) moves.push(n + "...");
      moves.push(sanOf(el));
      if (turn === "black") n++;
      turn = turn === "white" ? "black" : "white";
    });
    moves.push("*");
    var esc = function (s) { return s.replace(/\\/g, "\\\\").replace(/"/g, '\\"'); };
    var words = [], lines = [], width = 0;
    moves.forEach(function (w) {
      if (width + w.length + 1 > 79 && words.length) { lines.push(words.join(" ")); words = []; width = 0; }
      words.push(w);
      width += w.length + 1;
    });
    lines.push(words.join(" "));
    return ['[Event "' + (game ? "Analysis of game " + game : "Analysis") + '"]', '[Variant "' + esc(variant) + '"]',
      '[SetUp "1"]', '[FEN "' + esc(from) + '"]', '[Result "*"]', ""].concat(lines).join("\n") + "\n";
  }

  // A move typed in any notation the reader takes, resolved by the server.
  var moveForm = document.getElementById("move-form");
  moveForm.hidden = false;
  moveForm.addEventListener("submit", function (e) {
    e.preventDefault();
    var input = document.getElementById("move-input");
    var text = input.value.trim();
    if (!text) return;
    fetchText("/api/moves?" + q({ variant: variant, fen: fenOf(current), san: text })).then(function (t) {
      var l = JSON.parse(t);
      if (!l.moves.length) return say("Illegal: " + l.reason, true);
      input.value = "";
      play(l.moves[0], l.turn);
    }).catch(function (err) { say(String(err.message || err), true); });
  });

  var exportButton = document.getElementById("export");
  exportButton.hidden = false;
  exportButton.addEventListener("click", function () {
    var box = document.getElementById("export-box");
    var text = exportText();
    document.getElementById("export-text").value = text;
    var link = document.getElementById("export-download");
    if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    box.hidden = false;
  });

  // ------------------------------------------------------------ keys and clicks

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || typing(e)) return;
    if (cursorKey(e)) {
      e.preventDefault();
      return;
    }
    var act = {
      ArrowLeft: function () { step(-1); },
      ArrowRight: function () { step(1); },
      ArrowDown: down,
      ArrowUp: up,
      Home: function () { showPly(0); },
      End: function () { showPly(plies); },
      f: toggleFlip,
      Escape: clearSelection,
    }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  });

  function toggleFlip() {
    flip = !flip;
    board.dataset.flip = flip ? "1" : "0";
    var url = pageUrl(current);
    if (url) history.replaceState(null, "", url);
    draw(current);
  }

  document.addEventListener("click", function (e) {
    if (e.button !== 0 || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var t = e.target.closest("a");
    if (!t) return;
    var act = null;
    if (t.matches("#moves a.move")) act = function () { show(t); };
    else if (t.id === "first") act = function () { showPly(0); };
    else if (t.id === "prev") act = function () { step(-1); };
    else if (t.id === "next") act = function () { step(1); };
    else if (t.id === "last") act = function () { showPly(plies); };
    else if (t.id === "flip") act = toggleFlip;
    else if (t.closest("#eval-graph")) {
      var c = t.querySelector("circle");
      act = function () { showPly(Number(c.dataset.ply)); };
    }
    if (!act) return;
    e.preventDefault();
    act();
  });
})();
