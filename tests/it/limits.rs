//! Input caps (ARCHITECTURE rule 10) and what errors may quote, through the public entry points:
//! the `coach` CLI (every command that reads stdin, and `meals plan`'s request file), the C API
//! (every `coach_call` method) and the Rust
//! API. Peak memory is measured on a child process: the CLI binary, or this test binary run again
//! as a child that makes one C call (the ignored test `c_child`); the parent reads the child's
//! own peak resident set from `wait4`.

use std::ffi::{CStr, CString};
use std::io::{Read, Write};
use std::process::{Command, Stdio};

use coachcore::assistant::{ItemKind, Validation};
use coachcore::{Coach, CoachError};
use serde_json::{json, Value};

const TODAY: &str = "2026-11-21";
const MB: usize = 1 << 20;

/// Runs `cmd` with `stdin`, returning its exit code and stdout (a child that stops reading early,
/// on input over a cap, is fine).
fn run(mut cmd: Command, stdin: Vec<u8>) -> (Option<i32>, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        if let Err(e) = input.write_all(&stdin) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
    });
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    writer.join().unwrap();
    let status = child.wait().unwrap();
    (status.code(), String::from_utf8_lossy(&out).into_owned())
}

/// How a child run by [`run_measured`] ended.
struct Measured {
    /// Exit code (`None`: killed by a signal).
    code: Option<i32>,
    /// The signal that ended it (6 for an abort, 9 for the kill after the time limit).
    signal: Option<i32>,
    /// Killed after [`Limits::seconds`].
    timed_out: bool,
    /// Wall time, milliseconds.
    ms: u64,
    /// Its stdout (the first 4000 characters).
    out: String,
    /// Peak resident set, bytes.
    peak: usize,
}

/// What a child of [`run_measured`] may use: address space (`setrlimit(RLIMIT_AS)` in the child,
/// so an allocation past it fails there) and wall time (killed after it).
#[derive(Clone, Copy)]
struct Limits {
    address_space: Option<u64>,
    seconds: u64,
}

impl Limits {
    /// No memory limit and ten minutes: the peak-memory tests, which measure rather than limit.
    const MEASURE: Limits = Limits {
        address_space: None,
        seconds: 600,
    };
}

/// Runs `argv` with stdin from the file `stdin` under `limits`, and returns how it ended, its
/// stdout and peak resident set.
///
/// Linux starts a child's `ru_maxrss` at its parent's peak when it execs (the old address space's
/// high-water mark is kept), so a child of this busy test process would report this process's
/// peak. The child is therefore started by a small intermediary, this test binary run again as
/// [`measure_child`], which applies the limits and reports the child's `wait4` usage; its own
/// footprint (about 15 MB, it holds no input) is the floor of what is measured.
fn run_measured(
    argv: &[String],
    stdin: &std::path::Path,
    env: &[(&str, &std::path::Path)],
    limits: Limits,
) -> Measured {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.envs(env.iter().copied());
    cmd.args([
        "--exact",
        "limits::measure_child",
        "--ignored",
        "--nocapture",
    ])
    .args(["--test-threads", "1", "-q"])
    .env("COACH_MEASURE_ARGV", serde_json::to_string(argv).unwrap())
    .env("COACH_MEASURE_STDIN", stdin)
    .env("COACH_MEASURE_SECONDS", limits.seconds.to_string());
    if let Some(bytes) = limits.address_space {
        cmd.env("COACH_MEASURE_AS", bytes.to_string());
    }
    let (code, out) = run(cmd, Vec::new());
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("MEASURED "))
        .unwrap_or_else(|| panic!("no measurement ({code:?}): {out}"));
    let m: Value = serde_json::from_str(line).unwrap();
    Measured {
        code: m["code"].as_i64().map(|c| c as i32),
        signal: m["signal"].as_i64().map(|c| c as i32),
        timed_out: m["timed_out"].as_bool().unwrap(),
        ms: m["ms"].as_u64().unwrap(),
        out: m["out"].as_str().unwrap().to_string(),
        peak: m["peak"].as_u64().unwrap() as usize,
    }
}

