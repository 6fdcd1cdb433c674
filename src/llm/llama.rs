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

use std::fs::File;
use std::io::Read;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Instant;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
use llama_cpp_2::token::LlamaToken;

use super::jump::JumpPredictor;
use super::model::{
    CancelToken, ChatMessage, ChatRole, FinishReason, GenerationRequest, GenerationResult,
    LanguageModel, LlmError, ModelInfo, Sampling, TokenListener,
};

/// The template used when a GGUF has no chat template llama.cpp can apply.
pub const FALLBACK_TEMPLATE: &str = "chatml";

/// Prompt tokens decoded per llama.cpp call. Cancellation and the timeout are checked between
/// chunks, so this bounds how long a long prompt can ignore them.
const PROMPT_CHUNK: usize = 256;

/// When the freely sampled token breaks the grammar, the next one is sampled among the
/// grammar-valid tokens of the 64 most likely ones if there are any, else of the 1024 most likely,
/// else of the whole vocabulary. Filtering the whole vocabulary through the grammar costs about as
/// much as a decode step of a small model; the first tier almost always suffices for greedy and
/// low-temperature sampling (with top-k up to 64 it picks what grammar-first sampling would, when
/// the tier holds at least top-k valid tokens).
const RESCUE_CANDIDATES: [usize; 2] = [64, 1024];

/// Idle contexts kept for reuse (creating one for a 2048-token window costs milliseconds).
const POOL_SIZE: usize = 2;

/// Most characters forced in one jump (and its tokens stay below the batch size, [`PROMPT_CHUNK`]).
const MAX_FORCED_CHARS: usize = 512;

/// The whitespace rule llama.cpp's json-schema-to-grammar emits (this pinned version): nothing, a
/// space, or one or two newlines and indentation.
const GBNF_SPACE_RULE: &str = r#"space ::= | " " | "\n"{1,2} [ \t]{0,20}"#;

/// The same rule matching only the empty string: compact JSON.
const GBNF_COMPACT_SPACE_RULE: &str = r#"space ::= """#;

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

/// The cores this process may use (at least 1).
pub fn available_cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
}

/// The process's llama.cpp backend, initialised on first use with llama.cpp's logging silenced.
/// llama.cpp allows one per process: code that uses `llama-cpp-2` directly next to the engine must
/// use this one.
pub fn backend() -> Result<&'static LlamaBackend, LlmError> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            let mut backend = LlamaBackend::init().map_err(|e| e.to_string())?;
            backend.void_logs();
            Ok(backend)
        })
        .as_ref()
        .map_err(|e| LlmError::Backend {
            detail: format!("llama.cpp backend: {e}"),
        })
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
    /// Errors: no file there, `ModelNotFound`; a file that does not start with the GGUF magic,
    /// `NotAGguf`; a GGUF llama.cpp cannot load (unknown architecture, truncated, corrupt),
    /// `UnsupportedModel`.
    pub fn load(path: &str, options: LlamaOptions) -> Result<Arc<LlamaEngine>, LlmError> {
        let started = Instant::now();
        check_gguf_magic(Path::new(path))?;
        let backend = backend()?;
        let context_tokens = options.context_tokens.max(16);
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
        }))
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
                let (grammar, compact) = self.grammar_sampler(schema)?;
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

    /// The grammar of `schema`, and whether it is compact (no optional whitespace).
    fn grammar_sampler(&self, schema: &str) -> Result<(LlamaSampler, bool), LlmError> {
        let (gbnf, compact) = compact_json_grammar(schema)?;
        let sampler = LlamaSampler::grammar(&self.model, &gbnf, "root").map_err(|e| {
            LlmError::InvalidSchema {
                detail: format!("grammar rejected by llama.cpp: {e}"),
            }
        })?;
        Ok((sampler, compact))
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
        self.run(&request, listener.as_deref(), &cancel, started)
            .map(|(result, _)| result)
    }
}

