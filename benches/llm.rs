//! The llama.cpp engine against llama.cpp itself, on the same model, threads and machine, in one
//! run:
//! - which CPU features ggml's kernels run with here (llama.cpp's system info: e.g. `AVX2`,
//!   `F16C`, `FMA` on x86_64; `NEON`, `DOTPROD`, `MATMUL_INT8` on Arm);
//! - prompt and generation tokens/s of `LlamaEngine` next to a bare decode loop written straight
//!   on `llama-cpp-2` below (the llama.cpp ceiling: such a loop matched llama-bench within noise),
//!   on a cold prompt: the engine's prefix cache is off for this comparison, so both read every
//!   prompt token (with it on, a repeated prompt comes from the cache); the warm prompt is
//!   printed beside it;
//! - schema-constrained against unconstrained generation (same sampling), with the plain
//!   "grammar sampler first in the chain" loop for reference; constrained generation with and
//!   without jump-forward decoding of grammar-forced tokens (tokens against decode steps);
//! - model load time and peak RSS at a 2048-token context, in a fresh child process (what an app
//!   pays on start);
//! - the wall time of AI suggestions for one exercise (the whole tool loop of spec 004 on a
//!   bench-press session with history, seeded).
//!
//! Goals (issue 4): >= 95% of the bare loop; constrained within 10% of unconstrained; load under
//! 0.5 s; peak RSS under 250 MB. Figures only: the goals are printed as met/MISSED, not asserted.
//! Run: `cargo bench --features llama --bench llm` (`-- --quick` for fewer rounds). Model: env
//! `COACH_MODEL`, else `models/SmolLM2-135M-Instruct.Q4_1.gguf` (`models/fetch.sh`). Threads: all
//! cores, or env `COACH_BENCH_THREADS` (fewer is steadier on a machine with other work).

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Instant;

use coachcore::llm::llama::{available_cores, backend, system_info, LlamaEngine, LlamaOptions};
use coachcore::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, LanguageModel, Sampling,
};
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;

const CONTEXT: u32 = 2048;
/// Token limit of the sampled (free and constrained) generations.
const MAX_SAMPLED: u32 = 256;

const SYSTEM: &str = "You are a strength coach. Answer plainly.";
/// About 200 prompt tokens once templated.
const LONG_USER: &str = "I train three times a week: squats, bench press, deadlifts, overhead press and rows. \
Last month my squat went from 80 kg to 90 kg for 5 reps, my bench stalled at 62.5 kg for 3 sets of 8, \
my deadlift is 120 kg for 5, and my overhead press is 40 kg for 3 sets of 6. I sleep about seven hours, \
eat around 140 g of protein a day and rest 2 to 3 minutes between heavy sets. My knees feel fine but my \
left shoulder is sometimes sore after pressing. I would like to keep progressing for the next twelve \
weeks without getting hurt, and maybe run a 5 km race in the summer. Write a detailed weekly plan with \
explanations for every choice, and tips on warm-ups, deloads, sleep and nutrition.";

const SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "suggestions": {
      "type": "array",
      "maxItems": 3,
      "items": {
        "type": "object",
        "properties": {
          "change": {"type": "string", "enum": ["weight", "reps", "rest", "sets"]},
          "setIndex": {"type": "integer"},
          "value": {"type": "number"},
          "reasoning": {"type": "string", "maxLength": 80}
        },
        "required": ["change", "setIndex", "value", "reasoning"],
        "additionalProperties": false
      }
    }
  },
  "required": ["suggestions"],
  "additionalProperties": false
}"#;

fn model_path() -> String {
    std::env::var("COACH_MODEL").unwrap_or_else(|_| {
        format!(
            "{}/models/SmolLM2-135M-Instruct.Q4_1.gguf",
            env!("CARGO_MANIFEST_DIR")
        )
    })
}

fn messages(user: &str) -> Vec<ChatMessage> {
    vec![
        ChatMessage::new(ChatRole::System, SYSTEM),
        ChatMessage::new(ChatRole::User, user),
    ]
}

fn request(
    user: &str,
    schema: Option<&str>,
    sampling: Sampling,
    max_tokens: u32,
) -> GenerationRequest {
    GenerationRequest {
        messages: messages(user),
        json_schema: schema.map(str::to_string),
        sampling,
        max_tokens,
        timeout_ms: None,
    }
}

fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return f64::NAN;
    }
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn rate(tokens: u32, ms: f64) -> f64 {
    f64::from(tokens) * 1000.0 / ms.max(0.001)
}

/// Child process: load the engine cold, generate with and without a schema at a 2048 context, and
/// report load ms and peak RSS.
fn child_load_and_rss(path: &str) {
    let started = Instant::now();
    let engine = LlamaEngine::load(
        path,
        LlamaOptions {
            context_tokens: CONTEXT,
            ..Default::default()
        },
    )
    .unwrap();
    let load_ms = started.elapsed().as_secs_f64() * 1000.0;
    let sampling = Sampling::default();
    for schema in [None, Some(SCHEMA)] {
        let user = if schema.is_some() {
            "Suggest changes for my bench press."
        } else {
            LONG_USER
        };
        engine
            .generate(
                request(user, schema, sampling.clone(), 96),
                None,
                CancelToken::new(),
            )
            .unwrap();
    }
    println!("child load_ms={load_ms:.1} rss_kb={}", vm_hwm_kb());
}

struct Bare {
    model: LlamaModel,
    threads: u32,
}

struct BareRun {
    prompt_tokens: u32,
    prompt_ms: f64,
    completion_tokens: u32,
    generation_ms: f64,
}

impl Bare {
    /// The bare loop: template, tokenize, decode the prompt as one batch (logits on the last token),
    /// then sample, stop on end-of-generation, detokenize, decode one token, repeat.
    fn run(&self, user: &str, mut sampler: LlamaSampler, max_tokens: u32) -> BareRun {
        let backend = backend().unwrap();
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(CONTEXT))
            .with_n_threads(self.threads as i32)
            .with_n_threads_batch(self.threads as i32);
        let mut ctx = self.model.new_context(backend, params).unwrap();
        let template = self.model.chat_template(None).unwrap();
        let chat = [
            LlamaChatMessage::new("system".into(), SYSTEM.into()).unwrap(),
            LlamaChatMessage::new("user".into(), user.into()).unwrap(),
        ];
        let prompt = self
            .model
            .apply_chat_template(&template, &chat, true)
            .unwrap();
        let tokens = self.model.vocab().tokenize(prompt.as_bytes(), true, true);

        let t0 = Instant::now();
        let mut batch = LlamaBatch::new(tokens.len().max(1), 1);
        let last = tokens.len() - 1;
        for (i, &t) in tokens.iter().enumerate() {
            batch.add(t, i as i32, &[0], i == last).unwrap();
        }
        ctx.decode(&mut batch).unwrap();
        let prompt_ms = t0.elapsed().as_secs_f64() * 1000.0;

        let t1 = Instant::now();
        let vocab = self.model.vocab();
        let mut pos = tokens.len() as i32;
        let mut at = batch.n_tokens() - 1;
        let mut n = 0;
        let mut text = Vec::new();
        while n < max_tokens {
            let token = sampler.sample(&ctx, at);
            if vocab.is_eog(token) {
                break;
            }
            n += 1;
            vocab.token_to_piece_into(token, &mut text, false, None);
            if n == max_tokens {
                break;
            }
            batch.clear();
            batch.add(token, pos, &[0], true).unwrap();
            pos += 1;
            ctx.decode(&mut batch).unwrap();
            at = 0;
        }
        std::hint::black_box(&text);
        BareRun {
            prompt_tokens: tokens.len() as u32,
            prompt_ms,
            completion_tokens: n,
            generation_ms: t1.elapsed().as_secs_f64() * 1000.0,
        }
    }
}

fn goal(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "MISSED"
    }
}

