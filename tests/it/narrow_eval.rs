//! The assistant's evaluation sets scored on the narrowed pipeline without a model
//! (`assistant::narrow`): what the deterministic reading alone achieves, a question about the
//! planner answered by code first (`assistant::reading::read_question`, `assistant::answer`), as
//! the service does. The `ai_eval` bench scores the same sets with the real model; these tests
//! keep the model-free floor from slipping.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use coachcore::assistant::answer::answer;
use coachcore::assistant::date::Date;
use coachcore::assistant::model::{Clarification, PlannerAnswer, PlannerItem, PlannerOperation};
use coachcore::assistant::narrow::narrow_in;
use coachcore::assistant::reading::read_question;
use coachcore::kernel::lang::Language;
use serde_json::Value;

#[path = "../../benches/ai_eval/score.rs"]
#[allow(dead_code)]
mod score;

/// The set's fixtures by name.
fn fixtures(set: &Value) -> BTreeMap<String, Vec<PlannerItem>> {
    serde_json::from_value(set["fixtures"].clone()).unwrap()
}

/// What the reading alone does with `task`: the code-made answer of a question about the
/// planner (then no operation), else the operations the narrowed path proposes, whether part of
/// the message was left open for a model, and the question it asks back instead; with the
/// task's items.
struct Outcome {
    answer: Option<PlannerAnswer>,
    ops: Vec<PlannerOperation>,
    open: bool,
    clarification: Option<Clarification>,
    items: Vec<PlannerItem>,
}

fn read_task(
    fixtures: &BTreeMap<String, Vec<PlannerItem>>,
    lang: Language,
    task: &Value,
) -> Outcome {
    let items: Vec<PlannerItem> = match &task["items"] {
        Value::String(name) => fixtures[name].clone(),
        other => serde_json::from_value(other.clone()).unwrap(),
    };
    let today = Date::parse(task["today"].as_str().unwrap()).unwrap();
    let message = task["message"].as_str().unwrap();
    if let Some(q) = read_question(message, lang, today, &items) {
        return Outcome {
            answer: Some(answer(&q, today, &items, lang)),
            ops: Vec::new(),
            open: false,
            clarification: None,
            items,
        };
    }
    let n = narrow_in(message, lang, today, &items);
    Outcome {
        answer: None,
        ops: n.resolve(None).operations,
        open: n.open,
        clarification: n.clarification,
        items,
    }
}

/// One set's score on the reading alone.
#[derive(Default)]
struct SetScore {
    tasks: usize,
    success: usize,
    wrong: usize,
    /// Tasks expecting a question back.
    clarify: usize,
    failures: Vec<String>,
    /// How long each question took to be read and answered.
    answer_times: Vec<Duration>,
}