/// The intermediary of [`run_measured`].
#[test]
#[ignore = "run as a child process by run_measured"]
// The child is reaped by `wait4`, which `Child::wait` cannot replace (it gives no usage).
#[allow(clippy::zombie_processes)]
fn measure_child() {
    use std::os::unix::process::CommandExt;
    let argv: Vec<String> =
        serde_json::from_str(&std::env::var("COACH_MEASURE_ARGV").unwrap()).unwrap();
    let stdin = std::fs::File::open(std::env::var("COACH_MEASURE_STDIN").unwrap()).unwrap();
    let seconds: u64 = std::env::var("COACH_MEASURE_SECONDS")
        .unwrap()
        .parse()
        .unwrap();
    let address_space: Option<libc::rlim_t> = std::env::var("COACH_MEASURE_AS")
        .ok()
        .map(|v| v.parse().unwrap());
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(limit) = address_space {
        let rlimit = libc::rlimit {
            rlim_cur: limit,
            rlim_max: limit,
        };
        // SAFETY: runs in the forked child before exec; setrlimit is async-signal-safe and
        // `rlimit` is a valid pointer.
        unsafe {
            cmd.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_AS, &rlimit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let started = std::time::Instant::now();
    let mut child = cmd.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).unwrap();
        out
    });
    let pid = child.id() as libc::pid_t;
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    let mut timed_out = false;
    loop {
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: waits for our own child; `status` and `usage` are valid out-pointers.
        let got = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if got == pid {
            break;
        }
        assert_eq!(got, 0, "wait4 failed");
        if started.elapsed().as_secs() >= seconds {
            // Not reaped yet, so the pid is still this child's.
            child.kill().unwrap();
            timed_out = true;
        } else {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    let ms = started.elapsed().as_millis() as u64;
    let out = reader.join().unwrap();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let signal = libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status));
    let out: String = String::from_utf8_lossy(&out).chars().take(4000).collect();
    // Linux reports ru_maxrss in KiB.
    let peak = usage.ru_maxrss as u64 * 1024;
    println!(
        "\nMEASURED {}",
        json!({"code": code, "signal": signal, "timed_out": timed_out, "ms": ms, "out": out,
               "peak": peak})
    );
}

/// The goal: at most 10 times the input plus 20 MB.
fn within_goal(peak: usize, input: usize) -> bool {
    peak <= 10 * input + 20 * MB
}

/// The measurement closest to the goal.
#[derive(Default)]
struct Worst {
    ratio: f64,
    what: String,
}

impl Worst {
    /// Asserts the goal for `peak` on `len` bytes of input, and keeps the closest.
    fn check(&mut self, what: &str, peak: usize, len: usize) {
        assert!(
            within_goal(peak, len),
            "{what}: peak {} KB for {} KB of input",
            peak / 1024,
            len / 1024
        );
        let ratio = peak as f64 / (10 * len + 20 * MB) as f64;
        if ratio > self.ratio {
            *self = Worst {
                ratio,
                what: format!("{what}: {} KB", peak / 1024),
            };
        }
    }
}

/// `{"operations":[{},{},...]}` of about `bytes`.
fn many_operations(bytes: usize) -> String {
    format!("{{\"operations\":[{}{{}}]}}", "{},".repeat(bytes / 3))
}

/// An operation list whose one `priority` is `bytes` long.
fn long_priority(bytes: usize) -> String {
    json!({"operations": [{"kind": "todo", "title": "t", "priority": "x".repeat(bytes)}]})
        .to_string()
}

/// `[[[...]]]`, `levels` deep.
fn deep(levels: usize) -> String {
    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
}