/// The GBNF grammar llama.cpp's json-schema-to-grammar makes of the JSON Schema text `schema`,
/// with its optional whitespace between JSON tokens removed (`space` matches only the empty
/// string: compact JSON), and whether that rewrite was made (false if this llama.cpp emits a
/// whitespace rule other than the one expected: the grammar is then returned as converted).
pub fn compact_json_grammar(schema: &str) -> Result<(String, bool), LlmError> {
    let invalid = |detail: String| LlmError::InvalidSchema { detail };
    let value: serde_json::Value =
        serde_json::from_str(schema).map_err(|e| invalid(format!("not JSON: {e}")))?;
    if !(value.is_object() || value.is_boolean()) {
        return Err(invalid("a JSON Schema is an object".into()));
    }
    let gbnf = llama_cpp_2::json_schema_to_grammar(schema)
        .map_err(|e| invalid(format!("llama.cpp could not convert it to a grammar ({e})")))?;
    let mut compact = false;
    let lines: Vec<&str> = gbnf
        .lines()
        .map(|line| {
            if line == GBNF_SPACE_RULE {
                compact = true;
                GBNF_COMPACT_SPACE_RULE
            } else {
                line
            }
        })
        .collect();
    if !compact {
        return Ok((gbnf, false));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok((out, true))
}

/// Checks that `path` is a file that starts with the 4-byte GGUF magic.
fn check_gguf_magic(path: &Path) -> Result<(), LlmError> {
    let shown = path.display();
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(LlmError::ModelNotFound {
                detail: format!("no file at {shown}"),
            })
        }
        Err(e) => {
            return Err(LlmError::ModelNotFound {
                detail: format!("cannot open {shown}: {e}"),
            })
        }
    };
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(LlmError::ModelNotFound {
            detail: format!("{shown} is a directory"),
        });
    }
    let mut magic = [0u8; 4];
    match file.read_exact(&mut magic) {
        Ok(()) if &magic == b"GGUF" => Ok(()),
        Ok(()) => Err(LlmError::NotAGguf {
            detail: format!("{shown} does not start with the GGUF magic"),
        }),
        Err(_) => Err(LlmError::NotAGguf {
            detail: format!("{shown} is shorter than a GGUF header"),
        }),
    }
}

/// The GGUF's own chat template if llama.cpp can apply it, else [`FALLBACK_TEMPLATE`].
fn chat_template(model: &LlamaModel) -> Result<(LlamaChatTemplate, bool), LlmError> {
    let probe = [LlamaChatMessage::new("user".into(), "hi".into()).expect("no NUL")];
    if let Ok(template) = model.chat_template(None) {
        if model.apply_chat_template(&template, &probe, true).is_ok() {
            return Ok((template, false));
        }
    }
    let template = LlamaChatTemplate::new(FALLBACK_TEMPLATE).expect("no NUL");
    model
        .apply_chat_template(&template, &probe, true)
        .map_err(|e| LlmError::UnsupportedModel {
            detail: format!("no usable chat template: {e}"),
        })?;
    Ok((template, true))
}

fn role_name(role: ChatRole) -> &'static str {
    match role {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}

fn backend_err(e: impl std::fmt::Display) -> LlmError {
    LlmError::Backend {
        detail: format!("llama.cpp: {e}"),
    }
}

