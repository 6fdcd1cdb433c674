//! The assistant's time to first token, cold and warm (issue 10, prompt-prefix caching): the
//! first messages of the assistant set, each run twice through the pipeline on the engine, once
//! with the prompt cache off (every prompt token decoded: cold) and once right after
//! `prewarm` of the assistant's fixed prompt beginning (warm). Prints the medians of the prompt
//! processing time and of the time to the first streamed text, and warm over cold (goal: warm
//! prompt processing at most 25% of cold).

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use coachcore::assistant::service::{run_message, AssistantSettings};
use coachcore::llm::llama::LlamaEngine;
use coachcore::llm::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, GenerationResult, LanguageModel,
    LlmError, ModelInfo, TokenListener,
};

use super::{AssistantSet, Quiet};

/// Messages measured (quick mode: 3).
const MESSAGES: usize = 10;

/// One model call: prompt tokens, of them cached, prompt processing ms, first text ms.
#[derive(Clone, Copy)]
struct Call {
    prompt_tokens: u32,
    cached: u32,
    prompt_ms: u64,
    first_ms: u64,
}

/// The engine, recording each call's prompt figures and the time to its first streamed text.
struct Timed {
    engine: Arc<LlamaEngine>,
    calls: Mutex<Vec<Call>>,
}

struct FirstText {
    started: Instant,
    at_ms: OnceLock<u64>,
    inner: Option<Arc<dyn TokenListener>>,
}

impl TokenListener for FirstText {
    fn on_token(&self, piece: String) {
        self.at_ms
            .get_or_init(|| self.started.elapsed().as_millis() as u64);
        if let Some(l) = &self.inner {
            l.on_token(piece);
        }
    }
}

impl LanguageModel for Timed {
    fn info(&self) -> ModelInfo {
        self.engine.info()
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let first = Arc::new(FirstText {
            started: Instant::now(),
            at_ms: OnceLock::new(),
            inner: listener,
        });
        let (out, stats) = self.engine.generate_with_stats(
            request,
            Some(first.clone() as Arc<dyn TokenListener>),
            cancel,
        )?;
        let total = first.started.elapsed().as_millis() as u64;
        self.calls.lock().unwrap().push(Call {
            prompt_tokens: out.prompt_tokens,
            cached: stats.cached_prompt_tokens,
            prompt_ms: out.prompt_ms,
            first_ms: first.at_ms.get().copied().unwrap_or(total),
        });
        Ok(out)
    }
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0)
}

pub fn run(engine: &Arc<LlamaEngine>, quick: bool) {
    let set = AssistantSet::load("assistant.json");
    let settings = AssistantSettings {
        heartbeat_ms: 0,
        ..AssistantSettings::default()
    };
    let timed = Timed {
        engine: engine.clone(),
        calls: Mutex::default(),
    };
    let system = [ChatMessage::new(
        ChatRole::System,
        coachcore::kernel::prompts::ASSISTANT_NARROW.trim_end(),
    )];
    let want = if quick { 3 } else { MESSAGES };
    let (mut cold, mut warm) = (Vec::new(), Vec::new());
    for task in &set.tasks {
        if cold.len() >= want {
            break;
        }
        let first_call = |cache: bool| -> Option<Call> {
            let (store, clock, _, request, _) = set.setup(task);
            engine.set_prompt_cache(cache);
            if cache {
                engine.prewarm(&system).expect("prewarm");
            }
            timed.calls.lock().unwrap().clear();
            let _ = run_message(
                &store,
                &clock,
                Some(&timed),
                &request,
                &Quiet,
                &CancelToken::new(),
                &settings,
            );
            timed.calls.lock().unwrap().first().copied()
        };
        // Messages the reading settles alone never reach the model: nothing to time.
        let Some(c) = first_call(false) else { continue };
        let Some(w) = first_call(true) else { continue };
        cold.push(c);
        warm.push(w);
    }
    engine.set_prompt_cache(true);
    let figures = |calls: &[Call]| {
        (
            median(calls.iter().map(|c| c.prompt_ms).collect()),
            median(calls.iter().map(|c| c.first_ms).collect()),
            median(calls.iter().map(|c| u64::from(c.prompt_tokens)).collect()),
            median(calls.iter().map(|c| u64::from(c.cached)).collect()),
        )
    };
    let (cp, cf, ct, _) = figures(&cold[..]);
    let (wp, wf, wt, wc) = figures(&warm[..]);
    let pct = |w: u64, c: u64| 100.0 * w as f64 / c.max(1) as f64;
    println!(
        "assistant time to first token over {} messages on {} threads (medians): cold (cache \
         off) prompt {cp} ms for {ct} tokens, first text at {cf} ms; warm (after prewarm) prompt \
         {wp} ms for {wt} tokens ({wc} from the cache), first text at {wf} ms; warm prompt \
         processing {:.0}% of cold (goal <= 25%), first text {:.0}% of cold",
        cold.len(),
        engine.threads(),
        pct(wp, cp),
        pct(wf, cf),
    );
}
