use xpgn::rules::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = Variant::by_name(&args[1]).unwrap();
    let d: u32 = args[2].parse().unwrap();
    let pos = Position::start(v);
    for i in 1..=d { let t = std::time::Instant::now(); let n = perft(&pos, i); println!("{} {} {:?}", i, n, t.elapsed()); }
}