/// How many leading tokens `a` and `b` share.
fn common_prefix(a: &[LlamaToken], b: &[LlamaToken]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn emit(piece: String, text: &mut String, listener: Option<&dyn TokenListener>) {
    if piece.is_empty() {
        return;
    }
    text.push_str(&piece);
    if let Some(l) = listener {
        l.on_token(piece);
    }
}

struct Deadline {
    started: Instant,
    timeout_ms: Option<u64>,
}

fn check(cancel: &CancelToken, deadline: &Deadline) -> Result<(), LlmError> {
    if cancel.is_cancelled() {
        return Err(LlmError::Cancelled);
    }
    if let Some(ms) = deadline.timeout_ms {
        if deadline.started.elapsed().as_millis() >= u128::from(ms) {
            return Err(LlmError::TimedOut { after_ms: ms });
        }
    }
    Ok(())
}

/// llama.cpp's seed is 32 bits and `u32::MAX` means "random": fold the 64-bit seed and keep away
/// from that value.
fn seed32(seed: u64) -> u32 {
    let s = (seed as u32) ^ ((seed >> 32) as u32);
    if s == u32::MAX {
        0x9E37_79B9
    } else {
        s
    }
}

/// The sampler chain of a request, plus its grammar if any.
struct TokenSampler {
    chain: LlamaSampler,
    grammar: Option<LlamaSampler>,
    candidates: LlamaTokenDataArray,
}

impl TokenSampler {
    fn new(sampling: &Sampling, grammar: Option<LlamaSampler>) -> Self {
        let chain = if sampling.temperature <= 0.0 {
            LlamaSampler::greedy()
        } else {
            let mut stages = Vec::with_capacity(4);
            if sampling.top_k > 0 {
                stages.push(LlamaSampler::top_k(
                    i32::try_from(sampling.top_k).unwrap_or(i32::MAX),
                ));
            }
            if sampling.top_p > 0.0 && sampling.top_p < 1.0 {
                stages.push(LlamaSampler::top_p(sampling.top_p, 1));
            }
            stages.push(LlamaSampler::temp(sampling.temperature));
            stages.push(LlamaSampler::dist(seed32(sampling.seed)));
            LlamaSampler::chain_simple(stages)
        };
        TokenSampler {
            chain,
            grammar,
            candidates: LlamaTokenDataArray::new(Vec::new(), false),
        }
    }

    /// The next token from the logits at batch index `at`, accepted by the chain and grammar.
    fn sample(&mut self, ctx: &LlamaContext<'_>, at: i32) -> Result<LlamaToken, LlmError> {
        let Some(grammar) = self.grammar.as_mut() else {
            // llama_sampler_sample applies the chain and accepts the token.
            return Ok(self.chain.sample(ctx, at));
        };
        // Sample freely first; most tokens of schema-shaped output are what the grammar allows.
        fill(&mut self.candidates, ctx.get_logits_ith(at));
        self.candidates.apply_sampler(&mut self.chain);
        let mut token = selected(&self.candidates)?;
        let mut single =
            LlamaTokenDataArray::new(vec![LlamaTokenData::new(token, 1.0, 0.0)], false);
        single.apply_sampler(grammar);
        if single.data[0].logit() == f32::NEG_INFINITY {
            // Rejected. The grammar-valid tokens among the most likely ones usually exist: sample
            // among those (cheap); only when there are none filter the whole vocabulary.
            let logits = ctx.get_logits_ith(at);
            for n in RESCUE_CANDIDATES.into_iter().chain([usize::MAX]) {
                fill(&mut self.candidates, logits);
                keep_most_likely(&mut self.candidates, n);
                self.candidates.apply_sampler(grammar);
                if self
                    .candidates
                    .data
                    .iter()
                    .any(|d| d.logit() != f32::NEG_INFINITY)
                {
                    break;
                }
            }
            self.candidates.apply_sampler(&mut self.chain);
            token = selected(&self.candidates)?;
        }
        grammar.try_accept(token).map_err(|e| LlmError::Backend {
            detail: format!("grammar refused token {}: {e}", token.0),
        })?;
        self.chain.accept(token);
        Ok(token)
    }

    /// Appends a token chosen without sampling (forced by the grammar): true, accepted by the
    /// grammar and the chain, when the grammar allows it; false, and nothing changed, otherwise.
    fn force(&mut self, token: LlamaToken) -> bool {
        let Some(grammar) = self.grammar.as_mut() else {
            return false;
        };
        let mut single =
            LlamaTokenDataArray::new(vec![LlamaTokenData::new(token, 1.0, 0.0)], false);
        single.apply_sampler(grammar);
        if single.data[0].logit() == f32::NEG_INFINITY || grammar.try_accept(token).is_err() {
            return false;
        }
        self.chain.accept(token);
        true
    }
}

/// Keeps the `n` candidates with the highest logits (unordered).
fn keep_most_likely(candidates: &mut LlamaTokenDataArray, n: usize) {
    let data = &mut candidates.data;
    if data.len() > n {
        data.select_nth_unstable_by(n - 1, |a, b| b.logit().total_cmp(&a.logit()));
        data.truncate(n);
    }
    candidates.selected = None;
    candidates.sorted = false;
}

fn fill(candidates: &mut LlamaTokenDataArray, logits: &[f32]) {
    candidates.data.clear();
    candidates.data.extend(
        logits
            .iter()
            .enumerate()
            .map(|(i, &logit)| LlamaTokenData::new(LlamaToken(i as i32), logit, 0.0)),
    );
    candidates.selected = None;
    candidates.sorted = false;
}

fn selected(candidates: &LlamaTokenDataArray) -> Result<LlamaToken, LlmError> {
    candidates
        .selected_token()
        .ok_or_else(|| LlmError::Backend {
            detail: "sampler selected no token".into(),
        })
}

/// Incremental UTF-8 decoding of token bytes: a token may end inside a multi-byte character, so
/// incomplete tails wait for the next token; invalid bytes become U+FFFD.
#[derive(Default)]
struct Utf8Stream {
    pending: Vec<u8>,
}

impl Utf8Stream {
    /// True when no bytes of an unfinished character are waiting.
    fn is_clean(&self) -> bool {
        self.pending.is_empty()
    }

    fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        let mut rest: &[u8] = &self.pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    out.push_str(s);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    out.push_str(std::str::from_utf8(valid).expect("valid prefix"));
                    match e.error_len() {
                        Some(n) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            rest = &after[n..];
                        }
                        None => {
                            rest = after;
                            break;
                        }
                    }
                }
            }
        }
        let keep = rest.len();
        let drop_to = self.pending.len() - keep;
        self.pending.drain(..drop_to);
        out
    }

    fn finish(&mut self) -> String {
        let out = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        out
    }
}