/// Many small values: the shape that costs the most memory per input byte once parsed.
fn small_values(bytes: usize) -> String {
    let row = format!("[{}0]", "0,".repeat(999));
    let rows = (bytes / row.len()).max(1);
    format!("{{\"x\":[{}]}}", vec![row; rows].join(","))
}

/// The inputs every entry point gets, by name.
const INPUTS: [&str; 7] = [
    "5 MB of operations",
    "5 MB string in one field",
    "5 MB of nesting",
    "500 KB of operations",
    "500 KB string in one field",
    "200 levels of nesting",
    "1 MB of small values",
];

/// The input named `name` (one of [`INPUTS`]).
fn hostile_input(name: &str) -> String {
    match name {
        "5 MB of operations" => many_operations(5 * MB),
        "5 MB string in one field" => long_priority(5 * MB),
        "5 MB of nesting" => deep(5 * MB / 2),
        "500 KB of operations" => many_operations(500 * 1024),
        "500 KB string in one field" => long_priority(500 * 1024),
        "200 levels of nesting" => deep(200),
        "1 MB of small values" => small_values(MB - 4096),
        other => panic!("no input {other:?}"),
    }
}

fn coach_cli(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_coach"));
    cmd.args(args);
    cmd
}

/// Each input of [`INPUTS`] written to a file of `dir`, with its length.
fn input_files(dir: &std::path::Path) -> Vec<(&'static str, std::path::PathBuf, usize)> {
    INPUTS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let path = dir.join(format!("input-{i}.json"));
            let text = hostile_input(name);
            std::fs::write(&path, &text).unwrap();
            (*name, path, text.len())
        })
        .collect()
}

#[test]
fn cli_peak_memory_stays_within_ten_times_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("coach.db").to_string_lossy().into_owned();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "").unwrap();
    let script = dir.path().join("script.json");
    std::fs::write(&script, r#"["{}"]"#).unwrap();
    let script = script.to_string_lossy().into_owned();
    // Every command that reads stdin.
    let commands: Vec<Vec<&str>> = vec![
        vec!["plan", "transform", "--schema", "v2-flat"],
        vec!["suggest", "evaluate"],
        vec!["ops", "dryrun", "--today", TODAY],
        vec!["ops", "apply", "--db", &db, "--today", TODAY],
        vec!["recipes", "import", "--db", &db],
        vec!["workout", "validate"],
        vec!["workout", "render"],
        vec!["workout", "log", "--db", &db],
        vec![
            "plan", "generate", "--db", &db, "--date", TODAY, "--script", &script,
        ],
        vec!["plan", "generate", "--db", &db, "--date", TODAY],
    ];
    let coach = env!("CARGO_BIN_EXE_coach").to_string();
    let mut worst = Worst::default();
    for (name, path, len) in input_files(dir.path()) {
        let request = path.to_string_lossy().into_owned();
        // `meals plan` reads its request from a file.
        let meals = vec!["meals", "plan", "--db", &db, "--request", &request];
        for args in commands.iter().chain([&meals]) {
            let argv: Vec<String> = std::iter::once(coach.clone())
                .chain(args.iter().map(|a| a.to_string()))
                .collect();
            let stdin = if args[0] == "meals" { &empty } else { &path };
            let Measured {
                code, out, peak, ..
            } = run_measured(&argv, stdin, &[], Limits::MEASURE);
            let what = format!("{} with {name}", args[..2].join(" "));
            assert!(matches!(code, Some(0..=2)), "{what}: exit {code:?}: {out}");
            assert!(out.len() < 4000, "{what}: {} bytes of output", out.len());
            worst.check(&what, peak, len);
        }
    }
    eprintln!(
        "closest to the goal: {:.2} of it ({})",
        worst.ratio, worst.what
    );
}

