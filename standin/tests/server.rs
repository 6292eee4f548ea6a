//! The `standin-server` binary: it writes where it listens, answers the control API and serves
//! Discord's gateway route on the other port. (Also makes a workspace build build the binary,
//! which the bot's crash test runs.)

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// `GET path` on `base` (`http://host:port`): status and body.
fn get(base: &str, path: &str) -> (u16, String) {
    request(base, "GET", path, "")
}

/// `method path` with the JSON `body` on `base`: status and body.
fn request(base: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let host = base.trim_start_matches("http://");
    let mut tcp = TcpStream::connect(host).expect("connect");
    write!(
        tcp,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    (status, body.to_owned())
}

#[test]
fn the_server_says_where_it_listens_and_answers_the_control_api() {
    let dir = std::env::temp_dir().join(format!("standin-server-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_standin-server"))
        .arg("--state-dir")
        .arg(&dir)
        .args(["--shards", "2"])
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let file = dir.join("standin.json");
    let deadline = Instant::now() + Duration::from_secs(20);
    let about: Value = loop {
        if let Ok(text) = std::fs::read_to_string(&file) {
            break serde_json::from_str(&text).expect("JSON");
        }
        assert!(Instant::now() < deadline, "no {}", file.display());
        std::thread::sleep(Duration::from_millis(20));
    };
    let control = about["control_url"].as_str().expect("control_url");
    let api = about["api_url"].as_str().expect("api_url");

    let (status, body) = get(control, "/status");
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(v["connected"], Value::Bool(false), "{v}");
    assert_eq!(v["identifies"], 0, "{v}");
    assert_eq!(v["errors"], serde_json::json!([]), "{v}");
    assert_eq!(v["shards"], 2, "--shards 2: {v}");
    assert_eq!(v["shards_connected"], serde_json::json!([]), "{v}");

    let (status, body) = request(
        control,
        "POST",
        "/channel-guild",
        r#"{"channel": 12, "guild": 4194304}"#,
    );
    assert_eq!(status, 200, "{body}");
    let (status, _) = request(control, "POST", "/channel-guild", r#"{"channel": 12}"#);
    assert_eq!(status, 400, "a guild is needed");

    // Users, and a DM and a group DM between them.
    let mut ids = Vec::new();
    for name in ["alice", "bob", "carol"] {
        let (status, body) = request(
            control,
            "POST",
            "/users",
            &format!(r#"{{"name": "{name}"}}"#),
        );
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).expect("JSON");
        ids.push(v["id"].as_u64().expect("an id"));
    }
    let dm = |users: &[u64]| {
        let (status, body) = request(
            control,
            "POST",
            "/dm",
            &serde_json::json!({"users": users}).to_string(),
        );
        let v: Value = serde_json::from_str(&body).expect("JSON");
        (status, v["channel"].as_u64())
    };
    let (status, first) = dm(&ids[..2]);
    assert_eq!(status, 200);
    assert!(first.is_some());
    assert_eq!(dm(&[ids[1], ids[0]]), (200, first), "one DM per pair");
    let (status, group) = dm(&ids);
    assert_eq!(status, 200);
    assert!(group.is_some() && group != first);
    assert_eq!(dm(&ids[..1]).0, 400, "a DM needs two users");
    assert_eq!(dm(&[ids[0], ids[0]]).0, 400, "distinct users");
    assert_eq!(dm(&[ids[0], 7]).0, 400, "known users");

    let (status, body) = get(api, "/api/v10/gateway");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("ws://"), "{body}");

    let (status, _) = get(control, "/messages/12");
    assert_eq!(status, 200);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
