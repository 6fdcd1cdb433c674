//! Meal planning's deterministic hot paths (issue 12 goals):
//! - candidate search for one slot over 10,000 recipes: p50 under 5 ms;
//! - a 7-day plan of 3 meals a day with the deterministic fallback (search, scoring, staging,
//!   variety), wall time per plan and per slot;
//! - with feature `llama`: the same plan reranked by SmolLM2-135M-Instruct (2 threads; env
//!   `COACH_MODEL` names another GGUF), wall time per slot with the prompt-prefix cache off, then
//!   on (the fixed system prompt prewarmed), with the prompt tokens per call and how many of them
//!   came from the cache.
//!
//! Run: `cargo bench --bench meals` (`-- --quick` for fewer probes; the model plan then covers one
//! day), `cargo bench --features llama --bench meals` for the model plan. Prints p50, p95 and the
//! best of each, and whether the goal is met.
//!
//! The 10,000 recipes: the starter set (`tests/data/recipes/starter.json`) copied with varied
//! titles, tags, times and servings (every copy keeps its meal types, ingredients and diets), in
//! a database file, as the app would have it after importing a large registry.

use std::time::Instant;

use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::ids::IdGenerator;
use coachcore::llm::CancelToken;
use coachcore::meals::search::candidate_query;
use coachcore::meals::service::plan::{plan, PlanEnv, PlanSettings};
use coachcore::meals::service::{self as meals};
use coachcore::meals::*;

const T0: i64 = 1_795_000_000_000;
const EXTRA_TAGS: &[&str] = &[
    "quick",
    "family",
    "budget",
    "spicy",
    "mild",
    "summer",
    "winter",
    "party",
    "light",
    "hearty",
    "kids",
    "meal-prep",
    "weeknight",
    "date-night",
    "comfort",
];
const STYLES: &[&str] = &[
    "Classic",
    "Easy",
    "Weeknight",
    "Rustic",
    "Spicy",
    "Herby",
    "Smoky",
    "Zesty",
    "Grandma's",
    "Crispy",
    "Creamy",
    "Light",
    "Golden",
    "Sticky",
    "Roasted",
];

fn stats(mut ms: Vec<f64>) -> (f64, f64, f64) {
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], ms[ms.len() * 95 / 100], ms[0])
}

fn report(name: &str, (p50, p95, best): (f64, f64, f64), goal: Option<f64>) {
    let verdict = goal.map_or(String::new(), |g| {
        format!(
            "  goal p50 < {g} ms: {}",
            if p50 < g { "met" } else { "MISSED" }
        )
    });
    println!("{name:<46} p50 {p50:>8.3} ms  p95 {p95:>8.3} ms  best {best:>8.3} ms{verdict}");
}

