//! The embedded engine: a GGUF model run in-process by llama.cpp (crate `llama-cpp-2`, feature
//! `llama`).
//!
//! [`LlamaEngine::load`] maps the model once; [`LanguageModel::generate`] may then be called from
//! several threads at once. Each call gets its own llama.cpp context (KV cache) from a small pool;
//! the decode steps of concurrent calls (of every engine in the process) take turns on the cores,
//! because two llama.cpp thread pools spinning on the same cores slow each other down by orders of
//! magnitude.
//!
//! Structured output: a request's JSON Schema becomes a GBNF grammar (llama.cpp's
//! json-schema-to-grammar). Tokens are sampled by the ordinary chain first and only then checked
//! against the grammar; the grammar is applied to the whole vocabulary only when that token is
//! rejected. Filtering the whole vocabulary through the grammar on every step would cost about a
//! third of the generation speed.
//!
//! The grammar allows no whitespace between JSON tokens (the output is compact JSON), so much of
//! it is fixed: keys, quotes, punctuation, the rest of an enum value once it is unambiguous.
//! Jump-forward decoding (as SGLang does; on by default, [`LlamaOptions::jump_forward`]): after
//! each sampled token, [`JumpPredictor`](super::jump::JumpPredictor) tells the text the grammar
//! forces next; it is tokenized, each token checked against and accepted by the grammar, and the
//! sampled token and the forced ones are decoded as one batch: one model step for many tokens.
//! When the document is complete the call ends without asking the model for its end token.
//! Caveat, as in SGLang: the forced text is tokenized on its own, canonically, which may split it
//! differently from how the model would have written it token by token; the text is the same, the
//! token count may differ slightly, and the model sees that tokenization in its context.
//!
//! This file owns the engine: loading, the context pool and prompt cache, prewarming, and the
//! decode loop with jump-forward. Token sampling and its grammar rescue are in `sampler`, the
//! compact grammar of a schema in `grammar`, the backend, compute gate, chat template and small
//! helpers in `support`.

use std::num::NonZeroU32;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::token::LlamaToken;

use super::gguf::{read_facts, GgufFacts};
use super::jump::JumpPredictor;
use super::memory::{self, MemoryEstimate};
use super::runaway;
use super::utf8::Utf8Stream;
use super::{
    CancelToken, ChatMessage, FinishReason, GenerationRequest, GenerationResult, LanguageModel,
    LlmError, LoadedModelInfo, ModelInfo, Sampling, TokenListener,
};
use crate::llm::language_model::guard_token_listener;

mod grammar;
mod sampler;
mod support;

pub use grammar::compact_json_grammar;
pub use support::{available_cores, backend, system_info, FALLBACK_TEMPLATE};

use sampler::TokenSampler;
use support::{
    backend_err, chat_template, check, common_prefix, emit, lock, role_name, ComputeGate, Deadline,
};

/// Prompt tokens decoded per llama.cpp call. Cancellation and the timeout are checked between
/// chunks, so this bounds how long a long prompt can ignore them.
const PROMPT_CHUNK: usize = 128;

/// Idle contexts kept for reuse (creating one for a 2048-token window costs milliseconds).
const POOL_SIZE: usize = 2;

/// Most characters forced in one jump (and its tokens stay below the batch size, [`PROMPT_CHUNK`]).
const MAX_FORCED_CHARS: usize = 512;

/// How to load a model.
pub struct LlamaOptions {
    /// Context window in tokens (prompt plus output) of every call. Default 2048.
    pub context_tokens: u32,
    /// CPU threads per decode step. Default (`None`): the cores available to this process. Values
    /// above that are lowered to it: more threads than cores makes llama.cpp many times slower.
    pub threads: Option<u32>,
    /// Called with load progress from 0.0 to 1.0.
    pub progress: Option<Box<dyn Fn(f32) + Send + Sync>>,
    /// Jump-forward decoding of schema-constrained output (see the module documentation): text the
    /// grammar forces is appended without sampling and decoded in one batch. Default true; false
    /// samples every token (same grammar), for comparison.
    pub jump_forward: bool,
}

impl Default for LlamaOptions {
    fn default() -> Self {
        LlamaOptions {
            context_tokens: 2048,
            threads: None,
            progress: None,
            jump_forward: true,
        }
    }
}

