//! `xpgn serve` over HTTP, without a browser: pages and API answers,
//! escaping of hostile tags and comments, 404 for every path outside the
//! routes, bounded pages, long games in windows of moves, read-only
//! databases, foreign `Host` names refused, and slow or idle clients that
//! cannot lock the others out.
#![cfg(feature = "serve")]

use crate::support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use support::{Served, serve, serve_with, xpgn};

/// Sends `request` as is and returns (status, headers, body).
fn raw(addr: &str, request: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    // Long enough for any answer; a server that never answers fails the
    // test instead of hanging it.
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

fn get(addr: &str, path: &str) -> (u16, String, String) {
    raw(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n"),
    )
}

fn get_json(addr: &str, path: &str) -> serde_json::Value {
    let (status, _, body) = get(addr, path);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

fn game_id(s: &Served, query: &str) -> i64 {
    let v = get_json(&s.addr, &format!("/api/games?{query}"));
    v["games"][0]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{query}: {v}"))
}

#[test]
fn hostile_tags_and_comments_are_text_never_markup() {
    let s = serve("hostile", 0);
    let id = game_id(&s, "event=Hostile");
    let (status, head, body) = get(&s.addr, &format!("/game/{id}"));
    assert_eq!(status, 200);
    assert!(head.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"));
    assert!(head.contains("X-Content-Type-Options: nosniff"));
    // The only script element is the embedded asset.
    assert_eq!(body.matches("<script").count(), 1, "{body}");
    assert!(body.contains("<script src=\"/assets/app.js\" defer></script>"));
    assert!(body.contains("&lt;script&gt;window.__xss = 1; alert(1)&lt;/script&gt;"));
    assert!(body.contains("&lt;script&gt;alert(&quot;comment&quot;)&lt;/script&gt;"));
    assert!(body.contains("&lt;b&gt;bold&lt;/b&gt;"));
    assert!(body.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(!body.contains("<img"));
    assert!(body.contains("Hostile &quot;quoted&quot; &amp; &#39;single&#39; &lt;/td&gt;"));
    assert!(body.contains("Robert&#39;); DROP TABLE games;--"));
    // The long value is shown whole on the game page...
    assert!(body.contains(&"x".repeat(20_000)));
    // ...and cut in the list.
    let (_, _, list) = get(&s.addr, "/?event=Hostile");
    assert!(list.contains("Hostile &quot;quoted&quot;"));
    assert!(!list.contains("<script>window"));
    assert_eq!(list.matches("<script").count(), 1);
    // The JSON API carries the values as JSON strings.
    let g = get_json(&s.addr, &format!("/api/game/{id}"));
    assert_eq!(
        g["tags"][4][1].as_str(),
        Some("<script>window.__xss = 1; alert(1)</script>")
    );
    assert_eq!(
        g["plies"][0]["comments"][0].as_str(),
        Some("<script>alert(\"comment\")</script>")
    );
    assert_eq!(
        g["plies"][2]["variations"][0].as_str(),
        Some("f4 {<b>bold</b>} exf4")
    );
}

#[test]
fn paths_outside_the_routes_and_assets_are_404_and_only_get_is_served() {
    let s = serve("paths", 0);
    for path in [
        "/../Cargo.toml",
        "/../../etc/passwd",
        "/assets/../Cargo.toml",
        "/assets/..%2F..%2FCargo.toml",
        "/assets/%2e%2e/%2e%2e/Cargo.toml",
        "/assets/",
        "/assets/app.css/",
        "/etc/passwd",
        "/src/serve/assets/app.css",
        "/game/abc",
        "/game/-1",
        "/game/99999999",
        "/game/1/../2",
        "/api/game/",
        "/api/export/999999",
    ] {
        let (status, _, body) = get(&s.addr, path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(
            !body.contains("[package]") && !body.contains("root:"),
            "{path}"
        );
    }
    let (status, head, body) = get(&s.addr, "/assets/app.css");
    assert_eq!(status, 200);
    assert!(head.contains("Content-Type: text/css"));
    assert!(body.contains(".board-col"));
    // POST opens a text (/open); nothing else takes it.
    for path in ["/", "/game/1", "/api/games"] {
        let post = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\n\r\n",
            s.addr
        );
        assert_eq!(raw(&s.addr, &post).0, 405, "{path}");
    }
    assert_eq!(raw(&s.addr, "DELETE /game/1 HTTP/1.1\r\n\r\n").0, 405);
    assert_eq!(raw(&s.addr, "GET http://evil/ HTTP/1.1\r\n\r\n").0, 400);
    assert_eq!(raw(&s.addr, "nonsense\r\n\r\n").0, 400);
    let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(40_000));
    assert_eq!(raw(&s.addr, &huge).0, 431);
    let (status, head, body) = raw(
        &s.addr,
        &format!("HEAD / HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr),
    );
    assert_eq!(status, 200);
    assert!(head.contains("Content-Length: ") && body.is_empty());
    assert_eq!(get(&s.addr, "/?variant=xiangqi").0, 400);
    assert_eq!(get(&s.addr, "/?date_from=yesterday").0, 400);
    assert_eq!(get(&s.addr, "/?result=2-0").0, 400);
    assert_eq!(get(&s.addr, "/position?variant=chess&fen=nonsense").0, 400);
    assert_eq!(get(&s.addr, "/game/1?ply=x").0, 400);
}

#[test]
fn a_query_of_many_rows_returns_one_bounded_page() {
    let s = serve("paging", 2_500);
    let v = get_json(&s.addr, "/api/games?per=1000000");
    assert_eq!(v["games"].as_array().unwrap().len(), 100);
    assert_eq!(
        (v["per"].as_u64(), v["more"].as_bool()),
        (Some(100), Some(true))
    );
    let v = get_json(&s.addr, "/api/games?white=bulk");
    assert_eq!(v["games"].as_array().unwrap().len(), 50);
    let v = get_json(&s.addr, "/api/games?white=bulk&page=50");
    assert_eq!(v["games"].as_array().unwrap().len(), 50);
    assert_eq!(v["more"].as_bool(), Some(false));
    let v = get_json(&s.addr, "/api/games?white=bulk&page=51");
    assert_eq!(v["games"].as_array().unwrap().len(), 0);
    let (status, _, body) = get(&s.addr, "/?white=bulk&page=2");
    assert_eq!(status, 200);
    assert_eq!(body.matches("class=\"game-link\"").count(), 50);
    assert!(body.contains("id=\"page-next\" href=\"/?white=bulk&amp;page=3\""));
    assert!(body.contains("id=\"page-prev\" href=\"/?white=bulk&amp;page=1\""));
    // Every game reaches the start: one page of them, not 2,500.
    let v = get_json(&s.addr, "/api/position?variant=chess");
    assert_eq!(v["games"].as_array().unwrap().len(), 50);
    assert_eq!(v["more"].as_bool(), Some(true));
}

#[test]
fn game_tree_position_export_and_diagram_answers() {
    let s = serve("api", 0);
    let id = game_id(&s, "variant=courier-spiel&white=Fischer");
    let g = get_json(&s.addr, &format!("/api/game/{id}"));
    assert_eq!(g["variant"], "courier-spiel");
    let plies = g["plies"].as_array().unwrap();
    let promo = plies
        .iter()
        .find(|p| p["san"].as_str().unwrap().contains("&h8=C"))
        .expect("the waiting promotion");
    let ply = promo["ply"].as_u64().unwrap();
    // The game page at that ply draws the promoted Courier on h8.
    let (status, _, body) = get(&s.addr, &format!("/game/{id}?ply={ply}"));
    assert_eq!(status, 200);
    assert!(body.contains(r#"data-square="h8" data-piece="white courier""#));
    let (_, _, before) = get(&s.addr, &format!("/game/{id}?ply={}", ply - 1));
    assert!(before.contains(r#"data-square="h8" data-piece="white pawn""#));
    assert!(before.contains(r#"<g class="waiting" data-square="h8""#));
    // A ply past the end shows the end.
    let (_, _, end) = get(&s.addr, &format!("/game/{id}?ply=100000"));
    assert!(end.contains(&format!("Ply {} of {}", plies.len(), plies.len())));

    // Tree and position search from the start of Courier-Spiel.
    let t = get_json(&s.addr, "/api/tree?variant=courier-spiel");
    assert!(t["games"].as_u64().unwrap() >= 3, "{t}");
    let first = &t["moves"][0];
    assert!(first["games"].as_u64().unwrap() >= 1);
    let fen = first["fen"].as_str().unwrap();
    let p = get_json(
        &s.addr,
        &format!(
            "/api/position?variant=courier-spiel&fen={}",
            fen.replace(' ', "+")
        ),
    );
    assert_eq!(p["games"][0]["ply"].as_i64(), Some(1), "{p}");

    // Export: the original bytes as imported; XPGN canonical.
    let (status, _, original) = get(&s.addr, &format!("/api/export/{id}?to=original"));
    assert_eq!(status, 200);
    let file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/courier-spiel/01-castling-both-sides-and-waiting-promotion.xpgn"),
    )
    .unwrap();
    assert!(file.starts_with(original.trim_end()), "{original}");
    let (_, _, xpgn) = get(&s.addr, &format!("/api/export/{id}"));
    assert!(xpgn.contains("[Variant \"Courier-Spiel\"]"));

    // Invalid games show their diagnostics.
    let bad = game_id(&s, "status=invalid");
    let (_, _, body) = get(&s.addr, &format!("/game/{bad}"));
    assert!(body.contains("<section class=\"diagnostics\">"));
    assert!(body.contains("<li class=\"error\">"));

    // Every stored game answers, at its start, in the middle and past its end.
    let all = get_json(&s.addr, "/api/games?per=100");
    let games = all["games"].as_array().unwrap();
    assert!(games.len() >= 40);
    for g in games {
        let id = g["id"].as_i64().unwrap();
        let half = g["plies"].as_i64().unwrap() / 2;
        for q in ["", "?ply=0", &format!("?ply={half}&flip=1"), "?ply=100000"] {
            let (status, _, body) = get(&s.addr, &format!("/game/{id}{q}"));
            assert_eq!(status, 200, "/game/{id}{q}: {body}");
        }
        get_json(&s.addr, &format!("/api/game/{id}"));
        assert_eq!(get(&s.addr, &format!("/api/export/{id}?to=json")).0, 200);
    }

    let (status, head, svg) = get(&s.addr, "/api/diagram.svg?variant=counsellor");
    assert_eq!(status, 200);
    assert!(head.contains("Content-Type: image/svg+xml"));
    assert_eq!(svg.matches("class=\"piece\"").count(), 48);
}

#[test]
fn serve_refuses_a_missing_database_and_says_where_it_listens() {
    let o = xpgn(&[
        "serve",
        "--db",
        "/nonexistent/x.db",
        "--addr",
        "127.0.0.1:0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such database"));
    let s = serve("addr", 0);
    assert!(s.addr.starts_with("127.0.0.1:"));
}

/// A game of `moves` moves of knights going out and back (`1. Nf3 Nf6 2.
/// Ng1 Ng8 ...`): the board is the start's after every multiple of 4
/// plies.
fn knights(moves: usize) -> String {
    let mut text =
        String::from("[Event \"Knights\"]\n[White \"Out\"]\n[Black \"Back\"]\n[Result \"*\"]\n\n");
    for i in 0..moves {
        let pair = if i % 2 == 0 { "Nf3 Nf6" } else { "Ng1 Ng8" };
        text.push_str(&format!("{}. {pair}\n", i + 1));
    }
    text.push_str("*\n");
    text
}

#[test]
fn a_long_game_is_shown_and_given_a_window_of_moves_at_a_time() {
    // Over 256 KB of text: read from the stored main line.
    let text = knights(30_000);
    assert!(text.len() > 300_000);
    let s = serve_with("long", 0, &[("long.pgn", &text)], &[]);
    let id = game_id(&s, "event=Knights");
    let plies = 60_000;
    let (status, _, body) = get(&s.addr, &format!("/game/{id}"));
    assert_eq!(status, 200);
    assert!(
        body.contains(&format!("Ply 0 of {plies}")),
        "{}",
        &body[..2000]
    );
    assert!(body.contains(&format!("Plies 1–500 of {plies}")));
    assert_eq!(body.matches("<a class=\"move").count(), 500);
    assert!(body.contains(&format!("id=\"window-next\" href=\"/game/{id}?ply=501\"")));
    assert!(!body.contains("window-prev"));
    // The text is shown in part; the page stays small.
    assert!(body.contains("first 256 KB of"));
    assert!(body.len() < 400_000, "{} bytes", body.len());

    // Near the end: the window that holds the ply, the board of that ply.
    let (status, _, body) = get(&s.addr, &format!("/game/{id}?ply=59998"));
    assert_eq!(status, 200);
    assert!(body.contains(&format!("Ply 59998 of {plies}")));
    assert!(body.contains(&format!("Plies 59501–60000 of {plies}")));
    assert_eq!(body.matches("<a class=\"move").count(), 500);
    assert!(body.contains(r#"<a class="move current" id="m59998" data-ply="59998" data-fen="#));
    assert!(body.contains(&format!("id=\"window-prev\" href=\"/game/{id}?ply=59500\"")));
    assert!(body.contains("<code id=\"fen\">rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w"));

    // The API: 500 plies unless fewer are asked for, from any ply, and
    // the position of any ply.
    let g = get_json(&s.addr, &format!("/api/game/{id}"));
    assert_eq!(g["plies"].as_array().unwrap().len(), 500);
    assert_eq!(
        (
            g["ply_count"].as_u64(),
            g["from"].as_u64(),
            g["more"].as_bool()
        ),
        (Some(plies), Some(1), Some(true))
    );
    assert_eq!(g["annotated"], false);
    assert_eq!(g["original_complete"], false);
    assert_eq!(g["original_bytes"].as_u64(), Some(text.len() as u64));
    assert!(g["original"].as_str().unwrap().len() <= 256 * 1024);
    let g = get_json(
        &s.addr,
        &format!("/api/game/{id}?from=59999&count=10&ply=4"),
    );
    let tail = g["plies"].as_array().unwrap();
    assert_eq!(tail.len(), 2);
    assert_eq!(
        (tail[1]["ply"].as_u64(), tail[1]["san"].as_str()),
        (Some(60_000), Some("Ng8"))
    );
    assert_eq!(g["more"], false);
    assert_eq!(
        g["position"]["fen"]
            .as_str()
            .map(|f| f.split(' ').next().unwrap()),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    );
    assert_eq!(get(&s.addr, &format!("/api/game/{id}?from=x")).0, 400);
    // Exported as its bytes; not rewritten whole by the server.
    let (status, _, original) = get(&s.addr, &format!("/api/export/{id}?to=original"));
    assert_eq!((status, original.len()), (200, text.len()));
    let (status, _, why) = get(&s.addr, &format!("/api/export/{id}"));
    assert_eq!(status, 400);
    assert!(why.contains("to=original"), "{why}");
}

/// The peak resident memory of process `pid`, in KB (`VmHWM`).
#[cfg(target_os = "linux")]
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
#[cfg(target_os = "linux")]
fn the_original_of_a_long_game_is_exported_in_bounded_memory() {
    // About 19 MB of text: held whole, it would raise the server's peak
    // by as much.
    let text = knights(1_200_000);
    assert!(text.len() > 18_000_000);
    let s = serve_with("exportlong", 0, &[("k.pgn", &text)], &[]);
    let id = game_id(&s, "event=Knights");
    let before = peak_kb(s.pid());
    let (status, head, original) = raw(
        &s.addr,
        &format!(
            "HEAD /api/export/{id}?to=original HTTP/1.1\r\nHost: {}\r\n\r\n",
            s.addr
        ),
    );
    assert_eq!(status, 200);
    assert!(
        head.contains(&format!("Content-Length: {}\r\n", text.len())),
        "{head}"
    );
    assert!(original.is_empty());
    let (status, head, original) = get(&s.addr, &format!("/api/export/{id}?to=original"));
    assert_eq!(status, 200);
    assert!(
        head.contains(&format!("Content-Length: {}\r\n", text.len())),
        "{head}"
    );
    assert!(
        original == text,
        "{} bytes of {}",
        original.len(),
        text.len()
    );
    let grew = peak_kb(s.pid()) - before;
    assert!(grew < 8 * 1024, "the peak grew by {grew} KB");
    assert_eq!(get(&s.addr, "/api/export/999999?to=original").0, 404);
}

#[test]
fn a_short_game_over_one_window_is_paged_with_its_comments() {
    let mut text = knights(300);
    text = text.replacen("1. Nf3 Nf6", "1. Nf3 {out} Nf6", 1);
    text = text.replacen("300. Ng1 Ng8", "300. Ng1 Ng8 {home}", 1);
    let s = serve_with("windows", 0, &[("k.pgn", &text)], &[]);
    let id = game_id(&s, "event=Knights");
    let (_, _, first) = get(&s.addr, &format!("/game/{id}"));
    assert!(first.contains("Plies 1–500 of 600"));
    assert!(first.contains("<span class=\"comment\">out</span>"));
    assert!(!first.contains(">home<"));
    let (_, _, second) = get(&s.addr, &format!("/game/{id}?ply=501"));
    assert!(second.contains("Plies 501–600 of 600"));
    assert!(second.contains("<span class=\"comment\">home</span>"));
    assert_eq!(second.matches("<a class=\"move").count(), 100);
    let g = get_json(&s.addr, &format!("/api/game/{id}?from=2"));
    assert_eq!(g["plies"].as_array().unwrap().len(), 500);
    assert_eq!(g["annotated"], true);
    assert_eq!(g["plies"][0]["ply"].as_u64(), Some(2));
}

#[test]
fn a_foreign_host_is_refused() {
    let s = serve("hosts", 0);
    let port = s.addr.rsplit(':').next().unwrap();
    for host in [format!("localhost:{port}"), s.addr.clone()] {
        let (status, _, _) = raw(
            &s.addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        );
        assert_eq!(status, 200, "{host}");
    }
    for host in [
        format!("rebound.example:{port}"),
        format!("localhost.rebound.example:{port}"),
        "localhost:1".to_string(),
    ] {
        let (status, _, body) = raw(
            &s.addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        );
        assert_eq!(status, 421, "{host}");
        assert!(!body.contains("\"games\""), "{body}");
    }
    assert_eq!(raw(&s.addr, "GET / HTTP/1.1\r\n\r\n").0, 400);
}

#[test]
fn the_names_of_allow_host_are_answered_too() {
    let s = serve_with(
        "allowhost",
        0,
        &[],
        &[
            "--allow-host",
            "Chess.Example",
            "--allow-host",
            "viewer.lan.",
        ],
    );
    let port = s.addr.rsplit(':').next().unwrap();
    for host in [
        format!("chess.example:{port}"),
        format!("viewer.lan:{port}"),
        format!("localhost:{port}"),
    ] {
        let (status, _, body) = raw(
            &s.addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        );
        assert_eq!(status, 200, "{host}");
        assert!(body.contains("\"games\""), "{body}");
    }
    for host in [
        format!("www.chess.example:{port}"),
        format!("rebound.example:{port}"),
        "chess.example:1".to_string(),
    ] {
        let (status, _, _) = raw(
            &s.addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        );
        assert_eq!(status, 421, "{host}");
    }
    // A name with a port, or no name at all, is refused before serving.
    for bad in ["chess.example:8080", "", "a..b", "under_score"] {
        let o = xpgn(&[
            "serve",
            "--db",
            "x.db",
            "--addr",
            "127.0.0.1:0",
            "--allow-host",
            bad,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--allow-host"), "{bad}: {err}");
    }
}

/// Opens `n` connections that send nothing.
fn idle(addr: &str, n: usize) -> Vec<TcpStream> {
    (0..n).map(|_| TcpStream::connect(addr).unwrap()).collect()
}

#[test]
fn past_the_connection_limit_clients_are_answered_503_with_retry_after() {
    let s = serve_with("limit", 0, &[], &["--max-connections", "4"]);
    let held = idle(&s.addr, 4);
    let (status, head, _) = get(&s.addr, "/");
    assert_eq!(status, 503, "{head}");
    assert!(head.contains("Retry-After: "), "{head}");
    drop(held);
    // Once they are closed, clients are answered again.
    let mut status = 0;
    for _ in 0..100 {
        status = get(&s.addr, "/").0;
        if status == 200 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(status, 200);
}

#[test]
fn slow_and_idle_clients_neither_lock_out_others_nor_stay_past_their_deadline() {
    let s = serve_with(
        "slow",
        0,
        &[],
        &["--request-timeout", "2", "--workers", "2"],
    );
    let _idle = idle(&s.addr, 40);
    // Slow clients: a byte of a never-ending header now and then.
    let slow: Vec<_> = (0..10)
        .map(|_| {
            let addr = s.addr.clone();
            std::thread::spawn(move || {
                let mut c = TcpStream::connect(&addr).unwrap();
                c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                c.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
                c.set_nonblocking(true).unwrap();
                let mut answer = Vec::new();
                let mut buf = [0; 512];
                for _ in 0..600 {
                    if c.write_all(b"a").is_err() {
                        break;
                    }
                    match c.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => answer.extend_from_slice(&buf[..n]),
                        Err(_) => {}
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                String::from_utf8_lossy(&answer).into_owned()
            })
        })
        .collect();
    // Others are served meanwhile.
    for _ in 0..5 {
        let (status, _, body) = get(&s.addr, "/api/games");
        assert_eq!(status, 200, "{body}");
    }
    // Each slow client is stopped at its deadline with 408, not served
    // for as long as it keeps sending.
    for t in slow {
        let answer = t.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 408 "), "{answer:?}");
    }
}

#[test]
fn a_game_page_shows_clocks_an_evaluation_graph_and_the_comment_arrows() {
    let game = "[Event \"Clocked\"]\n[White \"W\"]\n[Black \"B\"]\n\n1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%eval 0.25] [%clk 0:02:58] } 2. Nf3 { [%eval #3] [%clk 0:02:55.5] [%cal Gf3e5] [%csl Re5] } 2... Nc6 { [%eval -1.5] [%clk 0:02:50] } *\n";
    let s = serve_with("clocks", 0, &[("clocked.pgn", game)], &[]);
    let id = game_id(&s, "event=Clocked");
    let (status, _, body) = get(&s.addr, &format!("/game/{id}?ply=3"));
    assert_eq!(status, 200);
    // After ply 3 (White's Nf3): White's clock of ply 3, Black's of ply 2.
    assert!(
        body.contains("<span class=\"clock clock-white\">White 0:02:55.5</span> · <span class=\"clock clock-black\">Black 0:02:58</span>"),
        "{body}"
    );
    // One point per evaluation, each a link to its ply, mate at the top.
    let graph = &body[body.find("<svg class=\"eval-graph\"").unwrap()..];
    let graph = &graph[..graph.find("</svg>").unwrap()];
    assert_eq!(graph.matches("<circle class=\"eval\"").count(), 4);
    assert!(graph.contains(&format!("href=\"/game/{id}?ply=3\"")));
    assert!(graph.contains("<title>ply 3: #3</title>") && graph.contains("cy=\"4.0\""));
    assert!(graph.contains("<title>ply 4: -1.50</title>"));
    // The board draws ply 3's arrow and square in their colours.
    assert!(body.contains("data-from=\"f3\" data-to=\"e5\" data-color=\"green\""));
    assert!(body.contains("class=\"mark\" data-square=\"e5\" data-color=\"red\""));
    // At the start: no clock yet, no arrow.
    let (_, _, start) = get(&s.addr, &format!("/game/{id}?ply=0"));
    assert!(start.contains("White –</span> · <span class=\"clock clock-black\">Black –</span>"));
    assert!(!start.contains("data-color=\"green\""));
    // A game without these comments has neither.
    let other = game_id(&s, "event=Hostile");
    let (_, _, plain) = get(&s.addr, &format!("/game/{other}"));
    assert!(!plain.contains("id=\"clocks\"") && !plain.contains("eval-graph"));
}

const BLITZ: &str = include_str!("../browser/games/blitz-with-clocks.pgn");
const HOUSE: &str = include_str!("../browser/games/crazyhouse.pgn");

fn enc(text: &str) -> String {
    xpgn::serve::http::percent_encode(text)
}

/// What `xpgn validate` says of the one faulty move of `game`: the text
/// after the move as written.
fn cli_reason(name: &str, game: &str, mv: &str) -> String {
    let dir = std::env::temp_dir().join(format!("xpgn-reason-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.xpgn");
    std::fs::write(&file, game).unwrap();
    let o = xpgn(&["validate", file.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    let line = out.lines().next().unwrap_or("");
    let marker = format!("`{mv}`: ");
    line[line.find(&marker).unwrap_or_else(|| panic!("{out}")) + marker.len()..].to_string()
}

#[test]
fn the_legal_moves_of_a_position_come_with_their_san_and_an_illegal_one_with_the_cli_reason() {
    let s = serve_with("moves", 0, &[("house.pgn", HOUSE)], &[]);
    // Counsellor Chess, 12x8: the start position as the server writes it.
    let start = get_json(&s.addr, "/api/position?variant=counsellor")["position"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/moves?variant=counsellor&fen={}", enc(&start));
    let all = get_json(&s.addr, &base);
    let moves = all["moves"].as_array().unwrap();
    assert!(moves.len() > 20, "{all}");
    assert_eq!(all["turn"], "white");
    let k4 = moves
        .iter()
        .find(|m| m["from"] == "k2" && m["to"] == "k4")
        .unwrap_or_else(|| panic!("{all}"));
    assert_eq!(k4["san"], "k4");
    assert!(k4["fen"].as_str().unwrap().contains(" b "), "{k4}");
    // Each move's position is the one that move leads to: no two alike.
    let mut fens: Vec<&str> = moves.iter().map(|m| m["fen"].as_str().unwrap()).collect();
    fens.sort_unstable();
    fens.dedup();
    assert_eq!(fens.len(), moves.len());
    // From one square to another that no legal move joins: the reason.
    let illegal = get_json(&s.addr, &format!("{base}&from=l1&to=l5"));
    assert_eq!(illegal["moves"].as_array().unwrap().len(), 0);
    let game = "[Variant \"Counsellor\"]\n\n1. l1l5 *\n";
    assert_eq!(
        illegal["reason"].as_str().unwrap(),
        cli_reason("co", game, "l1l5")
    );
    // Only the moves asked for: from k2.
    let from_k2 = get_json(&s.addr, &format!("{base}&from=k2"));
    assert!(
        from_k2["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["from"] == "k2")
    );
    // Crazyhouse: drops from the hand, and a drop of a piece not held.
    let id = game_id(&s, "event=House%20rules");
    let at = get_json(&s.addr, &format!("/api/game/{id}?ply=16"));
    let fen = at["position"]["fen"].as_str().unwrap().to_string();
    let zh = format!("/api/moves?variant=crazyhouse&fen={}", enc(&fen));
    let drops = get_json(&s.addr, &format!("{zh}&drop=pawn"));
    let drops = drops["moves"].as_array().unwrap();
    assert!(!drops.is_empty());
    assert!(drops.iter().all(|m| m["drop"] == "pawn"
        && m["from"].is_null()
        && m["san"].as_str().unwrap().starts_with("P@")));
    let no_queen = get_json(&s.addr, &format!("{zh}&drop=queen&to=h6"));
    let text = HOUSE.split("\n\n").nth(1).unwrap();
    let upto: Vec<&str> = text.split(' ').take(24).collect();
    let game = format!("[Variant \"Crazyhouse\"]\n\n{} 9. Q@h6 *\n", upto.join(" "));
    assert_eq!(
        no_queen["reason"].as_str().unwrap(),
        cli_reason("zh", &game, "Q@h6")
    );
    // Bad input: 400 with the reason.
    for (query, why) in [
        ("variant=chess&fen=nonsense", "fen: "),
        ("variant=chess", "fen: a position string is needed"),
        ("variant=dragonchess&fen=8", "unknown variant"),
        (
            &format!("variant=counsellor&fen={}&from=m9", enc(&start)),
            "from: `m9` is no square",
        ),
        (
            &format!("variant=counsellor&fen={}&drop=dragon", enc(&start)),
            "drop: Counsellor Chess has no piece",
        ),
    ] {
        let (status, _, body) = get(&s.addr, &format!("/api/moves?{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(why), "{query}: {body}");
    }
}

#[test]
fn the_board_svg_draws_an_exact_position_with_its_marks_and_refuses_bad_input() {
    let s = serve("board-svg", 0);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let base = format!("/api/board.svg?variant=chess&fen={}", enc(start));
    let (status, head, svg) = get(
        &s.addr,
        &format!("{base}&flip=1&last=e2.e4&arrow=green.f3.e5&arrow=red.a1.a8&mark=blue.e5"),
    );
    assert_eq!(status, 200, "{svg}");
    assert!(head.contains("Content-Type: image/svg+xml"));
    assert!(svg.contains("data-from=\"f3\" data-to=\"e5\" data-color=\"green\""));
    assert!(svg.contains("data-from=\"a1\" data-to=\"a8\" data-color=\"red\""));
    assert!(svg.contains("class=\"mark\" data-square=\"e5\" data-color=\"blue\""));
    assert!(svg.contains("<g class=\"last-move\"><rect data-square=\"e2\""));
    for (query, why) in [
        ("&last=e2.z9", "last: `z9` is no square"),
        ("&arrow=purple.e2.e4", "arrow: `purple.e2.e4`"),
        ("&arrow=green.e2", "arrow: COLOUR.FROM.TO"),
        ("&mark=red.i1", "mark: `i1` is no square"),
    ] {
        let (status, _, body) = get(&s.addr, &format!("{base}{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(why), "{query}: {body}");
    }
    // The board alone is no position to draw a move on.
    let (status, _, body) = get(
        &s.addr,
        "/api/board.svg?variant=chess&fen=8%2F8%2F8%2F8%2F8%2F8%2F8%2F8",
    );
    assert_eq!(status, 400);
    assert!(body.contains("fen: position string"), "{body}");
}

/// The values of attribute `name` in `html`, in order.
fn attributes<'h>(html: &'h str, name: &str) -> Vec<&'h str> {
    let pattern = format!(" {name}=\"");
    html.match_indices(&pattern)
        .map(|(i, _)| {
            let rest = &html[i + pattern.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

#[test]
fn variations_are_a_tree_of_moves_with_positions_and_each_move_has_its_own_url() {
    let s = serve_with("variations", 0, &[("blitz.pgn", BLITZ)], &[]);
    let id = game_id(&s, "event=Online%20blitz");
    let g = get_json(&s.addr, &format!("/api/game/{id}"));
    // 3... Nf6 4. Ng5 d5 5. exd5 Na5 $5, an alternative to 3... Bc5 (ply 6).
    let line = &g["plies"][5]["lines"][0];
    let sans: Vec<&str> = line
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["Nf6", "Ng5", "d5", "exd5", "Na5"]);
    assert_eq!(line[4]["nags"], serde_json::json!([5]));
    assert_eq!(line[2]["path"], "0.3");
    let d5 = line[2]["fen"].as_str().unwrap();
    assert!(
        d5.starts_with("r1bqkb1r/ppp2ppp/2n2n2/3pp1N1/2B1P3/"),
        "{d5}"
    );
    assert_eq!(g["plies"][16]["annotations"]["arrows"][0]["from"], "d5");
    assert_eq!(g["plies"][16]["annotations"]["clock_ms"], 230_000);
    // The page: each move a link with the position after it, the
    // variation's third move at its own URL.
    let (status, _, page) = get(&s.addr, &format!("/game/{id}?ply=6&var=0.3"));
    assert_eq!(status, 200, "{page}");
    let board = &page[page.find("id=\"board\"").unwrap()..];
    assert_eq!(attributes(board, "data-fen")[0], d5);
    assert!(
        page.contains("<a class=\"move current\" id=\"v6-0-3\""),
        "{page}"
    );
    let moves = &page[page.find("id=\"moves\"").unwrap()..page.find("</section>").unwrap()];
    let fens = attributes(moves, "data-fen");
    // 39 plies and 5 + 7 variation moves.
    assert_eq!(fens.len(), 39 + 5 + 7);
    assert!(fens.contains(&d5));
    assert_eq!(attributes(moves, "data-clock").len(), 39);
    // The steps of a variation move: back to its second move, on to its
    // fourth.
    assert!(page.contains(&format!(
        "id=\"prev\" href=\"/game/{id}?ply=6&amp;var=0.2\""
    )));
    assert!(page.contains(&format!(
        "id=\"next\" href=\"/game/{id}?ply=6&amp;var=0.4\""
    )));
    // Its first move steps back to the main line's ply 5.
    let (_, _, first) = get(&s.addr, &format!("/game/{id}?ply=6&var=0.1"));
    assert!(first.contains(&format!("id=\"prev\" href=\"/game/{id}?ply=5\"")));
    // NAGs as their symbols, with their meaning.
    assert!(
        page.contains("<span class=\"nag\" title=\"White has a slight advantage ($14)\"> ⩲</span>")
    );
    // Malformed or unknown: 400 with the reason.
    for (query, why) in [
        ("ply=6&var=0.9", "var: ply 6 has no variation move 0.9"),
        ("ply=7&var=0.1", "var: ply 7 has no variation move 0.1"),
        ("ply=6&var=0", "var must be pairs of numbers"),
        ("ply=6&var=0.x", "var must be pairs of numbers"),
        ("ply=six", "ply must be a number"),
    ] {
        let (status, _, body) = get(&s.addr, &format!("/game/{id}?{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains(why), "{query}: {body}");
    }
}

fn post(addr: &str, path: &str, content_type: &str, body: &str) -> (u16, String, String) {
    raw(
        addr,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
}

#[test]
fn an_opened_text_is_read_and_checked_in_memory_and_never_stored() {
    let s = serve("open", 0);
    let before = get_json(&s.addr, "/api/games?per=100")["games"]
        .as_array()
        .unwrap()
        .len();
    let faulty = "[Variant \"Counsellor\"]\n[White \"Pasted\"]\n\n1. k4 k5 2. l1l5 *\n";
    let two = format!("{faulty}\n{BLITZ}");
    // The JSON: each game with its diagnostics, those of xpgn validate.
    let (status, _, body) = post(&s.addr, "/api/open", "text/plain", &two);
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    assert_eq!(v["games"][0]["status"], "invalid");
    assert_eq!(v["games"][0]["variant"], "counsellor");
    let message = v["games"][0]["diagnostics"][0]["message"].as_str().unwrap();
    assert_eq!(
        message,
        format!("`l1l5`: {}", cli_reason("open", faulty, "l1l5"))
    );
    assert_eq!(v["games"][1]["status"], "valid");
    assert_eq!(v["games"][1]["plies"], 39);
    // The page, from a form as a browser without script sends it: the
    // board, the moves and the diagnostic, every value escaped.
    let form = format!("text={}", enc(faulty).replace("%20", "+"));
    let (status, _, page) = post(&s.addr, "/open", "application/x-www-form-urlencoded", &form);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Opened text, not stored: 1 game read, 0 valid, 1 invalid."));
    assert!(
        page.contains(&format!(
            "<li class=\"error\">line 4, column 13, ply 3: {}</li>",
            escape_html(message)
        )),
        "{}",
        &page[page.len().saturating_sub(3000)..]
    );
    assert!(page.contains("id=\"board\"") && !page.contains("data-game="));
    assert!(page.contains("<a class=\"move\" id=\"m1\" data-ply=\"1\""));
    // The second game of two, by number.
    let (status, _, page) = post(&s.addr, "/open?game=2", "text/plain", &two);
    assert_eq!(status, 200);
    assert!(page.contains("<span class=\"white\">Morgan</span>"));
    assert!(page.contains("<tr class=\"invalid\"><td>1</td><td>Pasted</td>"));
    // Bad input: 400, 411, 413 with the reason; GET of the API is 405.
    for (path, ty, body, status, why) in [
        ("/open", "text/plain", "   \n", 400, "no text was sent"),
        (
            "/open?game=3",
            "text/plain",
            two.as_str(),
            400,
            "game 3: the text has 2 games",
        ),
        (
            "/open?game=0",
            "text/plain",
            two.as_str(),
            400,
            "game must be a number from 1",
        ),
    ] {
        let (got, _, answer) = post(&s.addr, path, ty, body);
        assert_eq!(got, status, "{path}: {answer}");
        assert!(answer.contains(why), "{path}: {answer}");
    }
    let big = "a".repeat(xpgn::serve::http::MAX_BODY + 1);
    let (status, _, answer) = post(&s.addr, "/open", "text/plain", &big);
    assert_eq!(status, 413, "{answer}");
    assert!(answer.contains("over 1 MB"), "{answer}");
    let no_length = format!("POST /open HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr);
    assert_eq!(raw(&s.addr, &no_length).0, 411);
    assert_eq!(get(&s.addr, "/api/open").0, 405);
    let (status, _, form_page) = get(&s.addr, "/open");
    assert_eq!(status, 200);
    assert!(
        form_page.contains(
            "<form class=\"open-form\" id=\"open-form\" method=\"post\" action=\"/open\">"
        )
    );
    // Nothing was stored.
    let after = get_json(&s.addr, "/api/games?per=100")["games"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(before, after);
}

fn escape_html(text: &str) -> String {
    xpgn::render::escape(text)
}

#[test]
fn the_board_editor_offers_every_piece_of_the_variant_and_refuses_a_bad_position() {
    let s = serve("editor", 0);
    let (status, _, page) = get(&s.addr, "/editor?variant=counsellor");
    assert_eq!(status, 200);
    for piece in [
        "white counsellor",
        "black elephant",
        "white king",
        "black pawn",
    ] {
        assert!(
            page.contains(&format!("data-piece=\"{piece}\" role=\"button\"")),
            "{piece}"
        );
    }
    assert!(page.contains("data-files=\"12\" data-ranks=\"8\""));
    assert!(page.contains("<form class=\"position-form editor-form\" id=\"editor-form\" method=\"get\" action=\"/position\">"));
    // Crazyhouse has hands: the editor asks for them.
    let (_, _, zh) = get(&s.addr, "/editor?variant=crazyhouse");
    assert!(zh.contains("id=\"editor-hand\""));
    assert!(!page.contains("id=\"editor-hand\""));
    let (status, _, body) = get(&s.addr, "/editor?variant=chess&fen=rnbqkbnr%2Fpppppppp%2F9");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("fen: "), "{body}");
    // The position page links to the editor with its position.
    let (_, _, position) = get(&s.addr, "/position?variant=counsellor");
    assert!(position.contains("<a id=\"edit\" href=\"/editor?variant=counsellor&amp;fen="));
}

#[test]
fn gates_are_separate_moves_and_a_typed_move_is_resolved_as_the_cli_reads_it() {
    let s = serve("gates", 0);
    let start = get_json(&s.addr, "/api/position?variant=seirawan")["position"]
        .as_str()
        .unwrap()
        .to_string();
    let base = format!("/api/moves?variant=seirawan&fen={}", enc(&start));
    let nf3 = get_json(&s.addr, &format!("{base}&from=g1&to=f3"));
    let sans: Vec<&str> = nf3["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["Nf3", "Nf3/H", "Nf3/E"], "{nf3}");
    assert_eq!(nf3["moves"][1]["gate"]["square"], "g1");
    assert_eq!(nf3["moves"][1]["gate"]["piece"], "hawk");
    // A move typed: found in any notation, or refused as validate does.
    let typed = get_json(&s.addr, &format!("{base}&san=g1f3h"));
    assert_eq!(typed["moves"][0]["san"], "Nf3/H");
    let bad = get_json(&s.addr, &format!("{base}&san=Ke2"));
    assert!(bad["moves"].as_array().unwrap().is_empty());
    let game = "[Variant \"Seirawan\"]\n\n1. Ke2 *\n";
    assert_eq!(
        bad["reason"].as_str().unwrap(),
        cli_reason("gates", game, "Ke2")
    );
}

/// (id, first matching ply) of each game `xpgn query ARGS --format json`
/// finds in the served database.
fn cli_found(s: &Served, args: &[&str]) -> Vec<(i64, i64)> {
    let db = s.db();
    let mut all = vec!["query", "--db", db.to_str().unwrap(), "--format", "json"];
    all.extend_from_slice(args);
    let o = xpgn(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["id"].as_i64().unwrap(), v["ply"].as_i64().unwrap())
        })
        .collect()
}

fn served_found(v: &serde_json::Value) -> Vec<(i64, i64)> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_i64().unwrap(), g["ply"].as_i64().unwrap()))
        .collect()
}

#[test]
fn pattern_and_material_searches_find_what_the_cli_finds_at_the_same_ply() {
    let s = serve("pattern", 0);
    for (query, args) in [
        (
            "piece=white:N@f3&piece=black:n@f6",
            vec!["--piece", "white:N@f3", "--piece", "black:n@f6"],
        ),
        (
            "variant=counsellor&pieces=white:N@j3",
            vec!["--variant", "counsellor", "--piece", "white:N@j3"],
        ),
        (
            "variant=counsellor&material=white:P%3C%3D5",
            vec!["--variant", "counsellor", "--material", "white:P<=5"],
        ),
        (
            "material=white:N0%3Bblack:N%3C%3D1&piece=white:K@g1",
            vec!["--material", "white:N0;black:N<=1", "--piece", "white:K@g1"],
        ),
    ] {
        let expected = cli_found(&s, &args);
        assert!(!expected.is_empty(), "{query}");
        let v = get_json(&s.addr, &format!("/api/pattern?{query}"));
        assert_eq!(served_found(&v), expected, "{query}");
        assert_eq!(v["more"], false);
        // The page links each game at the ply the pattern first stands.
        let (status, _, page) = get(&s.addr, &format!("/pattern?{query}"));
        assert_eq!(status, 200, "{page}");
        for (id, ply) in &expected {
            assert!(
                page.contains(&format!("href=\"/game/{id}?ply={ply}\"")),
                "{query}: {id} at {ply}"
            );
        }
    }
    // A page of one game at a time, the next one after it.
    let all = cli_found(&s, &["--piece", "white:K@*"]);
    assert!(all.len() > 2);
    let second = get_json(&s.addr, "/api/pattern?piece=white:K@*&per=1&page=2");
    assert_eq!(served_found(&second), all[1..2].to_vec());
    assert_eq!(second["more"], true);
}

#[test]
fn the_editor_offers_its_pieces_and_material_to_search_and_bad_patterns_are_400() {
    let s = serve("pattern-bad", 0);
    let (_, _, editor) = get(
        &s.addr,
        "/editor?variant=chess&fen=4k3%2F8%2F8%2F8%2F8%2F8%2F8%2FR3K3",
    );
    assert!(
        editor.contains(
            "id=\"editor-pieces\" size=\"40\" value=\"white:R@a1 white:K@e1 black:k@e8\""
        ),
        "{editor}"
    );
    assert!(
        editor.contains("id=\"editor-material\" size=\"40\" value=\"white:K1,Q0,R1,B0,N0,P0;black:K1,Q0,R0,B0,N0,P0\""),
        "{editor}"
    );
    for (query, reason) in [
        ("piece=white:K-e1", "expected SIDE:LETTER@SQUARE"),
        (
            "piece=white:K@i1",
            "`i1` is no square of the 8x8 board of Chess",
        ),
        (
            "variant=counsellor&piece=white:K@m1",
            "`m1` is no square of the 12x8 board",
        ),
        ("piece=white:X@e4", "`X` is no piece letter of Chess"),
        ("piece=green:K@e1", "`green` is no side"),
        ("material=white:Q%3D1", "`Q=1`: `=1` is no count"),
        ("material=white:Q1%3Bwhite:R1", "white is given twice"),
        (
            "variant=nosuch&piece=white:K@e1",
            "unknown variant `nosuch`",
        ),
        ("", "give a piece"),
    ] {
        for route in ["/pattern", "/api/pattern"] {
            let (status, _, body) = get(&s.addr, &format!("{route}?{query}"));
            assert_eq!(status, 400, "{route}?{query}: {body}");
            assert!(
                body.contains(&escape_html(reason)),
                "{route}?{query}: {body}"
            );
        }
    }
}

#[test]
fn an_opened_game_past_one_window_is_paged_by_posting_its_text_again_with_a_ply() {
    let s = serve("open-windows", 0);
    // A short game first: the long one is the text's second.
    let text = format!(
        "[Event \"Short\"]\n\n1. e4 e5 *\n\n{}",
        knights(600).replace("Knights", "Pasted knights")
    );
    let (status, _, first) = post(&s.addr, "/open?game=2", "text/plain", &text);
    assert_eq!(status, 200, "{first}");
    assert!(first.contains("Plies 1–500 of 1200"), "{first}");
    assert!(first.contains("id=\"m500\"") && !first.contains("id=\"m501\""));
    // The next window is a button posting the text again with its ply.
    assert!(first.contains(
        "<button type=\"submit\" form=\"open-window\" name=\"ply\" value=\"501\" class=\"window-next\" id=\"window-next\">plies 501–1000 &rarr;</button>"
    ));
    assert!(first.contains("<form id=\"open-window\" method=\"post\" action=\"/open\" hidden><input type=\"hidden\" name=\"game\" value=\"2\">"));
    assert!(first.contains(&escape_html("[Event \"Pasted knights\"]")));
    // The body itself with the ply in the query, as the page's script sends it.
    let (status, _, last) = post(&s.addr, "/open?game=2&ply=1200", "text/plain", &text);
    assert_eq!(status, 200, "{last}");
    assert!(last.contains("Plies 1001–1200 of 1200"), "{last}");
    assert!(last.contains("id=\"m1200\"") && !last.contains("id=\"m1000\""));
    assert!(last.contains("value=\"1000\" class=\"window-prev\" id=\"window-prev\""));
    assert!(!last.contains("id=\"window-next\""));
    // Knights out and back: after ply 1200 the board is the start's.
    assert!(
        last.contains("data-fen=\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1200 601\"")
    );
    // The form's fields, as the button sends them.
    let form = format!("game=2&ply=501&text={}", enc(&text));
    let (status, _, middle) = post(&s.addr, "/open", "application/x-www-form-urlencoded", &form);
    assert_eq!(status, 200, "{middle}");
    assert!(middle.contains("Plies 501–1000 of 1200"), "{middle}");
    assert!(middle.contains("id=\"m501\"") && middle.contains("id=\"m1000\""));
    // A short game needs no second window, and its page holds no copy.
    let (_, _, short) = post(&s.addr, "/open", "text/plain", &text);
    assert!(!short.contains("open-window"));
    let (status, _, bad) = post(&s.addr, "/open?game=2&ply=x", "text/plain", &text);
    assert_eq!(status, 400);
    assert!(bad.contains("ply must be a number"), "{bad}");
    // Nothing was stored.
    let stored = get_json(&s.addr, "/api/games?event=Pasted");
    assert_eq!(stored["games"].as_array().unwrap().len(), 0);
}