fn corpus(n: usize) -> Vec<Recipe> {
    let starter: Vec<Recipe> = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/tests/data/recipes/starter.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    (0..n)
        .map(|i| {
            let base = &starter[i % starter.len()];
            let round = i / starter.len();
            let mut r = base.clone();
            if round > 0 {
                r.id = format!("{}-v{round}", base.id);
                r.title = format!("{} {}", STYLES[round % STYLES.len()], base.title);
                r.tags
                    .push(EXTRA_TAGS[(i * 7 + round) % EXTRA_TAGS.len()].to_string());
                r.prep_minutes = (base.prep_minutes + (round as u32 * 3) % 20).min(1440);
                r.cook_minutes = (base.cook_minutes + (round as u32 * 7) % 40).min(1440);
                r.servings = 1 + (base.servings + round as u32) % 8;
            }
            r
        })
        .collect()
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("meals.db")).unwrap();
    let clock = FixedClock::new(T0);
    let started = Instant::now();
    let n = meals::import_recipes(&store, &clock, corpus(10_000)).unwrap();
    println!(
        "imported {n} recipes in {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );

    // Search: varied slots (tags, notes, diets, exclusions, time limits).
    let slots: Vec<(MealType, Vec<String>, Option<&str>, MealPreferences)> = vec![
        (
            MealType::Dinner,
            vec!["chicken".into()],
            None,
            MealPreferences::default(),
        ),
        (
            MealType::Dinner,
            vec!["quick".into(), "pasta".into()],
            Some("something with tomatoes"),
            MealPreferences {
                max_prep_minutes: Some(15),
                max_cook_minutes: Some(30),
                ..Default::default()
            },
        ),
        (
            MealType::Lunch,
            vec!["salad".into()],
            None,
            MealPreferences {
                diet: Some(Diet::Vegan),
                excluded_ingredients: vec!["peanut".into(), "sesame".into()],
                ..Default::default()
            },
        ),
        (
            MealType::Breakfast,
            vec!["eggs".into()],
            Some("no bacon"),
            MealPreferences::default(),
        ),
        (
            MealType::Dinner,
            vec![],
            Some("I want fish with rice tonight"),
            MealPreferences {
                diet: Some(Diet::GlutenFree),
                ..Default::default()
            },
        ),
        (MealType::Snack, vec![], None, MealPreferences::default()),
        (
            MealType::Dessert,
            vec!["chocolate".into()],
            None,
            MealPreferences::default(),
        ),
        (
            MealType::Dinner,
            vec!["no-match-at-all".into()],
            None,
            MealPreferences {
                excluded_ingredients: vec!["garlic".into(), "onion".into(), "milk".into()],
                ..Default::default()
            },
        ),
    ];
    let rounds = if quick { 20 } else { 100 };
    let mut all = Vec::new();
    for (t, tags, note, prefs) in &slots {
        let q = candidate_query(*t, tags, *note, prefs, &[]);
        let mut times = Vec::new();
        for _ in 0..rounds {
            let s = Instant::now();
            let found = store.read(|db| db.search_candidates(&q)).unwrap();
            times.push(s.elapsed().as_secs_f64() * 1e3);
            assert!(found.len() <= 25);
        }
        all.extend(times.iter().copied());
        report(
            &format!("search {} {:?} {:?}", t.as_str(), tags, note.unwrap_or("")),
            stats(times),
            None,
        );
    }
    report(
        "search over 10,000 recipes (all slots)",
        stats(all),
        Some(5.0),
    );

    // A 7-day plan, 3 meals a day, deterministic fallback.
    let req: MealPlanRequest = serde_json::from_value(serde_json::json!({
        "days": (0..7).map(|d| serde_json::json!({"date": format!("2026-11-{:02}", 23 + d), "meals": {
            "breakfast": {"servings": 2, "tags": ["quick"]},
            "lunch": {"servings": 2, "tags": ["salad", "soup"], "note": "light"},
            "dinner": {"servings": 4, "tags": ["family"], "note": "something with rice"},
        }})).collect::<Vec<_>>(),
        "preferences": {"maxPrepMinutes": 20, "maxCookMinutes": 40, "excludedIngredients": ["peanut"]}
    }))
    .unwrap();
    let settings = PlanSettings::default();
    let cancel = CancelToken::new();
    let env = PlanEnv {
        store: &store,
        clock: &clock,
        model: None,
        settings: &settings,
        cancel: &cancel,
    };
    let plans = if quick { 5 } else { 20 };
    let mut times = Vec::new();
    for i in 0..plans {
        let s = Instant::now();
        let result = plan(&env, &mut IdGenerator::seeded(i), &req, &mut |_, _| {}).unwrap();
        times.push(s.elapsed().as_secs_f64() * 1e3);
        assert_eq!(result.slot_failures_count, 0);
    }
    let (p50, p95, best) = stats(times);
    report(
        "7-day x 3-meal plan, fallback (21 slots)",
        (p50, p95, best),
        None,
    );
    report("  per slot", (p50 / 21.0, p95 / 21.0, best / 21.0), None);

    #[cfg(feature = "llama")]
    model_plan::run(&store, &clock, &req, quick);
}

/// The 7-day plan reranked by the real model, prompt cache off then on.
#[cfg(feature = "llama")]
mod model_plan {
    use std::sync::{Arc, Mutex};
    use std::time::Instant;

    use coachcore::db::Store;
    use coachcore::kernel::clock::FixedClock;
    use coachcore::kernel::ids::IdGenerator;
    use coachcore::llm::llama::{available_cores, GenerationStats, LlamaEngine, LlamaOptions};
    use coachcore::llm::{
        CancelToken, ChatMessage, ChatRole, GenerationRequest, GenerationResult, LanguageModel,
        LlmError, ModelInfo, TokenListener,
    };
    use coachcore::meals::service::plan::{plan, PlanEnv, PlanSettings};
    use coachcore::meals::{MealPlanRequest, MealSlotRequest, MealType, PickedBy};

    use super::{report, stats};

    /// The engine, adding up each call's prompt tokens and cached prompt tokens.
    struct Counting {
        engine: Arc<LlamaEngine>,
        calls: Mutex<Vec<(u32, GenerationStats)>>,
    }

    impl LanguageModel for Counting {
        fn info(&self) -> ModelInfo {
            self.engine.info()
        }

