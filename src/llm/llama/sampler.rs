//! Token sampling of a call: the request's sampler chain, checked against the grammar only after
//! sampling, with the rescue tiers used when the sampled token breaks it ([`TokenSampler`]), and
//! the tokens jump-forward decoding appends without sampling.

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;
use llama_cpp_2::token::LlamaToken;

use crate::llm::model::{LlmError, Sampling};

/// When the freely sampled token breaks the grammar, the next one is sampled among the
/// grammar-valid tokens of the 64 most likely ones if there are any, else of the 1024 most likely,
/// else of the whole vocabulary. Filtering the whole vocabulary through the grammar costs about as
/// much as a decode step of a small model; the first tier almost always suffices for greedy and
/// low-temperature sampling (with top-k up to 64 it picks what grammar-first sampling would, when
/// the tier holds at least top-k valid tokens).
const RESCUE_CANDIDATES: [usize; 2] = [64, 1024];

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
pub(super) struct TokenSampler {
    chain: LlamaSampler,
    grammar: Option<LlamaSampler>,
    candidates: LlamaTokenDataArray,
}

impl TokenSampler {
    pub(super) fn new(sampling: &Sampling, grammar: Option<LlamaSampler>) -> Self {
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
    pub(super) fn sample(
        &mut self,
        ctx: &LlamaContext<'_>,
        at: i32,
    ) -> Result<LlamaToken, LlmError> {
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
    pub(super) fn force(&mut self, token: LlamaToken) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_avoid_the_random_sentinel() {
        assert_ne!(seed32(u64::from(u32::MAX)), u32::MAX);
        assert_eq!(seed32(42), 42);
    }
}
