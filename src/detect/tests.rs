use super::*;

/// Prints the candidates' costs for the file in `DETECT_FILE` (`cargo test -p simdenc --lib
/// detect::tests::explain -- --ignored --nocapture`).
#[test]
#[ignore]
fn explain() {
    let Ok(path) = std::env::var("DETECT_FILE") else { return };
    let bytes = std::fs::read(path).unwrap();
    let html = std::env::var("DETECT_HTML").is_ok();
    let mut d = Detector::new(if html { Markup::Html } else { Markup::Text });
    d.feed(&bytes);
    std::eprintln!("text: {:?}", alloc::string::String::from_utf8_lossy(&d.text));
    for (cost, enc) in score::legacy_costs(&d.text) {
        std::eprintln!("{:>8} {}", cost, enc.name());
    }
    std::eprintln!("{:?}", d.guess());
}