impl std::fmt::Debug for LlamaOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlamaOptions")
            .field("context_tokens", &self.context_tokens)
            .field("threads", &self.threads)
            .field("progress", &self.progress.as_ref().map(|_| "Fn(f32)"))
            .field("jump_forward", &self.jump_forward)
            .finish()
    }
}

/// A GGUF model loaded into llama.cpp, shared by every call (`Arc`).
pub struct LlamaEngine {
    // Field order is drop order: the pooled contexts borrow `model` and go first.
    pool: Mutex<Vec<PooledContext>>,
    model: Box<LlamaModel>,
    /// Held while a context is created: llama.cpp may write to the model then.
    create_lock: Mutex<()>,
    template: LlamaChatTemplate,
    template_fallback: bool,
    name: String,
    context_tokens: u32,
    threads: u32,
    load_ms: u64,
    jump_forward: bool,
    /// Prompt caching, see [`LlamaEngine::set_prompt_cache`].
    prompt_cache: AtomicBool,
    /// What the file's header says (sizes, parameters, quantization).
    facts: GgufFacts,
    /// The memory pre-flight's estimate for this model at `context_tokens`.
    memory: MemoryEstimate,
}

/// What a generation cost in model steps, from [`LlamaEngine::generate_with_stats`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GenerationStats {
    /// llama.cpp decode calls after the prompt: one per model step, whatever the tokens in it.
    pub decode_steps: u32,
    /// Tokens chosen by sampling.
    pub sampled_tokens: u32,
    /// Tokens appended because the grammar forced them (jump-forward), without sampling.
    pub forced_tokens: u32,
    /// Steps that appended forced tokens.
    pub jumps: u32,
    /// Prompt tokens whose KV entries were reused from an earlier call with the same prefix
    /// (not decoded again).
    pub cached_prompt_tokens: u32,
    /// Whether decoding was stopped early because the output looped ([`crate::llm::runaway`]);
    /// the result then ends with finish `Length`, like a truncated answer.
    pub stopped_looping: bool,
}

/// A llama.cpp context whose borrow of the engine's model is erased (see `LlamaEngine::pool`),
/// and the tokens whose KV entries it holds in sequence 0, in position order: the prompt and the
/// output of its last call. The next call reuses the longest common prefix (prompt caching).
struct PooledContext(LlamaContext<'static>, Vec<LlamaToken>);

impl std::fmt::Debug for LlamaEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlamaEngine")
            .field("name", &self.name)
            .field("context_tokens", &self.context_tokens)
            .field("threads", &self.threads)
            .field("template_fallback", &self.template_fallback)
            .field("jump_forward", &self.jump_forward)
            .finish_non_exhaustive()
    }
}

