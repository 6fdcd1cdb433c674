//! JSON Schema `pattern`s for the jump-forward predictor: the regular expression read as the pinned
//! llama.cpp's json-schema-to-grammar reads it (`_pattern_to_rule`), compiled to a small
//! nondeterministic automaton ([`Nfa`]) whose positions the predictor tracks like any other
//! reading of the text.
//!
//! What is followed, as llama.cpp turns it into grammar: a pattern anchored with `^` and `$`;
//! literal characters (`"` included), `.` (any character but a line feed or carriage return),
//! character classes `[...]` and `[^...]` with ranges, groups `(...)` and `(?:...)`,
//! alternatives `|`, the quantifiers `*`, `+`, `?`, `{m}`, `{m,}`, `{,n}` and `{m,n}`, and the
//! escapes llama.cpp keeps (`\.` and the other regex metacharacters, `\t`, `\n`, `\r`, `\\`,
//! `\"`, `\[`, `\]`, `\-`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`). Anything else (an unanchored pattern,
//! `\d`, `\w`, lookarounds, an anchor inside, a pattern too large to expand) gives `None`: llama.cpp
//! then accepts any string (or fails the schema), and the predictor treats the value as unknown,
//! forcing nothing there. That fallback is always correct, only slower.

/// The most automaton states one pattern may expand to (counted repetitions are copied out); a
/// larger pattern is not followed.
const MAX_STATES: usize = 20_000;
/// Deepest group nesting read (llama.cpp's limit is 100).
const MAX_NESTING: usize = 100;
/// The largest repetition count read.
const MAX_COUNT: u32 = 1_000;

/// A set of characters: ranges, or everything outside them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Class {
    ranges: Vec<(char, char)>,
    negated: bool,
}

impl Class {
    fn one(c: char) -> Class {
        Class {
            ranges: vec![(c, c)],
            negated: false,
        }
    }

    /// Whether `c` is in the set.
    pub(super) fn matches(&self, c: char) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= c && c <= b) != self.negated
    }

    /// The only character in the set, if it holds exactly one.
    pub(super) fn single(&self) -> Option<char> {
        let mut it = self.ranges.iter().filter(|(a, b)| a <= b);
        match (it.next(), self.negated) {
            (Some(&(a, b)), false) if a == b && it.all(|&(x, y)| x == a && y == a) => Some(a),
            _ => None,
        }
    }
}

/// One state of the automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Inst {
    /// Consumes one character of the class, then goes to the state given.
    Char(Class, u32),
    /// Goes to any of these states without consuming.
    Fork(Vec<u32>),
    /// The pattern is matched.
    Match,
}

/// A compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Nfa {
    pub(super) insts: Vec<Inst>,
    pub(super) start: u32,
}

impl Nfa {
    /// The states reachable from `at` without consuming that consume a character or match, in a
    /// fixed order, each once.
    pub(super) fn closure(&self, at: u32) -> Vec<u32> {
        let mut seen = vec![false; self.insts.len()];
        let mut out = Vec::new();
        let mut stack = vec![at];
        while let Some(s) = stack.pop() {
            let Some(flag) = seen.get_mut(s as usize) else {
                continue;
            };
            if std::mem::replace(flag, true) {
                continue;
            }
            match &self.insts[s as usize] {
                Inst::Fork(next) => stack.extend(next.iter().rev()),
                Inst::Char(..) | Inst::Match => out.push(s),
            }
        }
        out
    }

    /// Whether the automaton matches all of `text` (the pattern's `^...$`), in time linear in
    /// the text.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        let mut states = self.closure(self.start);
        let mut in_next = vec![false; self.insts.len()];
        for c in text.chars() {
            let mut next = Vec::new();
            for s in states {
                if let Inst::Char(class, to) = &self.insts[s as usize] {
                    if class.matches(c) {
                        for x in self.closure(*to) {
                            if !std::mem::replace(&mut in_next[x as usize], true) {
                                next.push(x);
                            }
                        }
                    }
                }
            }
            if next.is_empty() {
                return false;
            }
            for &x in &next {
                in_next[x as usize] = false;
            }
            states = next;
        }
        states
            .iter()
            .any(|&s| self.insts[s as usize] == Inst::Match)
    }
}

/// The parsed expression.
#[derive(Debug, Clone)]
enum Ast {
    Char(Class),
    Seq(Vec<Ast>),
    Alt(Vec<Ast>),
    Repeat(Box<Ast>, u32, Option<u32>),
}