/// Scores one set (a file of `tests/data/eval/`, or an absolute path) as
/// `tests/data/eval/README.md` says (a question back judged by [`score::judge`]).
fn score_set(file: &str) -> SetScore {
    let path = if file.starts_with('/') {
        file.to_string()
    } else {
        format!("{}/tests/data/eval/{file}", env!("CARGO_MANIFEST_DIR"))
    };
    let set: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let fixtures = fixtures(&set);
    let lang = Language::read_as(set["language"].as_str());
    let tasks = set["tasks"].as_array().unwrap();
    let mut s = SetScore {
        tasks: tasks.len(),
        ..SetScore::default()
    };
    for task in tasks {
        let id = task["id"].as_str().unwrap();
        let e = &task["expected"];
        let started = Instant::now();
        let out = read_task(&fixtures, lang, task);
        if let Some(a) = &out.answer {
            s.answer_times.push(started.elapsed());
            if std::env::var_os("EVAL_ANSWERS").is_some() {
                println!("  {id}: {}", a.text);
            }
        }
        let got: Vec<String> = out.ops.iter().map(score::short).collect();
        let asked = out.clarification.as_ref().map(|c| {
            let ids: Vec<String> = c.options.iter().map(|o| o.id.clone()).collect();
            (c.question.clone(), ids)
        });
        let verbose = std::env::var_os("EVAL_ALL").is_some();
        let want = score::expected(e);
        if let score::Expected::Clarify(_) = want {
            s.clarify += 1;
            let (ok, w) = score::judge(
                &want,
                &score::Outcome {
                    ops: &out.ops,
                    clarify: asked.as_ref().map(|(_, ids)| ids.clone()),
                    answer: None,
                    stored: &out.items,
                },
            );
            s.wrong += w;
            s.success += usize::from(ok);
            if !ok || verbose {
                s.failures.push(format!(
                    "{id}: open={} got [{}] asked {asked:?}",
                    out.open,
                    got.join("; ")
                ));
            }
            continue;
        }
        if let score::Expected::Answer(_) = want {
            let named: Vec<String> = out
                .answer
                .as_ref()
                .map(|a| a.items.iter().map(|i| i.id.clone()).collect())
                .unwrap_or_default();
            let (ok, w) = score::judge(
                &want,
                &score::Outcome {
                    ops: &out.ops,
                    clarify: None,
                    answer: out.answer.as_ref().map(|_| named.clone()),
                    stored: &out.items,
                },
            );
            s.wrong += w;
            if ok {
                s.success += 1;
            } else {
                s.failures.push(format!(
                    "{id}: answer {named:?} ({:?}) ops [{}]",
                    out.answer.as_ref().map(|a| a.text.as_str()),
                    got.join("; ")
                ));
            }
            continue;
        }
        let expected = match want {
            score::Expected::Ops(ops) => ops,
            _ => Vec::new(),
        };
        let w = score::wrong_actions(&out.ops, &expected);
        s.wrong += w;
        let ok = score::paired(&out.ops, &expected);
        s.success += usize::from(ok);
        if !ok || verbose {
            s.failures.push(format!(
                "{id}: open={} answered={} got [{}] wrong={w}{}",
                out.open,
                out.answer.is_some(),
                got.join("; "),
                asked
                    .map(|(q, ids)| format!(" asked {q:?} {ids:?}"))
                    .unwrap_or_default()
            ));
        }
    }
    s
}

/// Prints a set's failures and asserts it has no wrong action and succeeds on at least
/// `percent` of its tasks.
/// Scores each set and keeps its floor ([`keep_floor`]), printing its figures.
fn keep_floors(sets: &[(&str, usize)]) {
    for &(file, percent) in sets {
        let s = score_set(file);
        println!(
            "{file}: {}/{} succeed ({} clarify tasks), {} wrong actions",
            s.success, s.tasks, s.clarify, s.wrong
        );
        keep_floor(file, &s, percent);
    }
}

fn keep_floor(file: &str, s: &SetScore, percent: usize) {
    for f in &s.failures {
        println!("  {f}");
    }
    assert_eq!(s.wrong, 0, "{file}: {:#?}", s.failures);
    assert!(
        s.success * 100 >= s.tasks * percent,
        "{file}: {}/{}: {:#?}",
        s.success,
        s.tasks,
        s.failures
    );
}

#[test]
fn the_reading_alone_succeeds_on_most_evaluation_tasks_and_never_acts_wrongly() {
    let s = score_set("assistant.json");
    println!(
        "reading alone: {}/{} succeed, {} wrong actions",
        s.success, s.tasks, s.wrong
    );
    keep_floor("assistant.json", &s, 85);
}

/// The French and Spanish sets and their held-out ones on the reading alone: at least 90% of
/// the tasks succeed and no operation does what was not asked. The tasks left need the English
/// relative changes ("une heure plus tard" is read as "an hour later").
#[test]
fn the_french_and_spanish_readings_succeed_on_90_percent_and_never_act_wrongly() {
    for file in [
        "assistant.fr.json",
        "assistant.es.json",
        "assistant.fr.held.json",
        "assistant.es.held.json",
    ] {
        let s = score_set(file);
        println!(
            "{file}: {}/{} succeed, {} wrong actions",
            s.success, s.tasks, s.wrong
        );
        keep_floor(file, &s, 90);
    }
}