/// Every method of `coach_call` (`c_methods_cover_the_c_api` checks the list against
/// `src/capi.rs`), and the two plan calls.
const C_METHODS: [&str; 69] = [
    "workouts.saveCatalogExercise",
    "workouts.savePlan",
    "workouts.plan",
    "suggestions.deferred",
    "workouts.logSession",
    "suggestions.forSession",
    "suggestions.deferPending",
    "suggestions.accept",
    "suggestions.reject",
    "suggestions.deferChange",
    "suggestions.acceptEdited",
    "workouts.history",
    "suggestions.evaluate",
    "planner.dryRun",
    "planner.apply",
    "assistant.send",
    "meals.importRecipes",
    "meals.recipe",
    "meals.plan",
    "meals.job",
    "planner.item",
    "planner.week",
    "planner.backlog",
    "planner.auditLog",
    "model.load",
    "model.unload",
    "model.info",
    "model.prewarm",
    "meals.saveRecipe",
    "meals.stageRecipe",
    "meals.keepStaged",
    "meals.cleanupStaged",
    "meals.confirm",
    "meals.log",
    "meals.history",
    "meals.listRecipes",
    "meals.searchRecipes",
    "meals.deleteRecipe",
    "meals.hideRecipe",
    "meals.unhideRecipe",
    "meals.hiddenRecipes",
    "meals.shoppingList",
    "meals.pantryStaples",
    "meals.setPantryStaples",
    "workouts.generate",
    "workouts.list",
    "workouts.get",
    "workouts.log",
    "workouts.week",
    "workouts.validate",
    "workouts.render",
    "workouts.saveExercise",
    "workouts.exercises",
    "workouts.saveEquipment",
    "workouts.equipment",
    "workouts.todayPlan",
    "workouts.savedTodayPlan",
    "workouts.recentTodayPlans",
    "workouts.markTodayPlanDone",
    "data.checkIntegrity",
    "data.rekey",
    "data.copy",
    "data.exportAll",
    "data.importAll",
    "data.eraseAll",
    "planner.undo",
    "coach.shutdown",
    "workouts.transformPlan",
    "workouts.selectSchema",
];

#[test]
fn c_methods_cover_the_c_api() {
    let capi =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/capi.rs")).unwrap();
    let body = &capi[capi.find("fn call_method(").unwrap()..];
    let body = &body[..body.find("\n}\n").unwrap()];
    let mut named = Vec::new();
    for line in body.lines().map(str::trim) {
        let Some((arms, _)) = line.split_once("=>") else {
            continue;
        };
        for arm in arms.split('|').map(str::trim) {
            if let Some(name) = arm.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
                named.push(name.to_string());
            }
        }
    }
    assert!(named.len() >= 36, "{named:?}");
    let missing: Vec<&String> = named
        .iter()
        .filter(|m| !C_METHODS.contains(&m.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "C methods the peak-memory test leaves out: {missing:?}"
    );
}

/// The child side of [`c_api_peak_memory_stays_within_ten_times_the_input`]: one C call with the
/// method and input named by the environment; prints the result's first bytes.
#[test]
#[ignore = "run as a child process by c_api_peak_memory_stays_within_ten_times_the_input"]
fn c_child() {
    let method = std::env::var("COACH_C_METHOD").unwrap();
    let input = std::fs::read(std::env::var("COACH_C_INPUT").unwrap()).unwrap();
    let out = c_call(&method, input);
    print!("{}", out.chars().take(300).collect::<String>());
}