        fn generate(
            &self,
            request: GenerationRequest,
            listener: Option<Arc<dyn TokenListener>>,
            cancel: Arc<CancelToken>,
        ) -> Result<GenerationResult, LlmError> {
            let (result, stats) = self.engine.generate_with_stats(request, listener, cancel)?;
            self.calls
                .lock()
                .unwrap()
                .push((result.prompt_tokens, stats));
            Ok(result)
        }
    }

    pub fn run(store: &Store, clock: &FixedClock, req: &MealPlanRequest, quick: bool) {
        let path = std::env::var("COACH_MODEL").unwrap_or_else(|_| {
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/models/SmolLM2-135M-Instruct.Q4_1.gguf"
            )
            .into()
        });
        if !std::path::Path::new(&path).exists() {
            println!("model plan skipped: no model at {path} (models/fetch.sh or COACH_MODEL)");
            return;
        }
        let engine = LlamaEngine::load(
            &path,
            LlamaOptions {
                threads: Some(2.min(available_cores())),
                ..LlamaOptions::default()
            },
        )
        .expect("the model loads");
        let mut req = req.clone();
        if quick {
            req.days.truncate(1);
        }
        let slots: usize = req.days.iter().map(|d| d.meals.slots().len()).sum();
        println!(
            "model plan: {} on {} threads, {} days x 3 meals ({slots} slots), 10,000 recipes",
            engine.info().name,
            engine.threads(),
            req.days.len()
        );
        // The same week with a word code cannot weigh in every note (`for grandma`): the model is
        // then asked wherever a slot's candidates are close (prompt cache on only).
        let mut unweighed = req.clone();
        for day in &mut unweighed.days {
            for t in MealType::ALL {
                if let Some(slot) = day.meals.get(t).cloned() {
                    let note = match &slot.note {
                        Some(n) => format!("{n}, for grandma"),
                        None => "for grandma".to_string(),
                    };
                    day.meals.set(
                        t,
                        MealSlotRequest {
                            note: Some(note),
                            ..slot
                        },
                    );
                }
            }
        }
        for (cache, req, words) in [
            (false, &req, ""),
            (true, &req, ""),
            (true, &unweighed, ", every note with `for grandma`"),
        ] {
            engine.set_prompt_cache(cache);
            let system = [ChatMessage::new(
                ChatRole::System,
                coachcore::kernel::prompts::MEALS_RERANK.trim_end(),
            )];
            let prewarmed = if cache {
                engine.prewarm(&system).expect("prewarm")
            } else {
                0
            };
            let model = Counting {
                engine: Arc::clone(&engine),
                calls: Mutex::new(Vec::new()),
            };
            // No time limit per call: a busy machine would otherwise measure the fallback.
            let settings = PlanSettings {
                timeout_ms: None,
                ..PlanSettings::default()
            };
            let cancel = CancelToken::new();
            let env = PlanEnv {
                store,
                clock,
                model: Some(&model),
                settings: &settings,
                cancel: &cancel,
            };
            let mut times = Vec::new();
            let mut last = Instant::now();
            let started = last;
            let result = plan(&env, &mut IdGenerator::seeded(3), req, &mut |_, _| {
                times.push(last.elapsed().as_secs_f64() * 1e3);
                last = Instant::now();
            })
            .expect("the plan runs");
            let total = started.elapsed().as_secs_f64();
            let by_model = result
                .days
                .iter()
                .flat_map(|d| d.meals.slots())
                .filter(|(_, s)| s.selection.as_ref().map(|x| x.picked_by) == Some(PickedBy::Model))
                .count();
            let calls = model.calls.into_inner().unwrap();
            let n = calls.len().max(1) as f64;
            let prompt: u32 = calls.iter().map(|(p, _)| p).sum();
            let cached: u32 = calls.iter().map(|(_, s)| s.cached_prompt_tokens).sum();
            let steps: u32 = calls.iter().map(|(_, s)| s.decode_steps).sum();
            let label = if cache {
                format!("prompt cache on ({prewarmed} system tokens prewarmed){words}")
            } else {
                "prompt cache off".to_string()
            };
            report(
                &format!("model plan, {label}, per slot"),
                stats(times),
                None,
            );
            println!(
                "  total {total:.1} s; {} calls ({by_model} of {slots} slots picked by the model, \
                 {} failed); per call: {:.0} prompt tokens, {:.0} from the cache, {:.0} decode steps",
                calls.len(),
                result.slot_failures_count,
                prompt as f64 / n,
                cached as f64 / n,
                steps as f64 / n,
            );
        }
    }
}