/// `pattern` compiled, or `None` when it is not one the predictor follows (see the module docs).
pub(crate) fn compile(pattern: &str) -> Option<Nfa> {
    let inner = pattern.strip_prefix('^')?.strip_suffix('$')?;
    let chars: Vec<char> = inner.chars().collect();
    let mut p = Parser { chars, i: 0 };
    let ast = p.alternatives(0)?;
    if p.i != p.chars.len() {
        return None;
    }
    let mut nfa = Nfa {
        insts: vec![Inst::Match],
        start: 0,
    };
    nfa.start = emit(&mut nfa.insts, &ast, 0)?;
    Some(nfa)
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

/// Regex metacharacters whose escape llama.cpp reads as the character itself.
const META: &str = "^$.[]()|{}*+?";

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    /// Alternatives up to a closing `)` (consumed, when `depth > 0`) or the end.
    fn alternatives(&mut self, depth: usize) -> Option<Ast> {
        if depth > MAX_NESTING {
            return None;
        }
        let mut alts = Vec::new();
        let mut seq: Vec<Ast> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                if depth > 0 {
                    return None;
                }
                break;
            };
            self.i += 1;
            match c {
                ')' if depth > 0 => break,
                ')' | '^' | '$' | ']' | '}' => return None,
                '|' => alts.push(Ast::Seq(std::mem::take(&mut seq))),
                '.' => seq.push(Ast::Char(Class {
                    ranges: vec![('\n', '\n'), ('\r', '\r')],
                    negated: true,
                })),
                '(' => {
                    if self.peek() == Some('?') {
                        if self.chars.get(self.i + 1) != Some(&':') {
                            return None;
                        }
                        self.i += 2;
                    }
                    seq.push(self.alternatives(depth + 1)?);
                }
                '[' => seq.push(Ast::Char(self.class()?)),
                '*' | '+' | '?' => {
                    let last = seq.pop()?;
                    let (min, max) = match c {
                        '*' => (0, None),
                        '+' => (1, None),
                        _ => (0, Some(1)),
                    };
                    seq.push(Ast::Repeat(Box::new(last), min, max));
                }
                '{' => {
                    let (min, max) = self.counts()?;
                    let last = seq.pop()?;
                    seq.push(Ast::Repeat(Box::new(last), min, max));
                }
                '\\' => {
                    let next = self.peek()?;
                    if META.contains(next) {
                        self.i += 1;
                        seq.push(Ast::Char(Class::one(next)));
                    } else {
                        seq.push(Ast::Char(Class::one(self.escape()?)));
                    }
                }
                c => seq.push(Ast::Char(Class::one(c))),
            }
        }
        alts.push(Ast::Seq(seq));
        Some(if alts.len() == 1 {
            alts.pop()?
        } else {
            Ast::Alt(alts)
        })
    }

    /// After a `\`: the escapes llama.cpp's grammar reads (`t r n \ " [ ] -`, `xHH`, `uHHHH`,
    /// `UHHHHHHHH`).
    fn escape(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        let digits = match c {
            't' => return Some('\t'),
            'r' => return Some('\r'),
            'n' => return Some('\n'),
            '\\' | '"' | '[' | ']' | '-' => return Some(c),
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => return None,
        };
        let hex: String = self.chars.get(self.i..self.i + digits)?.iter().collect();
        if !hex.chars().all(|h| h.is_ascii_hexdigit()) {
            return None;
        }
        self.i += digits;
        char::from_u32(u32::from_str_radix(&hex, 16).ok()?)
    }

    /// A character class after its `[`, up to and with its `]`, read as llama.cpp's grammar
    /// reads the copied text: an optional `^`, then characters and `a-z` ranges.
    fn class(&mut self) -> Option<Class> {
        let mut class = Class {
            ranges: Vec::new(),
            negated: false,
        };
        if self.peek() == Some('^') {
            class.negated = true;
            self.i += 1;
        }
        loop {
            let c = self.peek()?;
            self.i += 1;
            if c == ']' {
                return Some(class);
            }
            let lo = if c == '\\' { self.escape()? } else { c };
            let hi = if self.peek() == Some('-')
                && self.chars.get(self.i + 1).is_some_and(|&n| n != ']')
            {
                self.i += 1;
                let c = self.peek()?;
                self.i += 1;
                if c == '\\' {
                    self.escape()?
                } else {
                    c
                }
            } else {
                lo
            };
            class.ranges.push((lo, hi));
        }
    }

    /// `{m}`, `{m,}`, `{,n}`, `{m,n}` after the `{`: (min, max).
    fn counts(&mut self) -> Option<(u32, Option<u32>)> {
        let close = self.chars[self.i..].iter().position(|&c| c == '}')?;
        let text: String = self.chars[self.i..self.i + close].iter().collect();
        self.i += close + 1;
        let num = |s: &str| -> Option<u32> {
            let n: u32 = s.trim().parse().ok()?;
            (n <= MAX_COUNT).then_some(n)
        };
        match text.split_once(',') {
            None => {
                let n = num(&text)?;
                Some((n, Some(n)))
            }
            Some((a, b)) => {
                let min = if a.is_empty() { 0 } else { num(a)? };
                let max = if b.is_empty() { None } else { Some(num(b)?) };
                (max.is_none_or(|m| m >= min)).then_some((min, max))
            }
        }
    }
}