/// One C call on a new in-memory handle without the built-in recipes (what is measured is the
/// call on its input, not the fixed cost of loading them); the result.
fn c_call(method: &str, request: Vec<u8>) -> String {
    let request = CString::new(request).unwrap();
    let config = CString::new(r#"{"builtinRecipes": false}"#).unwrap();
    // SAFETY: a NUL-terminated config, NULL error out-pointer, NUL-terminated strings, a live
    // handle, each result freed once.
    unsafe {
        let h = coachcore::capi::coach_open_with(config.as_ptr(), std::ptr::null_mut());
        let m = CString::new(method).unwrap();
        let out = coachcore::capi::coach_call(h, m.as_ptr(), request.as_ptr());
        let text = CStr::from_ptr(out).to_string_lossy().into_owned();
        coachcore::capi::coach_string_free(out);
        coachcore::capi::coach_close(h);
        text
    }
}

/// The command line of [`c_child`] (this test binary run again), for [`run_measured`]; the
/// method and input come from the environment.
fn c_child_argv() -> Vec<String> {
    let exe = std::env::current_exe().unwrap();
    [
        exe.to_str().unwrap(),
        "--exact",
        "limits::c_child",
        "--ignored",
        "--nocapture",
        "--test-threads",
        "1",
        "-q",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn c_api_peak_memory_stays_within_ten_times_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "").unwrap();
    let argv = c_child_argv();
    let mut worst = Worst::default();
    for (name, path, len) in input_files(dir.path()) {
        for method in C_METHODS {
            // The intermediary passes its environment on to the child.
            let env = [
                ("COACH_C_METHOD", std::path::Path::new(method)),
                ("COACH_C_INPUT", path.as_path()),
            ];
            let Measured {
                code, out, peak, ..
            } = run_measured(&argv, &empty, &env, Limits::MEASURE);
            let what = format!("{method} with {name}");
            assert_eq!(code, Some(0), "{what}: {out}");
            assert!(
                out.contains("{\"error\":") || out.contains("{\"ok\":"),
                "{what}: {out}"
            );
            worst.check(&what, peak, len);
        }
    }
    eprintln!(
        "closest to the goal: {:.2} of it ({})",
        worst.ratio, worst.what
    );
}

/// Hostile workout YAML (issue 22): each input, about 256 KB or less, and the refusal it must
/// get (`invalid_yaml` with this detail). Before the YAML caps an alias bomb took 2.35 GB and
/// nested flow collections minutes of parsing.
fn hostile_yaml() -> Vec<(&'static str, String, &'static str)> {
    const DEEP: &str = "nested deeper than 64 levels";
    const ALIASES: &str = "aliases expand to more than 65536 bytes";
    let directives: String = (0..10_000)
        .map(|i| format!("%TAG !t{i}! tag:x,{i}:\n"))
        .collect();
    let mut laughs = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let prev = format!("*a{}", i - 1);
        laughs += &format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", "));
    }
    vec![
        (
            "alias bomb",
            format!(
                "a: &x {}\nc: [{}*x]\n",
                "b".repeat(200_000),
                "*x,".repeat(11_999)
            ),
            ALIASES,
        ),
        ("nested aliases", laughs, ALIASES),
        ("[[[a: ", "[[[a: ".repeat(43_666), DEEP),
        ("[[a: ", "[[a: ".repeat(52_428), DEEP),
        ("[a: ", "[a: ".repeat(65_536), DEEP),
        ("{? ", "{? ".repeat(87_381), DEEP),
        ("{a: ", "{a: ".repeat(65_536), DEEP),
        ("[", "[".repeat(262_144), DEEP),
        ("- ", "- ".repeat(131_072), DEEP),
        (
            "%TAG directives",
            directives + "---\na: 1\n",
            "holds more than 16 directives",
        ),
    ]
}