impl LlamaEngine {
    /// Loads the GGUF model at `path` (memory-mapped).
    ///
    /// Before llama.cpp maps anything, the memory pre-flight reads the GGUF header and compares
    /// the model file plus the KV cache of one context of `context_tokens` (and compute buffers)
    /// with the memory the device has available ([`super::memory`]).
    ///
    /// Errors: no file there, `ModelNotFound`; a file that does not start with the GGUF magic,
    /// `NotAGguf`; more memory needed than available, `InsufficientMemory` (nothing was loaded); a
    /// GGUF whose header cannot be read or that llama.cpp cannot load (unknown architecture,
    /// truncated, corrupt), `UnsupportedModel`.
    pub fn load(path: &str, options: LlamaOptions) -> Result<Arc<LlamaEngine>, LlmError> {
        let started = Instant::now();
        let context_tokens = options.context_tokens.max(16);
        let facts = read_facts(Path::new(path))?;
        let memory = memory::estimate(&facts, context_tokens);
        log::info!(target: "coachcore::llm",
            "memory pre-flight: needed={} (file={} kv_cache={} compute={}) available={}",
            memory.needed_bytes(), memory.file_bytes, memory.kv_cache_bytes, memory.compute_bytes,
            memory.available_bytes.map_or_else(|| "unknown".to_string(), |b| b.to_string()));
        memory.check()?;
        let backend = backend()?;
        let cores = available_cores();
        let threads = options.threads.unwrap_or(cores).clamp(1, cores);

        let mut params = LlamaModelParams::default();
        if let Some(progress) = options.progress {
            params = params.with_progress_callback(move |p| {
                progress(p);
                true
            });
        }
        let model = LlamaModel::load_from_file(backend, path, &params).map_err(|e| {
            LlmError::UnsupportedModel {
                detail: format!("llama.cpp could not load {path}: {e}"),
            }
        })?;
        drop(params);

        let (template, template_fallback) = chat_template(&model)?;
        let name = model
            .meta_val_str("general.name")
            .ok()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| {
                Path::new(path)
                    .file_stem()
                    .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
            });
        let load_ms = started.elapsed().as_millis() as u64;
        Ok(Arc::new(LlamaEngine {
            pool: Mutex::new(Vec::new()),
            model: Box::new(model),
            create_lock: Mutex::new(()),
            template,
            template_fallback,
            name,
            context_tokens,
            threads,
            load_ms,
            jump_forward: options.jump_forward,
            prompt_cache: AtomicBool::new(true),
            facts,
            memory,
        }))
    }

    /// What the model is: name, parameters, context, quantization, chat template, sizes.
    pub fn details(&self) -> LoadedModelInfo {
        LoadedModelInfo {
            name: self.name.clone(),
            parameter_count: Some(self.facts.parameter_count),
            context_tokens: self.context_tokens,
            trained_context_tokens: self.facts.trained_context,
            quantization: self.facts.quantization.clone(),
            has_chat_template: Some(!self.template_fallback),
            file_bytes: Some(self.facts.file_bytes),
            estimated_memory_bytes: Some(self.memory.needed_bytes()),
            constrains_json_schema: true,
            embedded: true,
        }
    }

    /// True when the GGUF had no chat template llama.cpp can apply and [`FALLBACK_TEMPLATE`] is
    /// used instead.
    pub fn template_fallback(&self) -> bool {
        self.template_fallback
    }

    /// Threads per decode step.
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// Context window of every call, in tokens.
    pub fn context_tokens(&self) -> u32 {
        self.context_tokens
    }

    /// Whether schema-constrained calls use jump-forward decoding ([`LlamaOptions::jump_forward`]).
    pub fn jump_forward(&self) -> bool {
        self.jump_forward
    }

    /// [`LanguageModel::generate`], also returning what the call cost in model steps.
    pub fn generate_with_stats(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<(GenerationResult, GenerationStats), LlmError> {
        let started = Instant::now();
        let listener = guard_token_listener(listener);
        self.run(&request, listener.as_deref(), &cancel, started)
    }

    /// Prompt caching (on by default): a call whose prompt starts with the tokens an idle context
    /// already holds (the same system prompt, schema text or grounding as an earlier call, or a
    /// [`prewarm`](Self::prewarm)) decodes only the rest. Bounded by the context pool: at most two
    /// idle contexts keep their tokens, and a context's cache is replaced by whatever it decodes
    /// next. Off: every prompt is decoded in full, for comparison.
    pub fn set_prompt_cache(&self, on: bool) {
        self.prompt_cache.store(on, Ordering::Relaxed);
    }

    /// How long [`load`](Self::load) took, in milliseconds.
    pub fn load_ms(&self) -> u64 {
        self.load_ms
    }

    /// The prompt tokens `messages` become (chat template applied), for budgeting prompts.
    pub fn count_prompt_tokens(&self, messages: &[ChatMessage]) -> Result<u32, LlmError> {
        Ok(self.prompt_tokens(messages, true)?.len() as u32)
    }

    /// Reads `messages` (a prompt's fixed beginning: the system prompt, schema or tool text,
    /// grounding that repeats) into an idle context's cache, so the next call that starts with
    /// them decodes only the rest. The same as `generate` with `max_tokens` 0. Returns the tokens
    /// cached.
    pub fn prewarm(&self, messages: &[ChatMessage]) -> Result<u32, LlmError> {
        let request = GenerationRequest {
            messages: messages.to_vec(),
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens: 0,
            timeout_ms: None,
        };
        let (result, _) = self.run(&request, None, &CancelToken::default(), Instant::now())?;
        Ok(result.prompt_tokens)
    }

    /// The tokens of `messages` with the chat template applied; `answer` adds the header of the
    /// model's turn (a prewarm leaves it out: the real prompt goes on with a user turn).
    fn prompt_tokens(
        &self,
        messages: &[ChatMessage],
        answer: bool,
    ) -> Result<Vec<LlamaToken>, LlmError> {
        let chat = messages
            .iter()
            .map(|m| {
                LlamaChatMessage::new(role_name(m.role).to_string(), m.content.clone()).map_err(
                    |_| LlmError::Backend {
                        detail: "a chat message contains a NUL character".into(),
                    },
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        let prompt = self
            .model
            .apply_chat_template(&self.template, &chat, answer)
            .map_err(|e| LlmError::Backend {
                detail: format!("chat template: {e}"),
            })?;
        let vocab = self.model.vocab();
        let mut tokens = vocab.tokenize(prompt.as_bytes(), true, true);
        // Templates that write the BOS text themselves would otherwise get it twice.
        if tokens.len() >= 2 && tokens[0] == vocab.bos() && tokens[1] == vocab.bos() {
            tokens.remove(0);
        }
        Ok(tokens)
    }

    /// A context for `prompt` and how many of its first tokens are already in the context's KV
    /// cache: the pooled context sharing the longest prefix with it (its entries after that prefix
    /// are dropped), or a new one. At least the last prompt token is always decoded again, for its
    /// logits.
    fn take_context(&self, prompt: &[LlamaToken]) -> Result<(PooledContext, usize), LlmError> {
        let pooled = {
            let mut pool = lock(&self.pool);
            let best = pool
                .iter()
                .enumerate()
                .map(|(i, c)| (common_prefix(&c.1, prompt), i))
                .max();
            best.map(|(_, i)| pool.swap_remove(i))
        };
        if let Some(mut ctx) = pooled {
            let keep = if self.prompt_cache.load(Ordering::Relaxed) {
                common_prefix(&ctx.1, prompt).min(prompt.len().saturating_sub(1))
            } else {
                0
            };
            // Forget what follows the shared prefix (metadata only; the buffers need no zeroing).
            if keep > 0 && ctx.0.clear_kv_cache_seq(Some(0), Some(keep as u32), None) == Ok(true) {
                ctx.1.truncate(keep);
                return Ok((ctx, keep));
            }
            if ctx.0.clear_kv_cache_seq(None, None, None) == Ok(true) {
                ctx.1.clear();
                return Ok((ctx, 0));
            }
        }
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(self.context_tokens))
            .with_n_batch(PROMPT_CHUNK as u32)
            .with_n_ubatch(PROMPT_CHUNK as u32)
            .with_n_threads(self.threads as i32)
            .with_n_threads_batch(self.threads as i32);
        let _guard = lock(&self.create_lock);
        let ctx = self
            .model
            .new_context(backend()?, params)
            .map_err(|e| LlmError::Backend {
                detail: format!("llama.cpp context of {} tokens: {e}", self.context_tokens),
            })?;
        // SAFETY: the context borrows `self.model`, which is boxed (its address never changes) and
        // outlives every context: contexts live either in a call of `generate` (which borrows
        // `self`) or in `self.pool`, which is declared before `model` and so dropped first.
        let ctx: LlamaContext<'static> =
            unsafe { std::mem::transmute::<LlamaContext<'_>, LlamaContext<'static>>(ctx) };
        Ok((PooledContext(ctx, Vec::new()), 0))
    }

    fn return_context(&self, ctx: PooledContext) {
        let mut pool = lock(&self.pool);
        if pool.len() < POOL_SIZE {
            pool.push(ctx);
        }
    }

    fn run(
        &self,
        request: &GenerationRequest,
        listener: Option<&dyn TokenListener>,
        cancel: &CancelToken,
        started: Instant,
    ) -> Result<(GenerationResult, GenerationStats), LlmError> {
        let deadline = Deadline {
            started,
            timeout_ms: request.timeout_ms,
        };
        // `max_tokens` 0 is a prewarm: the prompt is read into the cache and nothing generated.
        let tokens = self.prompt_tokens(&request.messages, request.max_tokens > 0)?;
        let prompt_tokens = tokens.len() as u32;
        if prompt_tokens == 0 {
            return Err(LlmError::Backend {
                detail: "empty prompt".into(),
            });
        }
        let room = self.context_tokens.saturating_sub(request.max_tokens);
        if prompt_tokens > room {
            return Err(LlmError::ContextOverflow {
                prompt_tokens,
                context_tokens: room,
                over_by: prompt_tokens - room,
            });
        }
        let (grammar, jump) = match &request.json_schema {
            Some(schema) => {
                let (grammar, compact) = grammar::grammar_sampler(&self.model, schema)?;
                // The predictor assumes compact JSON: without it, nothing is forced.
                let jump = if compact && self.jump_forward {
                    JumpPredictor::new(schema)
                } else {
                    None
                };
                (Some(grammar), jump)
            }
            None => (None, None),
        };
        let mut sampler = TokenSampler::new(&request.sampling, grammar);
        check(cancel, &deadline)?;

        let (mut ctx, cached) = self.take_context(&tokens)?;
        let result = self.decode_loop(
            &mut ctx,
            &tokens,
            cached,
            request,
            &mut sampler,
            jump,
            listener,
            cancel,
            &deadline,
        );
        match &result {
            Ok((r, stats)) => log::debug!(target: "coachcore::llm::llama",
                "prompt_tokens={} cached_prompt_tokens={} completion_tokens={} sampled={} \
                 forced={} decode_steps={} stopped_looping={}",
                r.prompt_tokens, stats.cached_prompt_tokens, r.completion_tokens,
                stats.sampled_tokens, stats.forced_tokens, stats.decode_steps,
                stats.stopped_looping),
            // What the cache gave is known even when the call did not finish (a timeout on a
            // busy device): the same line, with the error.
            Err(e) => log::debug!(target: "coachcore::llm::llama",
                "prompt_tokens={prompt_tokens} cached_prompt_tokens={cached} failed={e}"),
        }
        if result.is_ok() || matches!(result, Err(LlmError::Cancelled | LlmError::TimedOut { .. }))
        {
            self.return_context(ctx);
        }
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn decode_loop(
        &self,
        pooled: &mut PooledContext,
        tokens: &[LlamaToken],
        cached: usize,
        request: &GenerationRequest,
        sampler: &mut TokenSampler,
        mut jump: Option<JumpPredictor>,
        listener: Option<&dyn TokenListener>,
        cancel: &CancelToken,
        deadline: &Deadline,
    ) -> Result<(GenerationResult, GenerationStats), LlmError> {
        let vocab = self.model.vocab();
        let PooledContext(ctx, decoded) = pooled;
        let prompt_started = Instant::now();
        let mut batch = LlamaBatch::new(PROMPT_CHUNK, 1);
        let last = tokens.len() - 1;
        for (c, chunk) in tokens[cached..].chunks(PROMPT_CHUNK).enumerate() {
            check(cancel, deadline)?;
            batch.clear();
            for (i, &token) in chunk.iter().enumerate() {
                let pos = cached + c * PROMPT_CHUNK + i;
                batch
                    .add(token, pos as i32, &[0], pos == last)
                    .map_err(backend_err)?;
            }
            self.decode(ctx, &mut batch)?;
            decoded.extend_from_slice(chunk);
        }
        let prompt_ms = prompt_started.elapsed().as_millis() as u64;

        let generation_started = Instant::now();
        let mut logits_at = batch.n_tokens() - 1;
        let mut pos = tokens.len() as i32;
        let mut text = String::new();
        let mut utf8 = Utf8Stream::default();
        let mut piece = Vec::with_capacity(32);
        let mut completion_tokens = 0u32;
        let mut finish = FinishReason::Length;
        let mut stats = GenerationStats {
            cached_prompt_tokens: cached as u32,
            ..GenerationStats::default()
        };
        // Sampled tokens since the output was last looked at for a loop (forced ones not counted).
        let mut loop_check = runaway::LoopCheck::default();
        // The tokens of the next model step: the sampled one, then any forced ones.
        let mut step: Vec<LlamaToken> = Vec::with_capacity(PROMPT_CHUNK);
        while completion_tokens < request.max_tokens {
            check(cancel, deadline)?;
            let token = sampler.sample(ctx, logits_at)?;
            if vocab.is_eog(token) {
                finish = FinishReason::Stop;
                break;
            }
            completion_tokens += 1;
            stats.sampled_tokens += 1;
            piece.clear();
            vocab.token_to_piece_into(token, &mut piece, false, None);
            let sampled = utf8.push(&piece);
            if let Some(j) = jump.as_mut() {
                j.push(&sampled);
            }
            emit(sampled, &mut text, listener);
            step.clear();
            step.push(token);
            if completion_tokens == request.max_tokens {
                break;
            }
            if loop_check.after_sampled(&text) {
                log::warn!(target: "coachcore::llm",
                    "decoding stopped: the output repeats itself (after {completion_tokens} tokens)");
                stats.stopped_looping = true;
                break;
            }
            check(cancel, deadline)?;
            // Jump forward over what the grammar forces (only at character boundaries: the
            // predictor has seen exactly the text so far).
            if let Some(j) = jump.as_mut().filter(|j| !j.is_lost() && utf8.is_clean()) {
                let room = (request.max_tokens - completion_tokens).min(PROMPT_CHUNK as u32 - 1);
                let forced = j.forced(MAX_FORCED_CHARS);
                let mut done = forced.complete;
                if !forced.text.is_empty() {
                    let (bytes, n) =
                        self.force_tokens(&forced.text, room, sampler, &mut step, &mut piece);
                    if n > 0 {
                        completion_tokens += n;
                        stats.forced_tokens += n;
                        stats.jumps += 1;
                        let appended = utf8.push(&bytes);
                        j.push(&appended);
                        emit(appended, &mut text, listener);
                    }
                    done &= bytes.len() == forced.text.len();
                }
                if done {
                    // The document is complete: the grammar allows only the end now.
                    finish = FinishReason::Stop;
                    break;
                }
                if completion_tokens >= request.max_tokens {
                    break;
                }
                check(cancel, deadline)?;
            }
            batch.clear();
            let last = step.len() - 1;
            for (i, &t) in step.iter().enumerate() {
                batch.add(t, pos, &[0], i == last).map_err(backend_err)?;
                pos += 1;
            }
            self.decode(ctx, &mut batch)?;
            decoded.extend_from_slice(&step);
            stats.decode_steps += 1;
            logits_at = last as i32;
        }
        emit(utf8.finish(), &mut text, listener);
        let result = GenerationResult {
            text,
            finish,
            prompt_tokens: tokens.len() as u32,
            completion_tokens,
            prompt_ms,
            generation_ms: generation_started.elapsed().as_millis() as u64,
        };
        Ok((result, stats))
    }

    /// Tokenizes `forced` text (no BOS, no special tokens) and appends to `step` the tokens, at
    /// most `room`, that spell a prefix of it and that the grammar accepts, accepting each (grammar
    /// and sampler chain). Returns their bytes and count. Stops at the first token that does not
    /// fit (never happens when predictor and grammar agree): the output stays grammar-valid.
    fn force_tokens(
        &self,
        forced: &str,
        room: u32,
        sampler: &mut TokenSampler,
        step: &mut Vec<LlamaToken>,
        piece: &mut Vec<u8>,
    ) -> (Vec<u8>, u32) {
        let vocab = self.model.vocab();
        let target = forced.as_bytes();
        let mut bytes = Vec::with_capacity(target.len());
        let mut n = 0;
        for t in vocab.tokenize(target, false, false) {
            if n >= room || vocab.is_eog(t) {
                break;
            }
            piece.clear();
            vocab.token_to_piece_into(t, piece, false, None);
            if piece.is_empty() || !target[bytes.len()..].starts_with(piece) || !sampler.force(t) {
                break;
            }
            bytes.extend_from_slice(piece);
            step.push(t);
            n += 1;
        }
        (bytes, n)
    }

    fn decode(&self, ctx: &mut LlamaContext<'_>, batch: &mut LlamaBatch) -> Result<(), LlmError> {
        let _turn = ComputeGate::global().acquire(self.threads);
        ctx.decode(batch).map_err(|e| LlmError::Backend {
            detail: format!("llama.cpp decode: {e}"),
        })
    }
}

impl LanguageModel for LlamaEngine {
    fn info(&self) -> ModelInfo {
        ModelInfo {
            name: self.name.clone(),
            context_tokens: self.context_tokens,
            constrains_json_schema: true,
        }
    }

    fn generate(
        &self,
        request: GenerationRequest,
        listener: Option<Arc<dyn TokenListener>>,
        cancel: Arc<CancelToken>,
    ) -> Result<GenerationResult, LlmError> {
        let started = Instant::now();
        let listener = guard_token_listener(listener);
        self.run(&request, listener.as_deref(), &cancel, started)
            .map(|(result, _)| result)
    }
}