fn push(insts: &mut Vec<Inst>, inst: Inst) -> Option<u32> {
    if insts.len() >= MAX_STATES {
        return None;
    }
    insts.push(inst);
    Some((insts.len() - 1) as u32)
}

/// Emits `ast` so that it continues at state `next`; returns its entry state.
fn emit(insts: &mut Vec<Inst>, ast: &Ast, next: u32) -> Option<u32> {
    match ast {
        Ast::Char(class) => push(insts, Inst::Char(class.clone(), next)),
        Ast::Seq(items) => items
            .iter()
            .rev()
            .try_fold(next, |n, item| emit(insts, item, n)),
        Ast::Alt(alts) => {
            let entries = alts
                .iter()
                .map(|a| emit(insts, a, next))
                .collect::<Option<Vec<u32>>>()?;
            push(insts, Inst::Fork(entries))
        }
        Ast::Repeat(item, min, max) => {
            let mut tail = match max {
                Some(max) => {
                    // (x(x(x)?)?)? for the optional copies: stopping early continues at `next`.
                    let mut t = next;
                    for _ in *min..*max {
                        let entry = emit(insts, item, t)?;
                        t = push(insts, Inst::Fork(vec![entry, next]))?;
                    }
                    t
                }
                None => {
                    let fork = push(insts, Inst::Fork(Vec::new()))?;
                    let entry = emit(insts, item, fork)?;
                    insts[fork as usize] = Inst::Fork(vec![entry, next]);
                    fork
                }
            };
            for _ in 0..*min {
                tail = emit(insts, item, tail)?;
            }
            Some(tail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_match(nfa: &Nfa, text: &str) -> bool {
        nfa.is_match(text)
    }

    #[test]
    fn times_and_dates_match_exactly() {
        let time = compile("^([01][0-9]|2[0-3]):[0-5][0-9]$").unwrap();
        for ok in ["00:00", "09:30", "17:05", "23:59"] {
            assert!(full_match(&time, ok), "{ok}");
        }
        for bad in ["24:00", "9:30", "12:60", "12:3", "12:300", "", "1230"] {
            assert!(!full_match(&time, bad), "{bad}");
        }
        let date = compile("^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$").unwrap();
        for ok in ["2026-11-24", "2027-01-31", "2026-12-01"] {
            assert!(full_match(&date, ok), "{ok}");
        }
        for bad in [
            "2026-13-01",
            "2026-00-10",
            "2026-1-10",
            "2026-11-32",
            "26-11-24",
        ] {
            assert!(!full_match(&date, bad), "{bad}");
        }
    }

    #[test]
    fn quantifiers_classes_and_escapes() {
        let p = compile("^a{2,3}b*c+d?$").unwrap();
        for ok in ["aac", "aaabbbcc", "aacd", "aabcd"] {
            assert!(full_match(&p, ok), "{ok}");
        }
        for bad in ["ac", "aaaac", "aab", "aacdd"] {
            assert!(!full_match(&p, bad), "{bad}");
        }
        let p = compile(r"^[^a-c\]]x\.(?:y|zz){,2}$").unwrap();
        assert!(full_match(&p, "dx."));
        assert!(!full_match(&p, "]x."));
        assert!(full_match(&p, "dx.yzz"));
        assert!(!full_match(&p, "ax."));
        assert!(!full_match(&p, "dxx"));
        assert!(!full_match(&p, "dx.yyy"));
        let p = compile(r"^\x41\u00e9.$").unwrap();
        assert!(full_match(&p, "Aé\""));
        assert!(!full_match(&p, "Aé\n"));
        // An empty-matching loop ends.
        let p = compile("^(a*)*b$").unwrap();
        assert!(full_match(&p, "aab") && full_match(&p, "b"));
    }

    #[test]
    fn what_llama_cpp_cannot_turn_into_grammar_is_not_followed() {
        for p in [
            "a+",
            "^a+",
            "a+$",
            r"^\d{2}$",
            r"^\w+$",
            "^(?=a)a$",
            "^a^b$",
            "^(a$",
            "^a)$",
            "^*a$",
            "^a{2$",
            "^a{x}$",
            "^a{3,1}$",
            "^]$",
            "^a{5000}$",
        ] {
            assert!(compile(p).is_none(), "{p}");
        }
        // Too large once expanded.
        assert!(compile("^((((a{0,30}){0,30}){0,30}))$").is_none());
    }

    #[test]
    fn single_characters_are_known() {
        assert_eq!(Class::one(':').single(), Some(':'));
        let range = Class {
            ranges: vec![('0', '9')],
            negated: false,
        };
        assert_eq!(range.single(), None);
        let neg = Class {
            ranges: vec![('a', 'a')],
            negated: true,
        };
        assert_eq!(neg.single(), None);
    }
}