/// Lets decode steps of concurrent calls share the cores without oversubscribing them: a step
/// with `n` threads holds `n` of the cores' units while it runs. With every call using all cores
/// (the default) steps take turns; with fewer threads per call, several run side by side.
struct ComputeGate {
    free: Mutex<u32>,
    freed: Condvar,
    total: u32,
}

struct GateTurn<'a> {
    gate: &'a ComputeGate,
    units: u32,
}

impl ComputeGate {
    /// One for the process: the cores are shared by every engine.
    fn global() -> &'static ComputeGate {
        static GATE: OnceLock<ComputeGate> = OnceLock::new();
        GATE.get_or_init(|| ComputeGate::new(available_cores()))
    }

    fn new(total: u32) -> Self {
        ComputeGate {
            free: Mutex::new(total),
            freed: Condvar::new(),
            total,
        }
    }

    fn acquire(&self, units: u32) -> GateTurn<'_> {
        let units = units.clamp(1, self.total);
        let mut free = lock(&self.free);
        while *free < units {
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *free -= units;
        GateTurn { gate: self, units }
    }
}

impl Drop for GateTurn<'_> {
    fn drop(&mut self) {
        *lock(&self.gate.free) += self.units;
        self.gate.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_stream_holds_split_characters() {
        let mut s = Utf8Stream::default();
        let bytes = "aé€😀".as_bytes();
        let mut out = String::new();
        for b in bytes {
            out.push_str(&s.push(std::slice::from_ref(b)));
        }
        out.push_str(&s.finish());
        assert_eq!(out, "aé€😀");
    }

    #[test]
    fn utf8_stream_replaces_invalid_bytes() {
        let mut s = Utf8Stream::default();
        assert_eq!(s.push(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(s.push(b"\xe2\x82"), "");
        assert_eq!(s.finish(), "\u{fffd}");
    }

    #[test]
    fn seeds_avoid_the_random_sentinel() {
        assert_ne!(seed32(u64::from(u32::MAX)), u32::MAX);
        assert_eq!(seed32(42), 42);
    }

    #[test]
    fn grammars_are_compact_json() {
        let schema = r#"{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}"#;
        let original = llama_cpp_2::json_schema_to_grammar(schema).unwrap();
        eprintln!("{original}");
        assert!(original.lines().any(|l| l == GBNF_SPACE_RULE), "{original}");
        let (gbnf, compact) = compact_json_grammar(schema).unwrap();
        assert!(compact);
        assert!(gbnf.lines().any(|l| l == GBNF_COMPACT_SPACE_RULE), "{gbnf}");
        assert!(!gbnf.contains(GBNF_SPACE_RULE));
        // Only that rule changed.
        assert_eq!(gbnf.lines().count(), original.lines().count());
        assert!(matches!(
            compact_json_grammar("[1]"),
            Err(LlmError::InvalidSchema { .. })
        ));
    }

    #[test]
    fn gate_lets_small_steps_run_side_by_side() {
        let gate = ComputeGate::new(2);
        let a = gate.acquire(1);
        let b = gate.acquire(1);
        assert_eq!(*lock(&gate.free), 0);
        drop((a, b));
        let c = gate.acquire(5);
        assert_eq!(c.units, 2);
    }
}