/// Hostile YAML through `coach workout validate` and C `workouts.validate`, each call in a child
/// process limited to 512 MiB of address space and killed after 20 s: a crash, an out-of-memory
/// abort or a hang fails, and so does a peak over the memory goal.
#[test]
fn hostile_yaml_is_refused_within_time_and_memory() {
    let limits = Limits {
        address_space: Some(512 << 20),
        seconds: 20,
    };
    let dir = tempfile::tempdir().unwrap();
    let coach = env!("CARGO_BIN_EXE_coach").to_string();
    let cli = [coach, "workout".into(), "validate".into()];
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "").unwrap();
    let mut failures = Vec::new();
    for (i, (name, text, detail)) in hostile_yaml().into_iter().enumerate() {
        let yaml = dir.path().join(format!("{i}.yaml"));
        std::fs::write(&yaml, &text).unwrap();
        let request = dir.path().join(format!("{i}.json"));
        std::fs::write(&request, json!({ "yaml": text }).to_string()).unwrap();
        let env = [
            ("COACH_C_METHOD", std::path::Path::new("workouts.validate")),
            ("COACH_C_INPUT", request.as_path()),
        ];
        for (route, m) in [
            (
                "coach workout validate",
                run_measured(&cli, &yaml, &[], limits),
            ),
            (
                "C workouts.validate",
                run_measured(&c_child_argv(), &empty, &env, limits),
            ),
        ] {
            let what = format!(
                "{route} with {name} ({} KB): exit {:?}, signal {:?}, {} ms, peak {} MB",
                text.len() / 1024,
                m.code,
                m.signal,
                m.ms,
                m.peak >> 20
            );
            eprintln!("{what}");
            // The first JSON object printed (the C child's comes among the test harness's lines).
            let error = m
                .out
                .find('{')
                .and_then(|at| {
                    let mut values = serde_json::Deserializer::from_str(&m.out[at..]).into_iter();
                    values.next()?.ok()
                })
                .and_then(|v: Value| v.get("error").or(v.pointer("/ok/error")).cloned())
                .unwrap_or(Value::Null);
            let refused = error["code"] == "invalid_yaml" && error["detail"] == *detail;
            let exit = if route.starts_with("coach") { 1 } else { 0 };
            if m.timed_out || m.code != Some(exit) || !refused || !within_goal(m.peak, text.len()) {
                failures.push(format!("{what}, timed out {}: {}", m.timed_out, m.out));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn input_that_is_not_utf8_is_an_invalid_argument() {
    let bytes = b"{\"operations\":[\xff\xfe]}".to_vec();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("coach.db").to_string_lossy().into_owned();
    for (args, exit) in [
        (vec!["suggest", "evaluate"], 1),
        (vec!["ops", "dryrun"], 2),
        (vec!["ops", "apply", "--db", &db], 2),
        (vec!["recipes", "import", "--db", &db], 1),
    ] {
        let (code, out) = run(coach_cli(&args), bytes.clone());
        assert_eq!(code, Some(exit), "{args:?}: {out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["error"]["code"], "invalid_argument", "{args:?}");
        assert_eq!(
            v["error"]["detail"], "the input is not UTF-8 text",
            "{args:?}"
        );
    }
}

fn dry_run(json: &str) -> Result<Validation, CoachError> {
    Coach::open_in_memory()
        .unwrap()
        .planner()
        .dry_run_json(json, Some(TODAY))
}

fn detail(e: CoachError) -> String {
    match e {
        CoachError::InvalidArgument { detail } => detail,
        other => panic!("expected invalid_argument, got {other:?}"),
    }
}

#[test]
fn operations_are_counted_before_they_are_shaped() {
    let v = dry_run(&many_operations(30_000)).unwrap();
    assert_eq!(v.errors[0].code, "too_many_operations");
    assert!(v.checks.is_empty(), "nothing was shaped");
    assert_eq!(v.invalid_count, 10_001);
    let coach = Coach::open_in_memory().unwrap();
    match coach
        .planner()
        .apply_json(&many_operations(30_000), None, Some(TODAY))
    {
        Err(CoachError::OperationsRejected { total_count, .. }) => assert_eq!(total_count, 10_001),
        other => panic!("{other:?}"),
    }
    let big = detail(dry_run(&many_operations(600 * 1024)).unwrap_err());
    assert_eq!(big, "operations JSON: larger than 524288 bytes");
}

#[test]
fn nesting_too_deep_is_reported_as_such() {
    // Deeper than the library's cap (64) but within serde_json's (128), and beyond both.
    for levels in [100, 200] {
        let ops = format!(
            "{{\"operations\":[{{\"kind\":\"todo\",\"x\":{}}}]}}",
            deep(levels)
        );
        assert_eq!(
            detail(dry_run(&ops).unwrap_err()),
            "operations JSON: nested deeper than 64 levels"
        );
    }
    // A request to the C API (serde_json's own limit, 128, would call it malformed JSON).
    let out = c_call("planner.item", deep(200).into_bytes());
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["error"]["detail"],
        "request JSON: nested deeper than 64 levels"
    );
}

#[test]
fn messages_quote_at_most_a_short_excerpt() {
    let secret = format!("SECRET{}", "x".repeat(70_000));
    let ops = json!([
        {"kind": "todo", "title": "a", "priority": secret},
        {"op": secret, "kind": "todo", "id": "t1"},
        {"kind": secret, "title": "b"},
        {"op": "update", "kind": "todo", "id": secret, "title": "c"},
        {"kind": "event", "title": "d", "scheduledFor": secret},
        {"kind": "habit", "title": "e", "recurrence": secret},
        {"kind": "todo", "title": "f", "timeOfDay": secret},
    ]);
    let v = dry_run(&ops.to_string()).unwrap();
    assert_eq!(v.invalid_count, 7, "{v:?}");
    for c in &v.checks {
        assert!(!c.errors.is_empty());
        for text in c.errors.iter().map(|e| &e.message).chain(c.repairs.iter()) {
            assert!(
                text.chars().count() < 160,
                "{}: {} chars",
                c.index,
                text.len()
            );
            if text.contains("SECRET") {
                assert!(
                    text.contains("SECRETxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"),
                    "{text}"
                );
            }
        }
    }
}

#[test]
fn notes_are_capped() {
    let op = |n: usize| json!([{"kind": "todo", "title": "t", "notes": "n".repeat(n)}]).to_string();
    assert!(dry_run(&op(2000)).unwrap().all_valid());
    let v = dry_run(&op(2001)).unwrap();
    let e = &v.checks[0].errors[0];
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("invalid_notes", Some("notes"))
    );
    let goal =
        json!([{"op": "goal_create", "kind": "goal", "title": "g", "notes": "n".repeat(3000)}]);
    assert_eq!(
        dry_run(&goal.to_string()).unwrap().checks[0].errors[0].code,
        "invalid_notes"
    );
}

/// Applies `ops` and returns the id of the first applied operation's item.
fn apply(coach: &Coach, ops: Value) -> String {
    let r = coach
        .planner()
        .apply_json(&ops.to_string(), None, Some(TODAY))
        .unwrap();
    r.applied[0].id.clone()
}

#[test]
fn completed_false_un_completes() {
    let coach = Coach::open_in_memory().unwrap();
    let todo = apply(&coach, json!([{"kind": "todo", "title": "Call mum"}]));
    apply(
        &coach,
        json!([{"op": "complete", "kind": "todo", "id": todo}]),
    );
    let item = |kind, id: &str| coach.planner().item(kind, id.into()).unwrap().unwrap();
    assert!(item(ItemKind::Todo, &todo).completed);
    apply(
        &coach,
        json!([{"op": "complete", "kind": "todo", "id": todo, "completed": false}]),
    );
    assert!(!item(ItemKind::Todo, &todo).completed);
    // Inferred: an id with only `completed: false` is a complete that un-completes.
    apply(
        &coach,
        json!([{"kind": "todo", "id": todo, "completed": true}]),
    );
    assert!(item(ItemKind::Todo, &todo).completed);
    apply(
        &coach,
        json!([{"kind": "todo", "id": todo, "completed": false}]),
    );
    assert!(!item(ItemKind::Todo, &todo).completed);

    let habit = apply(
        &coach,
        json!([{"kind": "habit", "title": "Stretch", "scheduledFor": TODAY,
                "recurrence": {"type": "daily"}}]),
    );
    let occurrence = |done: bool| {
        json!([{"op": "complete_occurrence", "kind": "habit", "id": habit,
                "occurrenceDate": TODAY, "completed": done}])
    };
    apply(&coach, occurrence(true));
    assert_eq!(item(ItemKind::Habit, &habit).completed_occurrences, [TODAY]);
    apply(&coach, occurrence(false));
    assert!(item(ItemKind::Habit, &habit)
        .completed_occurrences
        .is_empty());

    // Not a boolean: refused, not read as true.
    let v = dry_run(
        &json!([{"op": "complete", "kind": "todo", "id": todo, "completed": "no"}]).to_string(),
    )
    .unwrap();
    assert_eq!(v.checks[0].errors[0].code, "invalid_completed");
    assert_eq!(v.checks[0].errors[0].field.as_deref(), Some("completed"));
}

#[test]
fn bulk_op_names_carry_the_bulk_code() {
    for op in ["bulk_delete", "deleteAll", "complete-all"] {
        let v = dry_run(&json!([{"op": op, "kind": "todo"}]).to_string()).unwrap();
        let codes: Vec<&str> = v.checks[0].errors.iter().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, ["unknown_op", "bulk_not_supported"], "{op}");
    }
    let v = dry_run(&json!([{"op": "archive", "kind": "todo", "id": "x"}]).to_string()).unwrap();
    let codes: Vec<&str> = v.checks[0].errors.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, ["unknown_op"]);
}

