// Drives headless Chromium over a running `xpgn serve` (tests/it/browser.rs
// starts the server and runs this script with Node).
//
// Environment: XPGN_URL (http://127.0.0.1:PORT), XPGN_CHROMIUM (the
// browser binary), XPGN_SHOTS (folder for screenshots), XPGN_DOCS
// (optional: folder for the README screenshots).
//
// Prints one line per check; exits 1 on the first failure.
"use strict";

const { chromium } = require("playwright-core");
const path = require("path");

const base = process.env.XPGN_URL;
const shots = process.env.XPGN_SHOTS;
const docs = process.env.XPGN_DOCS;

function check(cond, what) {
  if (!cond) throw new Error("check failed: " + what);
  console.log("ok: " + what);
}

async function api(page, p) {
  const r = await page.request.get(base + p);
  check(r.ok(), "GET " + p + " answers 200");
  return r.json();
}

async function pieceOn(page, sq) {
  return page.$eval(
    '#board g.piece[data-square="' + sq + '"]',
    (g) => g.getAttribute("data-piece")
  ).catch(() => null);
}

// Waits until the board shows `fen` (its data-fen changes once the
// squares are drawn).
async function boardAt(page, fen) {
  await page.waitForFunction((f) => document.querySelector("#board").dataset.fen === f, fen, { timeout: 5000 });
}

