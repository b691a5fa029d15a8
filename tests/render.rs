//! A real window under Xvfb with Mesa's software Vulkan: `volley play FILE --screenshot OUT`
//! renders the scenario; the image must not be blank and must show the side colours where the
//! bases are. Needs xvfb-run and mesa-vulkan-drivers (the README's "Set up"; .ci/run installs
//! them): without xvfb-run the test fails, naming what to install, rather than passing unrun.

use std::path::PathBuf;
use std::process::Command;

fn have(cmd: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {cmd}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn screenshot_shows_the_armies() {
    assert!(
        have("xvfb-run"),
        "xvfb-run is not installed: the screenshot test needs it and Mesa's software Vulkan \
         (apt-get install xvfb xauth mesa-vulkan-drivers libvulkan1, or run .ci/run, which \
         installs them; see the README's \"Set up\")"
    );
    let out = std::env::temp_dir().join(format!("volley-shot-{}.png", std::process::id()));
    let runtime = std::env::temp_dir().join(format!("volley-xdg-{}", std::process::id()));
    std::fs::create_dir_all(&runtime).unwrap();
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_volley"))
        .args(["play", "scenarios/tutorial.ron", "--screenshot"])
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("WGPU_BACKEND", "vulkan")
        .env("XDG_RUNTIME_DIR", &runtime)
        .status()
        .expect("run volley under xvfb");
    assert!(status.success(), "volley play --screenshot failed");
    let img = image_rgb(&out);
    let (w, h, px) = img;
    assert!(w >= 640 && h >= 360);
    // Not blank: many distinct colours.
    let mut seen = std::collections::HashSet::new();
    for p in px.chunks(3).step_by(97) {
        seen.insert((p[0] / 16, p[1] / 16, p[2] / 16));
    }
    assert!(seen.len() > 6, "image looks blank: {} colours", seen.len());
    // The Prussian blue (40, 62, 140) appears.
    let blue = px
        .chunks(3)
        .filter(|p| {
            (p[0] as i32 - 40).abs() < 20
                && (p[1] as i32 - 62).abs() < 20
                && (p[2] as i32 - 140).abs() < 25
        })
        .count();
    let white = px
        .chunks(3)
        .filter(|p| p[0] > 205 && p[1] > 205 && p[2] > 190 && p[2] < 235)
        .count();
    assert!(blue > 200, "Prussian bases not seen ({blue} px)");
    assert!(white > 200, "Austrian bases not seen ({white} px)");
    std::fs::remove_file(&out).ok();
}

/// Decodes the PNG the program wrote (8-bit RGB or RGBA) into RGB bytes.
fn image_rgb(path: &PathBuf) -> (u32, u32, Vec<u8>) {
    let img = image::open(path).expect("a PNG").to_rgb8();
    (img.width(), img.height(), img.into_raw())
}