#[test]
fn start_time_and_recurrence_words_are_read() {
    let v = dry_run(
        &json!([
            {"kind": "event", "title": "Standup", "scheduledFor": TODAY, "startTime": "9:30",
             "endTime": "09:45"},
            {"kind": "habit", "title": "Walk", "scheduledFor": TODAY, "recurrence": "weekdays"},
            {"kind": "habit", "title": "Water plants", "scheduledFor": TODAY,
             "recurrence": {"type": "every_n_days", "interval": 3}},
        ])
        .to_string(),
    )
    .unwrap();
    assert!(v.all_valid(), "{v:?}");
    let op = |i: usize| v.checks[i].operation.clone().unwrap();
    assert_eq!(op(0).time_of_day.as_deref(), Some("09:30"));
    let walk = op(1).recurrence.unwrap();
    assert_eq!(
        serde_json::to_value(&walk).unwrap(),
        json!({"type": "weekly", "weekdays": ["mon", "tue", "wed", "thu", "fri"]})
    );
    let plants = op(2).recurrence.unwrap();
    assert_eq!(
        serde_json::to_value(&plants).unwrap(),
        json!({"type": "daily", "interval": 3})
    );
}

#[test]
fn suggest_evaluate_refusals_set_the_path() {
    let mut input: Value =
        serde_json::from_str(include_str!("../data/suggest/evaluate-input.json")).unwrap();
    input["context"]["prescription"]["repRange"] =
        json!({"mode": "notSet", "lower": 12, "upper": 8, "target": 0});
    let (code, out) = run(
        coach_cli(&["suggest", "evaluate"]),
        input.to_string().into_bytes(),
    );
    assert_eq!(code, Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["error"]["code"], "invalid_argument");
    assert_eq!(v["error"]["path"], "context.prescription.repRange");
    assert_eq!(
        v["error"]["detail"],
        "context.prescription.repRange is inconsistent"
    );
    input["context"]["prescription"]["repRange"] =
        json!({"mode": "range", "lower": 8, "upper": 12, "target": 0});
    input["context"]["prescription"]["sets"][1]["targetWeight"] = json!(6000);
    let out = c_call("suggestions.evaluate", input.to_string().into_bytes());
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["error"]["path"], "context.prescription.sets[1].targetWeight",
        "{out}"
    );
}