async function noOverflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.XPGN_CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1320, height: 960 } });
    const page = await context.newPage();
    const dialogs = [];
    page.on("dialog", async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));

    // 1. The game list.
    await page.goto(base + "/");
    const rows = await page.$$("table.games tbody tr");
    check(rows.length >= 40, "the game list shows the imported games (" + rows.length + " rows)");
    await page.screenshot({ path: path.join(shots, "1-game-list.png"), fullPage: false });

    // 2. Filter to Courier-Spiel with the form, open Fischer's game.
    await page.selectOption("#f-variant", "courier-spiel");
    await page.fill("#f-white", "Fischer");
    await Promise.all([page.waitForNavigation(), page.click("form.filters button[type=submit]")]);
    check(page.url().includes("variant=courier-spiel"), "the filter form puts the filters in the URL");
    const listed = await page.$$eval("table.games tbody tr td:nth-child(2)", (tds) => tds.map((t) => t.textContent));
    check(listed.length >= 1 && listed.every((v) => v === "courier-spiel"), "only Courier-Spiel games are listed");
    await Promise.all([page.waitForNavigation(), page.click("table.games a.game-link")]);
    check(/\/game\/\d+$/.test(new URL(page.url()).pathname), "a game page opens");
    const gameUrl = new URL(page.url());
    const id = gameUrl.pathname.split("/").pop();

    // 3. Step to the waiting promotion: click its move, then the arrow keys
    // (the page steps without loading another).
    const promo = page.locator("a.move", { hasText: "&h8=C" });
    check((await promo.count()) === 1, "the move list shows the waiting promotion Cb3&h8=C");
    await promo.click();
    await boardAt(page, await promo.getAttribute("data-fen"));
    const ply = Number(new URL(page.url()).searchParams.get("ply"));
    check(ply > 0, "the ply is in the URL (ply=" + ply + ")");
    check((await pieceOn(page, "h8")) === "white courier", "at that ply h8 holds the promoted white Courier");
    await page.screenshot({ path: path.join(shots, "2-courier-spiel-promotion.png") });
    await page.keyboard.press("ArrowLeft");
    await boardAt(page, await page.getAttribute("#m" + (ply - 1), "data-fen"));
    check(new URL(page.url()).searchParams.get("ply") === String(ply - 1), "ArrowLeft steps back one ply");
    check((await pieceOn(page, "h8")) === "white pawn", "one ply earlier h8 holds the waiting pawn");
    check((await page.$('#board g.waiting[data-square="h8"]')) !== null, "the waiting pawn is marked");
    const legend = await page.$eval("#board g.legend", (g) => g.textContent);
    check(legend.includes("waiting pawn on h8"), "the legend names the waiting pawn");
    await page.screenshot({ path: path.join(shots, "3-courier-spiel-waiting.png") });
    await page.keyboard.press("ArrowRight");
    await boardAt(page, await promo.getAttribute("data-fen"));
    check(new URL(page.url()).searchParams.get("ply") === String(ply), "ArrowRight steps forward again");
    await page.click("#next");
    await boardAt(page, await page.getAttribute("#m" + (ply + 1), "data-fen"));
    check(new URL(page.url()).searchParams.get("ply") === String(ply + 1), "the > button steps forward");

    // 4. A tree move: from the game's start position.
    await page.goto(base + "/game/" + id + "?ply=2");
    const treeMove = page.locator("a.tree-move").first();
    const san = await treeMove.getAttribute("data-san");
    await Promise.all([page.waitForNavigation(), treeMove.click()]);
    check(new URL(page.url()).pathname === "/position", "clicking tree move " + san + " opens its position");
    check((await page.$$("#f-fen")).length === 1 && (await page.$("svg.xpgn-board")) !== null, "the position page shows the board");
    const reached = await page.$$("section.reaching table.games tbody tr");
    check(reached.length >= 1, "games reaching it are listed (" + reached.length + ")");
    await page.screenshot({ path: path.join(shots, "4-tree-move.png") });

    // 5. Position search from the current board of a game.
    await page.goto(base + "/game/" + id + "?ply=" + (ply - 1));
    const fen = await page.textContent("#fen");
    await Promise.all([page.waitForNavigation(), page.click("#search")]);
    check(new URL(page.url()).searchParams.get("fen") === fen, "the search carries the board's position string");
    const found = page.locator("section.reaching a.ply-link");
    check((await found.count()) >= 1, "the position search finds games");
    await page.screenshot({ path: path.join(shots, "5-position-search.png") });
    await Promise.all([page.waitForNavigation(), found.first().click()]);
    const at = new URL(page.url());
    check(at.pathname === "/game/" + id, "the search result links to the game");
    check(at.searchParams.get("ply") === String(ply - 1), "at the matching ply");
    check((await page.textContent("#fen")) === fen, "showing the same position");

    // 6. Hostile tags and comments are text.
    const hostile = await api(page, "/api/games?event=Hostile");
    await page.goto(base + "/game/" + hostile.games[0].id);
    const xss = await page.evaluate(() => window.__xss);
    check(xss === undefined, "no script from a tag ran");
    check(dialogs.length === 0, "no dialog opened");
    const h1 = await page.textContent("h1.players");
    check(h1.includes("<script>window.__xss = 1; alert(1)</script>"), "the tag shows as text");
    const scripts = await page.$$eval("script", (s) => s.map((x) => x.getAttribute("src")));
    check(scripts.length === 1 && scripts[0] === "/assets/app.js", "the only script is the embedded one");
    check((await page.$$("img")).length === 0, "no element from a tag or comment");
    const comment = await page.textContent("span.comment");
    check(comment.includes('<script>alert("comment")</script>'), "the comment shows as text");
    await page.screenshot({ path: path.join(shots, "6-hostile.png") });

    // 7. ../ paths.
    const r = await page.request.get(base + "/assets/%2e%2e/%2e%2e/Cargo.toml");
    check(r.status() === 404, "../ paths are 404");

    // 8. README screenshots: a Counsellor Chess game in mid-play, the tree.
    const co = await api(page, "/api/games?variant=counsellor&white=Brandt");
    const coId = co.games[0].id;
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.goto(base + "/game/" + coId + "?ply=23");
    const images = await page.$$eval("#board g.piece", (gs) => gs.map((g) => g.getAttribute("data-image")));
    check(images.includes("elephant") && images.includes("counsellor"), "the Counsellor Chess game mid-play shows Elephants and Counsellors");
    // The board alone, and the tree alone, at a narrow width: a few tens
    // of KB each.
    const shotA = path.join(docs || shots, "counsellor-game.png");
    await page.setViewportSize({ width: 540, height: 800 });
    await page.locator("#board").screenshot({ path: shotA });
    await page.setViewportSize({ width: 760, height: 800 });
    await page.goto(base + "/position?variant=counsellor");
    const treeRows = await page.$$("table.tree tbody tr");
    check(treeRows.length >= 1, "the Counsellor Chess opening tree has moves");
    const shotB = path.join(docs || shots, "opening-tree.png");
    await page.locator("section.tree").screenshot({ path: shotB });

    // 9. Every variant's pieces at 40 px a square, in one picture.
    const variants = [["chess", 8], ["counsellor", 12], ["royal", 10], ["chaturanga", 8],
      ["courier-spiel", 12], ["chancellor", 8], ["chancellor-crosswise", 8], ["kings-leap", 8]];
    await page.setViewportSize({ width: 1020, height: 1400 });
    await page.setContent("<body style='margin:8px;font:13px sans-serif'>" + variants.map(([v, files]) =>
      "<div style='display:inline-block;margin:4px'><div>" + v + "</div><img width='" + (files * 40) +
      "' src='" + base + "/api/diagram.svg?variant=" + v + "&coordinates=0'></div>").join("") + "</body>");
    await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0));
    await page.screenshot({ path: path.join(shots, "0-all-variants-40px.png"), fullPage: true });
    check(true, "every variant's start position drawn at 40 px a square");

    // 10. The analysis board: keys, variations, the URL, clocks, arrows.
    await page.setViewportSize({ width: 1320, height: 960 });
    const blitz = (await api(page, "/api/games?event=Online%20blitz")).games[0].id;
    await page.goto(base + "/game/" + blitz);
    const startFen = await page.getAttribute("#board", "data-fen");
    check((await pieceOn(page, "e2")) === "white pawn", "the game opens at its start");
    for (let p = 1; p <= 3; p++) {
      await page.keyboard.press("ArrowRight");
      await boardAt(page, await page.getAttribute("#m" + p, "data-fen"));
    }
    check((await pieceOn(page, "f3")) === "white knight" && (await pieceOn(page, "e5")) === "black pawn",
      "three ArrowRight steps reach 2. Nf3, square by square");
    check(new URL(page.url()).searchParams.get("ply") === "3", "the URL follows the ply shown");
    await page.keyboard.press("Home");
    await boardAt(page, startFen);
    check((await pieceOn(page, "f3")) === null, "Home goes back to the start");
    await page.keyboard.press("End");
    await boardAt(page, await page.getAttribute("#m39", "data-fen"));
    check((await pieceOn(page, "f3")) === "white queen", "End shows the last position (20. Qf3)");
    const d5 = page.locator("#v6-0-3");
    check((await d5.textContent()) === "d5", "the variation 3... Nf6 4. Ng5 d5 is listed move by move");
    await d5.click();
    await boardAt(page, await d5.getAttribute("data-fen"));
    const inVar = new URL(page.url());
    check((await pieceOn(page, "d5")) === "black pawn" && (await pieceOn(page, "g5")) === "white knight" &&
      inVar.searchParams.get("ply") === "6" && inVar.searchParams.get("var") === "0.3",
      "clicking the variation move d5 shows its position, and the URL names it");
    await page.keyboard.press("ArrowRight");
    await boardAt(page, await page.getAttribute("#v6-0-4", "data-fen"));
    check((await pieceOn(page, "d5")) === "white pawn", "ArrowRight steps along the variation (5. exd5)");
    await page.keyboard.press("ArrowUp");
    await boardAt(page, await page.getAttribute("#m5", "data-fen"));
    check((await pieceOn(page, "c4")) === "white bishop" && (await pieceOn(page, "f6")) === null,
      "ArrowUp leaves the variation for the position it branches from");
    await page.keyboard.press("ArrowDown");
    await boardAt(page, await page.getAttribute("#v6-0-1", "data-fen"));
    check((await pieceOn(page, "f6")) === "black knight", "ArrowDown enters the variation (3... Nf6)");
    await page.goto(base + "/game/" + blitz + "?ply=6&var=0.3");
    check((await page.getAttribute("#board", "data-fen")) === (await d5.getAttribute("data-fen")) &&
      (await pieceOn(page, "d5")) === "black pawn", "the variation's URL opens that position");
    await page.click("#m17");
    await boardAt(page, await page.getAttribute("#m17", "data-fen"));
    const clocks = await page.textContent("#clocks");
    check(clocks.includes("White 0:03:50") && clocks.includes("Black 0:04:00"),
      "the clocks follow the ply shown (" + clocks + ")");
    check((await page.$('#board g.arrow[data-from="d5"][data-to="c6"][data-color="green"]')) !== null,
      "the comment's arrow is drawn at its ply");
    const x = await page.getAttribute("#eval-graph line.current", "x1");
    check(Math.abs(Number(x) - 17 / 39 * 560) < 0.2, "the evaluation graph marks the ply shown");
    await page.keyboard.press("f");
    await page.waitForFunction(() => document.querySelector('#board rect.square[data-square="a1"]').getAttribute("y") === "0");
    check(new URL(page.url()).searchParams.get("flip") === "1", "f turns the board, and the URL says so");
    await page.keyboard.press("f");
    await page.waitForFunction(() => document.querySelector('#board rect.square[data-square="a1"]').getAttribute("y") !== "0");
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.click("#m19");
    await boardAt(page, await page.getAttribute("#m19", "data-fen"));
    // The board's column alone: the board, the clocks, the graph.
    await page.locator(".board-col").screenshot({ path: path.join(docs || shots, "blitz-clocks-evaluation.png") });
    await page.setViewportSize({ width: 1320, height: 960 });

    // 11. Moves on a 12x8 board (Counsellor Chess), by clicking.
    await page.goto(base + "/game/" + coId + "?ply=0");
    const coStart = await page.getAttribute("#board", "data-fen");
    const q = (p) => "/api/moves?variant=counsellor&fen=" + encodeURIComponent(coStart) + p;
    const why = (await api(page, q("&from=l1&to=l5"))).reason;
    await page.click('#board g.piece[data-square="l1"]');
    await page.click('#board rect.square[data-square="l5"]', { force: true });
    await page.waitForFunction(() => document.querySelector("#board-message").textContent.length > 0);
    const said = await page.textContent("#board-message");
    check(said === "Illegal: " + why && (await page.getAttribute("#board", "data-fen")) === coStart &&
      (await pieceOn(page, "l1")) === "white rook",
      "an illegal move on the 12x8 board snaps back with the reason (" + said + ")");
    const k4 = (await api(page, q("&from=k2&to=k4"))).moves[0];
    await page.click('#board g.piece[data-square="k2"]');
    check((await page.$('#board rect.square.target[data-square="k4"]')) !== null, "a selected piece shows where it may go");
    await page.click('#board rect.square[data-square="k4"]', { force: true });
    await boardAt(page, k4.fen);
    check((await pieceOn(page, "k4")) === "white pawn" && (await pieceOn(page, "k2")) === null &&
      (await page.getAttribute("#moves a.move.current", "data-fen")) === k4.fen,
      "a legal move by clicking on the 12x8 board is played and listed (" + k4.san + ")");
    await page.click("#export");
    const exported = await page.inputValue("#export-text");
    check(exported.includes('[Variant "counsellor"]') && exported.includes("1. " + k4.san + " *"),
      "the line made on the board exports as XPGN");
    await page.keyboard.press("ArrowLeft");
    await boardAt(page, coStart);
    check((await pieceOn(page, "k2")) === "white pawn", "stepping back from the new move restores the board");
    const nj3 = (await api(page, q("&from=k1&to=j3"))).moves[0];
    const centre = async (sel) => {
      const b = await page.locator(sel).boundingBox();
      return [b.x + b.width / 2, b.y + b.height / 2];
    };
    const [kx, ky] = await centre('#board rect.square[data-square="k1"]');
    const [jx, jy] = await centre('#board rect.square[data-square="j3"]');
    await page.mouse.move(kx, ky);
    await page.mouse.down();
    await page.mouse.move((kx + jx) / 2, (ky + jy) / 2, { steps: 4 });
    await page.mouse.move(jx, jy, { steps: 4 });
    await page.mouse.up();
    await boardAt(page, nj3.fen);
    check((await pieceOn(page, "j3")) === "white knight" && (await pieceOn(page, "k1")) === null,
      "dragging the knight from k1 to j3 plays " + nj3.san);

    // 11b. The same move by keyboard alone: Tab to the board, the arrow
    // keys move the cursor from a1 to k1, Enter picks the knight, the
    // cursor goes on to j3, Enter plays it.
    await page.goto(base + "/game/" + coId + "?ply=0");
    for (let i = 0; i < 80 && (await page.evaluate(() => document.activeElement.id)) !== "board"; i++) {
      await page.keyboard.press("Tab");
    }
    check((await page.evaluate(() => document.activeElement.id)) === "board", "Tab reaches the board");
    check((await page.getAttribute("#board", "aria-label")).startsWith("Board at the start, White to move."),
      "the board's label names the position and the side to move");
    await page.keyboard.press("ArrowRight");
    check((await page.getAttribute("#board rect.key-cursor", "data-square")) === "a1", "the cursor starts on a1");
    for (let i = 0; i < 12; i++) await page.keyboard.press("ArrowRight");
    check((await page.getAttribute("#board rect.key-cursor", "data-square")) === "l1",
      "the arrow keys move the cursor along the 12 files and stop at the edge");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Enter");
    await page.waitForSelector('#board rect.square.selected[data-square="k1"]');
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Enter");
    await boardAt(page, nj3.fen);
    check((await pieceOn(page, "j3")) === "white knight" && (await pieceOn(page, "k1")) === null &&
      (await page.getAttribute("#board", "aria-label")).includes("Black to move") &&
      (await page.evaluate(() => document.activeElement.id)) === "board",
      "a legal move made with the keyboard alone plays " + nj3.san + " and keeps the focus on the board");
    await page.keyboard.press("Escape");
    await page.click("#m1");
    await page.keyboard.press("ArrowRight");
    const m2 = await page.getAttribute("#m2", "data-fen");
    await boardAt(page, m2);
    check((await page.getAttribute("#board", "data-fen")) === m2 && (await page.$("#board rect.key-cursor")) === null,
      "off the board the arrow keys step through the moves again");

    // 12. Crazyhouse: the hands beside the board, a drop by clicking.
    const zh = (await api(page, "/api/games?variant=crazyhouse")).games[0].id;
    await page.goto(base + "/game/" + zh + "?ply=16");
    const hand = await page.$$eval('#board g.hand[data-color="white"] g.hand-piece', (gs) => gs.map((g) => g.getAttribute("data-piece")));
    check(hand.includes("white pawn"), "White's captured pawn is drawn in its hand (" + hand.join(", ") + ")");
    await page.click('#board g.hand-piece[data-piece="white pawn"]');
    await page.click('#board rect.square[data-square="e5"]', { force: true });
    await boardAt(page, await page.getAttribute("#m17", "data-fen"));
    check((await pieceOn(page, "e5")) === "white pawn" && new URL(page.url()).searchParams.get("ply") === "17",
      "dropping the pawn on e5 by clicking is the game's own 9. P@e5");
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.goto(base + "/game/" + zh + "?ply=30");
    await page.locator("#board").screenshot({ path: path.join(docs || shots, "crazyhouse-hands.png") });
    await page.setViewportSize({ width: 1320, height: 960 });

    // 14. Open a text without importing it: a pasted game with an error.
    await page.goto(base + "/open");
    const pasted = '[Event "Pasted"]\n[Variant "Counsellor"]\n\n1. k4 k5 2. l1l5 *\n';
    await page.fill("#open-text", pasted);
    await Promise.all([page.waitForNavigation(), page.click("#open-submit")]);
    const diag = await page.textContent("section.diagnostics li.error");
    check(diag.includes("ply 3") && diag.includes("the Rook on l1 cannot reach l5: l2 is in the way"),
      "the pasted game's diagnostic is shown (" + diag + ")");
    check((await page.textContent("#opened")).includes("not stored"), "the page says the text is not stored");
    await page.keyboard.press("ArrowRight");
    await boardAt(page, await page.getAttribute("#m1", "data-fen"));
    check((await pieceOn(page, "k4")) === "white pawn", "the opened game steps on its board");
    // A move typed: played if legal, refused with the reason if not.
    await page.keyboard.press("Home");
    await boardAt(page, await page.getAttribute("#board", "data-start"));
    await page.fill("#move-input", "Ke2");
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => document.querySelector("#board-message").textContent.length > 0);
    check((await page.textContent("#board-message")).startsWith("Illegal: "), "a typed illegal move is refused with the reason");
    await page.fill("#move-input", "Nj3");
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => document.querySelector('#board g.piece[data-square="j3"]') !== null);
    check((await pieceOn(page, "j3")) === "white knight", "a typed move is played on the board");
    // Gating (Seirawan): the squares alone do not say which move; buttons ask.
    await page.goto(base + "/open");
    await page.fill("#open-text", '[Event "Gates"]\n[Variant "Seirawan"]\n\n1. e4 e5 *\n');
    await Promise.all([page.waitForNavigation(), page.click("#open-submit")]);
    await page.click('#board g.piece[data-square="g1"]');
    await page.click('#board rect.square[data-square="f3"]', { force: true });
    await page.waitForSelector("#choices button.choice");
    const offered = await page.$$eval("#choices button.choice", (bs) => bs.map((b) => b.textContent));
    check(offered.join(" ") === "Nf3 Nf3/H Nf3/E", "moving the knight off its gate offers " + offered.join(", "));
    await page.click('#choices button.choice:has-text("Nf3/H")');
    await page.waitForFunction(() => document.querySelector('#board g.piece[data-square="g1"]') !== null &&
      document.querySelector('#board g.piece[data-square="g1"]').getAttribute("data-piece") === "white hawk");
    check((await pieceOn(page, "f3")) === "white knight", "the chosen move gates the Hawk onto g1");
    const stored = await api(page, "/api/games?event=Pasted");
    check(stored.games.length === 0, "nothing of it was stored");

    // 15. The board editor: set up 1. e4 e5 2. Nf3 from the start position,
    // Black to move; the search finds what `xpgn query --fen` finds.
    await page.goto(base + "/editor?variant=chess");
    await page.click("#editor-eraser");
    for (const sq of ["e2", "e7", "g1"]) await page.click('#editor-board rect.square[data-square="' + sq + '"]', { force: true });
    for (const [piece, sq] of [["white pawn", "e4"], ["white knight", "f3"], ["black pawn", "e5"]]) {
      await page.click('#palette g.palette-piece[data-piece="' + piece + '"]');
      await page.click('#editor-board rect.square[data-square="' + sq + '"]', { force: true });
    }
    await page.selectOption("#editor-turn", "b");
    const edited = await page.inputValue("#f-fen");
    check(edited === process.env.XPGN_EDITOR_POSITION, "the editor writes the position string of its board (" + edited + ")");
    await page.screenshot({ path: path.join(shots, "7-board-editor.png") });
    await Promise.all([page.waitForNavigation(), page.click("#editor-search")]);
    const foundIds = await page.$$eval("section.reaching a.game-link", (as) => as.map((a) => a.textContent));
    check(foundIds.join(",") === process.env.XPGN_EDITOR_GAMES,
      "the editor's position finds the games xpgn query --fen finds (" + foundIds.join(", ") + ")");

    // 15b. The editor's pattern search: a white knight on f3 and a black
    // one on f6 on a cleared board find the games (and the plies) that
    // `xpgn query --piece white:N@f3 --piece black:n@f6` finds.
    await page.goto(base + "/editor?variant=chess");
    await page.click("#editor-clear");
    for (const [piece, sq] of [["white knight", "f3"], ["black knight", "f6"]]) {
      await page.click('#palette g.palette-piece[data-piece="' + piece + '"]');
      await page.click('#editor-board rect.square[data-square="' + sq + '"]', { force: true });
    }
    const pieces = await page.inputValue("#editor-pieces");
    check(pieces === "white:N@f3 black:n@f6", "the editor writes its pieces as a pattern (" + pieces + ")");
    const material = await page.inputValue("#editor-material");
    check(material === "white:K0,Q0,R0,B0,N1,P0;black:K0,Q0,R0,B0,N1,P0",
      "the editor writes its material (" + material + ")");
    await Promise.all([page.waitForNavigation(), page.click("#editor-pattern-search")]);
    const patternHits = await page.$$eval("#pattern-games a.ply-link", (as) =>
      as.map((a) => new URL(a.href).pathname.split("/").pop() + "@" + new URL(a.href).searchParams.get("ply")));
    check(patternHits.join(",") === process.env.XPGN_PATTERN_GAMES,
      "the editor's pattern finds the games xpgn query --piece finds (" + patternHits.join(", ") + ")");

    // 16. A game of 1200 plies: its move list comes 500 plies at a time;
    // stepping past a window's end loads the next, and back again.
    const long = (await api(page, "/api/games?event=Knights")).games[0].id;
    await page.goto(base + "/game/" + long + "?ply=500");
    check((await page.$$("#moves a.move")).length === 500 && (await page.$("#m501")) === null,
      "the page holds the window of plies 1-500");
    const after501 = (await api(page, "/api/game/" + long + "?ply=501&from=501&count=1")).position.fen;
    await page.keyboard.press("ArrowRight");
    await boardAt(page, after501);
    check(new URL(page.url()).searchParams.get("ply") === "501" && (await page.$("#m501")) !== null &&
      (await page.$("#m500")) === null && (await pieceOn(page, "f3")) === "white knight",
      "stepping past the window's last ply loads the next window");
    await page.keyboard.press("ArrowLeft");
    await boardAt(page, await page.getAttribute("#m500", "data-fen"));
    check(new URL(page.url()).searchParams.get("ply") === "500", "stepping back before its first ply loads the window before");
    await page.keyboard.press("End");
    await boardAt(page, await page.getAttribute("#m1200", "data-fen"));
    check((await page.textContent("#ply")) === "Ply 1200 of 1200", "End loads the last window");

    // 16b. The same game pasted into /open: the server keeps none of it,
    // so the page posts the text it holds again for each window.
    const knightsText = await page.evaluate((id) => fetch("/api/export/" + id + "?to=original").then((r) => r.text()), long);
    const at1200 = (await api(page, "/api/game/" + long + "?ply=1200&count=1")).position.fen;
    await page.goto(base + "/open");
    await page.fill("#open-text", knightsText);
    await Promise.all([page.waitForNavigation(), page.click("#open-submit")]);
    check((await page.$$("#moves a.move")).length === 500 && (await page.$("#window-next")) !== null,
      "the pasted game of 1200 plies shows its first window of 500");
    await page.keyboard.press("End");
    await boardAt(page, at1200);
    check((await page.textContent("#ply")) === "Ply 1200 of 1200" && (await page.$("#m1200")) !== null &&
      (await page.$("#m500")) === null, "End steps the pasted game to ply 1200, its last window posted again");
    await page.keyboard.press("Home");
    await boardAt(page, await page.getAttribute("#board", "data-start"));
    check((await page.$("#m1")) !== null, "Home brings back the pasted game's first window");
    await page.click("#window-next");
    await page.waitForSelector("#m501");
    check((await page.$$("#moves a.move")).length === 500, "the button to the next window posts the text again (plies 501-1000)");

    // 13. From a phone to a wide screen: no horizontal overflow.
    for (const width of [360, 1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      for (const p of ["/", "/game/" + blitz + "?ply=17", "/game/" + coId + "?ply=23", "/position?variant=chess",
        "/editor?variant=counsellor", "/open"]) {
        await page.goto(base + p);
        check(await noOverflow(page), "no horizontal overflow at " + width + " px on " + p);
      }
      check(true, "no horizontal overflow at " + width + " px");
    }

    check(errors.length === 0, "no script errors on any page (" + errors.join("; ") + ")");
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(String(e && e.stack ? e.stack : e));
  process.exit(1);
});