/// Questions about the planner are answered by code, exactly: the answer names the items the
/// task expects and nothing else, with no operation, in under 50 ms (the issue's goal; the
/// median is checked), in every language the reading reads.
#[test]
fn questions_are_answered_by_code_with_exactly_the_expected_items() {
    // The word tables are built on first use: not part of an answer's time.
    let today = Date::parse("2026-11-23").unwrap();
    for lang in Language::ALL {
        let _ = read_question("what's on today?", lang, today, &[]);
    }
    for file in [
        "questions.en.json",
        "questions.de.json",
        "questions.fr.json",
        "questions.es.json",
    ] {
        let mut s = score_set(file);
        s.answer_times.sort();
        let median = s.answer_times[s.answer_times.len() / 2];
        let slowest = s.answer_times.last().copied().unwrap_or_default();
        println!(
            "{file}: {}/{} answered exactly, {} wrong actions, median {median:?}, slowest \
             {slowest:?}",
            s.success, s.tasks, s.wrong
        );
        keep_floor(file, &s, 95);
        // The median: a machine busy with other work can stall any one answer.
        assert!(median < Duration::from_millis(50), "{file}: {median:?}");
    }
}

/// Issue 25's English classes (`assistant.classes.json`) and their held-out sets, scored on
/// the reading alone, questions back included: none acts wrongly, and the figures do not slip
/// (the one miss of the second held-out set, "did my meditation", is answered as a question
/// about the planner: no operation).
#[test]
fn issue_25_english_classes_on_the_reading_alone() {
    keep_floors(&[
        ("assistant.classes.json", 100),
        ("assistant.classes.held.json", 100),
        ("assistant.classes.held2.json", 94),
    ]);
}

/// Vague requests in each language (`assistant.vague.LANG.json`: "plan my weekend with the
/// kids", "füg was für Freitag hinzu", beside look-alikes naming a real item), on the reading
/// alone: none acts wrongly and the figures do not slip (fr and es: 12 of 14; "organiser
/// l'anniversaire d'Anna" is read as a remark about the stored gift todo, "¿me ayudas a
/// organizar la semana que viene?" as a question), and an item named with no action
/// (`assistant.names.LANG.json`: "das Zahnarzt-Ding", "bueno, la renta"; "and the plumber?" is
/// read as a question in every language).
#[test]
fn vague_requests_and_bare_names_ask_in_every_language() {
    keep_floors(&[
        ("assistant.vague.en.json", 100),
        ("assistant.vague.de.json", 100),
        ("assistant.vague.fr.json", 85),
        ("assistant.vague.es.json", 85),
        ("assistant.names.en.json", 85),
        ("assistant.names.de.json", 75),
        ("assistant.names.fr.json", 85),
        ("assistant.names.es.json", 85),
    ]);
}

/// Issue 25's sets (`tests/data/eval/assistant.{de,fr,es,classes}.json` and their held-out
/// sets, `questions.*.json`, `questions.en.held.json`) scored on the reading alone, as the code
/// stands: a by-hand run that prints the figures (`cargo test --test it issue_25_sets --
/// --ignored --nocapture`; `EVAL_FAILURES=1` prints each miss, `EVAL_ALL=1` every task,
/// `EVAL_SET=FILE` scores only that file).
#[test]
#[ignore = "by-hand figures for issue 25's sets"]
fn issue_25_sets_scored_on_the_reading_alone() {
    let files = [
        "assistant.classes.json",
        "assistant.classes.held.json",
        "assistant.classes.held2.json",
        "assistant.de.json",
        "assistant.de.held.json",
        "assistant.fr.json",
        "assistant.es.json",
        "assistant.fr.held.json",
        "assistant.es.held.json",
        "questions.en.json",
        "questions.de.json",
        "questions.fr.json",
        "questions.es.json",
        "questions.en.held.json",
        "assistant.vague.en.json",
        "assistant.vague.de.json",
        "assistant.vague.fr.json",
        "assistant.vague.es.json",
        "assistant.names.en.json",
        "assistant.names.de.json",
        "assistant.names.fr.json",
        "assistant.names.es.json",
    ];
    let only = std::env::var("EVAL_SET").ok();
    let files: Vec<&str> = match &only {
        Some(f) => vec![f.as_str()],
        None => files.to_vec(),
    };
    for file in files {
        let s = score_set(file);
        println!(
            "{file}: {}/{} succeed ({} clarify tasks), {} wrong actions",
            s.success, s.tasks, s.clarify, s.wrong
        );
        let print =
            std::env::var_os("EVAL_FAILURES").is_some() || std::env::var_os("EVAL_ALL").is_some();
        if print {
            for f in &s.failures {
                println!("  {f}");
            }
        }
    }
}