fn main() {
    let path = model_path();
    if std::env::var_os("COACH_BENCH_CHILD").is_some() {
        child_load_and_rss(&path);
        return;
    }
    let quick = std::env::args().any(|a| a == "--quick");
    if !std::path::Path::new(&path).is_file() {
        println!(
            "llm bench: no model at {path}; run models/fetch.sh (or set COACH_MODEL). Skipped."
        );
        return;
    }
    let rounds = if quick { 5 } else { 7 };
    let gen_tokens = 128;
    // COACH_BENCH_THREADS: fewer threads than cores (e.g. 1 on a busy machine).
    let threads = std::env::var("COACH_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(available_cores)
        .clamp(1, available_cores());
    let load_avg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "llm bench: {path}\n  threads {threads} (cores {}), context {CONTEXT}, {rounds} interleaved \
         rounds{}; load average before: {}",
        available_cores(),
        if quick { " (quick)" } else { "" },
        load_avg.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    println!(
        "  Speeds: best run [median]. Other processes on the cores slow llama.cpp's spinning \
         threads a lot, so the best run is the figure compared; the median shows the noise."
    );

    // Load time and peak RSS in fresh processes (cold process, warm file cache).
    let mut loads = Stats::default();
    let mut rss_kb = 0u64;
    for _ in 0..if quick { 2 } else { 3 } {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .env("COACH_BENCH_CHILD", "1")
            .env("COACH_MODEL", &path)
            .output()
            .expect("run child");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout
            .lines()
            .find(|l| l.starts_with("child "))
            .unwrap_or_else(|| {
                panic!(
                    "child failed: {stdout}{}",
                    String::from_utf8_lossy(&out.stderr)
                )
            });
        for kv in line.split_whitespace().skip(1) {
            match kv.split_once('=') {
                Some(("load_ms", v)) => loads.push(v.parse::<f64>().unwrap()),
                Some(("rss_kb", v)) => rss_kb = rss_kb.max(v.parse().unwrap()),
                _ => {}
            }
        }
    }

    let options = LlamaOptions {
        context_tokens: CONTEXT,
        threads: Some(threads),
        progress: None,
        jump_forward: true,
    };
    let engine: Arc<LlamaEngine> = LlamaEngine::load(&path, options).unwrap();
    // The same model with every constrained token sampled (no jump-forward).
    let no_jump: Arc<LlamaEngine> = LlamaEngine::load(
        &path,
        LlamaOptions {
            context_tokens: CONTEXT,
            threads: Some(threads),
            progress: None,
            jump_forward: false,
        },
    )
    .unwrap();
    let bare = Bare {
        model: LlamaModel::load_from_file(backend().unwrap(), &path, &LlamaModelParams::default())
            .unwrap(),
        threads,
    };
    println!("  ggml CPU features: {}", system_info());
    let greedy = Sampling {
        temperature: 0.0,
        ..Sampling::default()
    };
    let generate = |req: GenerationRequest| engine.generate(req, None, CancelToken::new()).unwrap();
    // Warm-up: one of each.
    generate(request(LONG_USER, None, greedy.clone(), 16));
    bare.run(LONG_USER, LlamaSampler::greedy(), 16);

    // 1. Library against the bare loop: same prompt, greedy, so the same tokens. The prompt is
    //    cold on both sides: the engine's prefix cache is off (the bare loop makes a new context
    //    per run), so both read every prompt token; with the cache on, a repeated prompt would be
    //    read from the cache and the comparison would set reading against not reading.
    engine.set_prompt_cache(false);
    let (mut lib_pp, mut lib_tg, mut bare_pp, mut bare_tg) = (
        Stats::default(),
        Stats::default(),
        Stats::default(),
        Stats::default(),
    );
    let mut sizes = (0, 0, 0, 0);
    let (mut cold_cached, mut cold_prompt_ms) = (0, Stats::default());
    for _ in 0..rounds {
        let (r, stats) = engine
            .generate_with_stats(
                request(LONG_USER, None, greedy.clone(), gen_tokens),
                None,
                CancelToken::new(),
            )
            .unwrap();
        cold_cached += stats.cached_prompt_tokens;
        cold_prompt_ms.push(r.prompt_ms as f64);
        lib_pp.push(rate(r.prompt_tokens, r.prompt_ms as f64));
        lib_tg.push(rate(r.completion_tokens, r.generation_ms as f64));
        let b = bare.run(LONG_USER, LlamaSampler::greedy(), gen_tokens);
        bare_pp.push(rate(b.prompt_tokens, b.prompt_ms));
        bare_tg.push(rate(b.completion_tokens, b.generation_ms));
        sizes = (
            r.prompt_tokens,
            r.completion_tokens,
            b.prompt_tokens,
            b.completion_tokens,
        );
    }
    engine.set_prompt_cache(true);
    // The same prompt warm: the cache on, as an app's repeated prompt prefix is read.
    let (mut warm_cached, mut warm_prompt_ms) = (0, Stats::default());
    for _ in 0..rounds {
        let (r, stats) = engine
            .generate_with_stats(
                request(LONG_USER, None, greedy.clone(), 1),
                None,
                CancelToken::new(),
            )
            .unwrap();
        warm_cached += stats.cached_prompt_tokens;
        warm_prompt_ms.push(r.prompt_ms as f64);
    }
    let (lp, lc, bp, bc) = sizes;
    println!(
        "\n  prompt + greedy generation (library {lp}+{lc} tokens, bare loop {bp}+{bc}), cold \
         prompt: the library's prefix cache off, {cold_cached} of {} prompt tokens from it:",
        lp as usize * rounds
    );
    println!(
        "    prompt      library {}   bare llama-cpp-2 {}   {:5.1}%",
        lib_pp.show(),
        bare_pp.show(),
        100.0 * lib_pp.best() / bare_pp.best()
    );
    println!(
        "    generation  library {}   bare llama-cpp-2 {}   {:5.1}%",
        lib_tg.show(),
        bare_tg.show(),
        100.0 * lib_tg.best() / bare_tg.best()
    );
    println!(
        "    warm prompt (cache on, the same prompt again): {warm_cached} of {} tokens from the \
         cache, best {:.1} ms [median {:.1}] against cold best {:.1} ms [median {:.1}]",
        lp as usize * rounds,
        warm_prompt_ms.least(),
        warm_prompt_ms.median(),
        cold_prompt_ms.least(),
        cold_prompt_ms.median()
    );

    // 2. Constrained against unconstrained generation: same prompt, sampling (Sampling::default())
    //    and seeds; and the plain way (grammar sampler first in the chain) on the bare loop.
    let user_json =
        "Suggest up to three changes for my bench press (3 sets of 8 at 62.5 kg, 120 s rest).";
    let gbnf = llama_cpp_2::json_schema_to_grammar(SCHEMA).unwrap();
    let (mut free, mut json, mut json_plain, mut grammar_first) = (
        Stats::default(),
        Stats::default(),
        Stats::default(),
        Stats::default(),
    );
    let (mut free_tokens, mut json_tokens, mut parsed) = (0, 0, 0);
    let (mut json_steps, mut json_forced, mut plain_tokens, mut plain_steps, mut plain_parsed) =
        (0, 0, 0, 0, 0);
    for seed in 0..rounds as u64 {
        let sampling = Sampling {
            seed,
            ..Sampling::default()
        };
        let f = generate(request(user_json, None, sampling.clone(), MAX_SAMPLED));
        free.push(rate(f.completion_tokens, f.generation_ms as f64));
        free_tokens += f.completion_tokens;
        let constrained = request(user_json, Some(SCHEMA), sampling.clone(), MAX_SAMPLED);
        let (j, js) = engine
            .generate_with_stats(constrained.clone(), None, CancelToken::new())
            .unwrap();
        if serde_json::from_str::<serde_json::Value>(&j.text).is_ok() {
            parsed += 1;
        }
        json.push(rate(j.completion_tokens, j.generation_ms as f64));
        json_tokens += j.completion_tokens;
        json_steps += js.decode_steps;
        json_forced += js.forced_tokens;
        let (p, ps) = no_jump
            .generate_with_stats(constrained, None, CancelToken::new())
            .unwrap();
        if serde_json::from_str::<serde_json::Value>(&p.text).is_ok() {
            plain_parsed += 1;
        }
        json_plain.push(rate(p.completion_tokens, p.generation_ms as f64));
        plain_tokens += p.completion_tokens;
        plain_steps += ps.decode_steps;
        let chain = LlamaSampler::chain_simple([
            LlamaSampler::grammar(&bare.model, &gbnf, "root").unwrap(),
            LlamaSampler::top_k(sampling.top_k as i32),
            LlamaSampler::top_p(sampling.top_p, 1),
            LlamaSampler::temp(sampling.temperature),
            LlamaSampler::dist(seed as u32),
        ]);
        let b = bare.run(user_json, chain, MAX_SAMPLED);
        grammar_first.push(rate(b.completion_tokens, b.generation_ms));
    }
    println!("\n  sampled generation (temperature 0.2, top-k 40, top-p 0.95), {rounds} seeds:");
    println!(
        "    unconstrained                        {}  ({free_tokens} tokens)",
        free.show()
    );
    println!(
        "    JSON Schema constrained              {}  ({json_tokens} tokens, {parsed}/{rounds} \
         complete JSON)  {:5.1}%",
        json.show(),
        100.0 * json.best() / free.best()
    );
    println!(
        "      jump-forward: {json_tokens} tokens in {json_steps} decode steps ({json_forced} \
         tokens forced by the grammar, {:.2} tokens per step)",
        f64::from(json_tokens) / f64::from(json_steps.max(1))
    );
    println!(
        "    constrained, no jump-forward         {}  ({plain_tokens} tokens in {plain_steps} \
         decode steps, {plain_parsed}/{rounds} complete JSON)  {:5.1}%",
        json_plain.show(),
        100.0 * json_plain.best() / free.best()
    );
    println!(
        "    grammar first in chain (bare loop)   {}                {:5.1}%",
        grammar_first.show(),
        100.0 * grammar_first.best() / free.best()
    );

    let load_ms = loads.median();
    let rss_mb = rss_kb as f64 / 1024.0;
    println!(
        "\n  model load (fresh process, warm file cache): median {load_ms:.1} ms of {:.1?}",
        loads.0
    );
    println!(
        "  peak RSS (VmHWM, fresh process, {CONTEXT}-token context, free and constrained \
         generation): {rss_mb:.1} MB"
    );

    let pp_ratio = lib_pp.best() / bare_pp.best();
    let tg_ratio = lib_tg.best() / bare_tg.best();
    let json_ratio = json.best() / free.best();
    ai_suggestions(&engine, rounds);

    println!("\n  goals:");
    println!(
        "    prompt (cold) >= 95% of the bare loop:    {:5.1}%  {}",
        100.0 * pp_ratio,
        goal(pp_ratio >= 0.95)
    );
    println!(
        "    generation >= 95% of the bare loop:       {:5.1}%  {}",
        100.0 * tg_ratio,
        goal(tg_ratio >= 0.95)
    );
    println!(
        "    constrained within 10% of unconstrained:  {:5.1}%  {}",
        100.0 * json_ratio,
        goal(json_ratio >= 0.90)
    );
    println!(
        "    load < 500 ms:                            {load_ms:5.1} ms  {}",
        goal(load_ms < 500.0)
    );
    println!(
        "    peak RSS < 250 MB:                        {rss_mb:5.1} MB  {}",
        goal(rss_mb < 250.0)
    );
}

/// Rates (or times) of repeated runs.
#[derive(Default)]
struct Stats(Vec<f64>);

impl Stats {
    fn push(&mut self, v: f64) {
        self.0.push(v);
    }

    fn best(&self) -> f64 {
        self.0.iter().copied().fold(f64::NAN, f64::max)
    }

    /// The smallest value (of times: the best run).
    fn least(&self) -> f64 {
        self.0.iter().copied().fold(f64::NAN, f64::min)
    }

    fn median(&self) -> f64 {
        median(self.0.clone())
    }

    /// "best tok/s [median]".
    fn show(&self) -> String {
        format!("{:6.1} tok/s [{:6.1}]", self.best(), self.median())
    }
}

/// Wall time of the AI suggestion source on one exercise: bench press 3 x 8 @ 135 lb (range 8-12),
/// this session 3 x 10, history and three earlier sessions answered from memory. One run per seed.
fn ai_suggestions(engine: &Arc<LlamaEngine>, rounds: usize) {
    use coachcore::suggest::ai::{AiSuggestionSettings, LlmSuggestionSource};
    use coachcore::suggest::model::*;
    use coachcore::suggest::service::SuggestionTools;

    const T0: i64 = 1_763_000_000_000;
    const DAY: i64 = 86_400_000;
    let sets_rx = |reps| {
        (0..3)
            .map(|index| SetPrescription {
                index,
                set_type: SetType::Regular,
                target_weight: 135.0,
                target_reps: reps,
                rest_seconds: 120,
            })
            .collect::<Vec<_>>()
    };
    let performed = |id: &str, day: i64, weight: f64, reps: u32| ExercisePerformance {
        id: id.into(),
        session_id: format!("s-{id}"),
        catalog_id: "bench".into(),
        performed_at_ms: T0 + day * DAY,
        sets: (0..3)
            .map(|index| PerformedSet {
                index,
                set_type: SetType::Regular,
                weight,
                reps,
                rest_seconds: Some(120),
                completed: true,
            })
            .collect(),
    };
    let ctx = ExerciseContext {
        plan: PlanSettings {
            plan_id: "p".into(),
            unit: WeightUnit::Lbs,
            training_style: TrainingStyle::StraightSets,
            load: LoadConfig::default(),
        },
        exercise: CatalogExercise {
            catalog_id: "bench".into(),
            name: "Bench Press".into(),
            equipment: Equipment::Barbell,
            target_muscles: vec![Muscle::Chest],
        },
        prescription: ExercisePrescription {
            id: "rx-bench".into(),
            catalog_id: "bench".into(),
            position: 0,
            rep_range: RepRange {
                mode: RepRangeMode::Range,
                lower: 8,
                upper: 12,
                target: 0,
            },
            rest_mode: RestMode::AllSame,
            rest_seconds: 120,
            sets: sets_rx(8),
        },
        current: performed("p10", 10, 135.0, 10),
        previous: vec![performed("p7", 7, 135.0, 9)],
        history: None,
    };
    struct Tools(Vec<ExercisePerformance>);
    impl SuggestionTools for Tools {
        fn exercise_history(
            &self,
            _catalog_id: &str,
        ) -> coachcore::kernel::error::Result<Option<ExerciseHistory>> {
            Ok(Some(ExerciseHistory {
                catalog_id: "bench".into(),
                session_count: 14,
                typical_lower_reps: 8,
                typical_upper_reps: 10,
                best_e1rm: 180.25,
                last_e1rm: 176.0,
                trend: Trend::Stable,
                updated_at_ms: T0,
            }))
        }
        fn recent_performances(
            &self,
            _catalog_id: &str,
            before_ms: i64,
            limit: u32,
        ) -> coachcore::kernel::error::Result<Vec<ExercisePerformance>> {
            Ok(self
                .0
                .iter()
                .filter(|p| p.performed_at_ms < before_ms)
                .take(limit as usize)
                .cloned()
                .collect())
        }
    }
    let tools = Tools(vec![
        performed("p7", 7, 135.0, 9),
        performed("p4", 4, 130.0, 9),
        performed("p1", 1, 130.0, 8),
    ]);
    let mut walls = Vec::new();
    let (mut steps, mut generations, mut prompt, mut generated, mut drafts, mut failed) =
        (0, 0, 0, 0, 0, 0);
    for seed in 0..rounds as u64 {
        let settings = AiSuggestionSettings {
            sampling: Sampling {
                seed,
                ..Sampling::default()
            },
            timeout_ms: None,
            ..AiSuggestionSettings::default()
        };
        let model: Arc<dyn LanguageModel> = engine.clone();
        let source = LlmSuggestionSource::with_settings(model, settings);
        let started = Instant::now();
        let run = source.run(&ctx, &[], &tools, &CancelToken::new());
        walls.push(started.elapsed().as_secs_f64() * 1000.0);
        match run {
            Ok(r) => {
                steps += r.report.steps;
                generations += r.report.generations;
                prompt += r.report.prompt_tokens;
                generated += r.report.completion_tokens;
                drafts += r.drafts.len();
            }
            Err(_) => failed += 1,
        }
    }
    let best = walls.iter().copied().fold(f64::INFINITY, f64::min);
    println!("\n  AI suggestions, one exercise (tool loop, {rounds} seeds):");
    println!(
        "    wall time  best {best:7.0} ms  median {:7.0} ms   per run: {:.1} steps, {:.1} \
         generations, {:.0} prompt + {:.0} generated tokens, {:.1} drafts; {failed} runs failed \
         validation",
        median(walls.clone()),
        steps as f64 / rounds as f64,
        generations as f64 / rounds as f64,
        prompt as f64 / rounds as f64,
        generated as f64 / rounds as f64,
        drafts as f64 / rounds as f64,
    );
}
