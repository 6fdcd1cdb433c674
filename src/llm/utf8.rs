//! [`Utf8Stream`]: token bytes to text without ever splitting a character. A token may end
//! inside a multi-byte character: its bytes wait for the next token, and what is left at the end
//! is flushed. The llama engine and the scripted model decode through it, so what they stream to
//! a listener is whole characters.

/// Incremental UTF-8 decoding of token bytes: a token may end inside a multi-byte character, so
/// incomplete tails wait for the next token; invalid bytes become U+FFFD.
#[derive(Debug, Default)]
pub struct Utf8Stream {
    pending: Vec<u8>,
}

impl Utf8Stream {
    /// True when no bytes of an unfinished character are waiting.
    pub fn is_clean(&self) -> bool {
        self.pending.is_empty()
    }

    /// The text `bytes` complete: every whole character decoded so far (empty while a character
    /// is still incomplete).
    pub fn push(&mut self, bytes: &[u8]) -> String {
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
                    // Valid by construction (`valid_up_to`); lossy costs nothing on valid bytes.
                    out.push_str(&String::from_utf8_lossy(valid));
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

    /// Flushes the bytes still waiting (an unfinished character becomes U+FFFD).
    pub fn finish(&mut self) -> String {
        let out = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        out
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
        assert!(!s.is_clean());
        assert_eq!(s.finish(), "\u{fffd}");
        assert!(s.is_clean());
    }
}
