//! Matching text against a compiled schema: the states of the predictor (stacks of [`Task`]s still
//! to match), how a character advances them, and the one character they all force next, if any.

use std::collections::HashSet;

use super::compile::{
    Compiled, LitId, Node, NodeId, LIT_CLOSE_ARRAY, LIT_CLOSE_OBJECT, LIT_COMMA, LIT_OPEN_ARRAY,
    LIT_OPEN_OBJECT, LIT_QUOTE,
};
use super::compile::{MAX_DEPTH, MAX_STATES};
use super::pattern::{Inst, Nfa};

/// One thing still to match; a state is a stack of them, the next one last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Task {
    /// A value of this node.
    Value(NodeId),
    /// The rest of a literal, from byte `pos`.
    Lit { lit: LitId, pos: u32 },
    /// Inside a pattern string (after its opening quote), at state `at` of its automaton (a
    /// state that consumes a character once closed; any state before).
    Pat { node: NodeId, at: u32 },
    /// Inside a string (after its opening quote): characters so far, escape progress (0: none,
    /// 1: after `\`, 2..=5: after `\u` and that many minus 2 hex digits).
    Str { node: NodeId, count: u32, esc: u8 },
    /// An integer: sign, digits so far, whether the first is 0, magnitude (saturating).
    Int {
        node: NodeId,
        neg: bool,
        digits: u32,
        zero: bool,
        mag: u64,
    },
    /// A number, in this phase.
    Num(NumPhase),
    /// An array after `count` items (and after `[`).
    Arr { node: NodeId, count: u32 },
    /// A tuple before item `index` (and after `[`).
    Tuple { node: NodeId, index: u32 },
    /// An object after `{` and its first `done` required properties.
    ObjReq { node: NodeId, done: u32 },
    /// An object after an optional property; optional properties from `next` on may follow.
    ObjOpt { node: NodeId, next: u32 },
    /// Not modelled.
    Opaque,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum NumPhase {
    Start,
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    ExpZero,
    Exp,
}

impl NumPhase {
    fn can_end(self) -> bool {
        matches!(
            self,
            NumPhase::Zero | NumPhase::Int | NumPhase::Frac | NumPhase::ExpZero | NumPhase::Exp
        )
    }

    fn step(self, c: char) -> Option<NumPhase> {
        use NumPhase::*;
        let digit = c.is_ascii_digit();
        let nonzero = digit && c != '0';
        Some(match (self, c) {
            (Start, '-') => Minus,
            (Start | Minus, '0') => Zero,
            (Start | Minus, _) if nonzero => Int,
            (Int, _) if digit => Int,
            (Zero | Int, '.') => Dot,
            (Zero | Int | Frac, 'e' | 'E') => E,
            (Dot | Frac, _) if digit => Frac,
            (E, '+' | '-') => ESign,
            (E | ESign, '0') => ExpZero,
            (E | ESign, _) if nonzero => Exp,
            (Exp, _) if digit => Exp,
            _ => return None,
        })
    }
}

pub(super) type State = Vec<Task>;

/// What may come next in a set of states.
pub(super) enum Next {
    /// Exactly this character, in every state.
    One(char),
    /// Nothing: every state is complete.
    End,
    /// Several possibilities.
    Many,
}

impl Compiled {
    /// The automaton of pattern node `node`.
    fn nfa(&self, node: NodeId) -> &Nfa {
        match self.nodes[node as usize] {
            Node::Pat(i) => &self.patterns[i as usize],
            _ => unreachable!("a pattern task on a node that is no pattern"),
        }
    }

    fn int_status(
        &self,
        node: NodeId,
        neg: bool,
        digits: u32,
        zero: bool,
        mag: u64,
    ) -> (bool, bool) {
        let Node::Int { min, max } = self.nodes[node as usize] else {
            return (false, false);
        };
        let value = if neg {
            -i128::from(mag)
        } else {
            i128::from(mag)
        };
        let saturated = mag == u64::MAX;
        let can_end = digits > 0
            && (saturated
                || mag == 0
                || (min.is_none_or(|m| value >= i128::from(m))
                    && max.is_none_or(|m| value <= i128::from(m))));
        let can_continue = if digits == 0 {
            true
        } else if zero {
            false
        } else if saturated {
            true
        } else {
            // Any longer integer has at least ten times the magnitude.
            let next = i128::from(mag) * 10;
            if neg {
                min.is_none_or(|m| -next >= i128::from(m))
            } else {
                max.is_none_or(|m| next <= i128::from(m))
            }
        };
        (can_continue, can_end)
    }

    /// Expands `st` until a task that consumes characters is on top (or nothing: complete), into
    /// `out`, once per alternative.
    pub(super) fn close(&self, mut st: State, out: &mut Vec<State>, depth: usize) {
        if depth > 4 * MAX_DEPTH || out.len() > MAX_STATES {
            out.push(vec![Task::Opaque]);
            return;
        }
        loop {
            let Some(&top) = st.last() else {
                out.push(st);
                return;
            };
            match top {
                Task::Lit { .. } | Task::Str { .. } | Task::Opaque => {
                    out.push(st);
                    return;
                }
                Task::Pat { node, at } => {
                    let nfa = self.nfa(node);
                    if matches!(nfa.insts[at as usize], Inst::Char(..)) {
                        out.push(st);
                        return;
                    }
                    st.pop();
                    for s in nfa.closure(at) {
                        let mut alt = st.clone();
                        if matches!(nfa.insts[s as usize], Inst::Char(..)) {
                            alt.push(Task::Pat { node, at: s });
                        }
                        // At the match: the closing quote (below it) comes next.
                        self.close(alt, out, depth + 1);
                    }
                    return;
                }
                Task::Int {
                    node,
                    neg,
                    digits,
                    zero,
                    mag,
                } => {
                    let (cont, end) = self.int_status(node, neg, digits, zero, mag);
                    if cont {
                        out.push(st.clone());
                    }
                    if !end {
                        return;
                    }
                    st.pop();
                }
                Task::Num(phase) => {
                    if phase != NumPhase::ExpZero {
                        out.push(st.clone());
                    }
                    if !phase.can_end() {
                        return;
                    }
                    st.pop();
                }
                Task::Value(node) => {
                    st.pop();
                    match &self.nodes[node as usize] {
                        Node::Opaque => st.push(Task::Opaque),
                        Node::Lit(lit) => st.push(Task::Lit { lit: *lit, pos: 0 }),
                        Node::Alt(children) => {
                            for &child in children {
                                let mut alt = st.clone();
                                alt.push(Task::Value(child));
                                self.close(alt, out, depth + 1);
                            }
                            return;
                        }
                        Node::Str { .. } => {
                            st.push(Task::Str {
                                node,
                                count: 0,
                                esc: 0,
                            });
                            st.push(lit(LIT_QUOTE));
                        }
                        Node::Pat(_) => {
                            st.push(lit(LIT_QUOTE));
                            st.push(Task::Pat {
                                node,
                                at: self.nfa(node).start,
                            });
                            st.push(lit(LIT_QUOTE));
                        }
                        Node::Int { .. } => st.push(Task::Int {
                            node,
                            neg: false,
                            digits: 0,
                            zero: false,
                            mag: 0,
                        }),
                        Node::Num => st.push(Task::Num(NumPhase::Start)),
                        Node::Arr { .. } => {
                            st.push(Task::Arr { node, count: 0 });
                            st.push(lit(LIT_OPEN_ARRAY));
                        }
                        Node::Tuple(_) => {
                            st.push(Task::Tuple { node, index: 0 });
                            st.push(lit(LIT_OPEN_ARRAY));
                        }
                        Node::Obj { .. } => {
                            st.push(Task::ObjReq { node, done: 0 });
                            st.push(lit(LIT_OPEN_OBJECT));
                        }
                    }
                }
                Task::Arr { node, count } => {
                    st.pop();
                    let Node::Arr { item, min, max } = self.nodes[node as usize] else {
                        unreachable!()
                    };
                    if count >= min {
                        let mut end = st.clone();
                        end.push(lit(LIT_CLOSE_ARRAY));
                        self.close(end, out, depth + 1);
                    }
                    if count < max {
                        st.push(Task::Arr {
                            node,
                            count: count + 1,
                        });
                        st.push(Task::Value(item));
                        if count > 0 {
                            st.push(lit(LIT_COMMA));
                        }
                        self.close(st, out, depth + 1);
                    }
                    return;
                }
                Task::Tuple { node, index } => {
                    st.pop();
                    let Node::Tuple(items) = &self.nodes[node as usize] else {
                        unreachable!()
                    };
                    match items.get(index as usize) {
                        None => st.push(lit(LIT_CLOSE_ARRAY)),
                        Some(&item) => {
                            st.push(Task::Tuple {
                                node,
                                index: index + 1,
                            });
                            st.push(Task::Value(item));
                            if index > 0 {
                                st.push(lit(LIT_COMMA));
                            }
                        }
                    }
                }
                Task::ObjReq { node, done } => {
                    st.pop();
                    let Node::Obj {
                        required,
                        optional,
                        additional,
                    } = &self.nodes[node as usize]
                    else {
                        unreachable!()
                    };
                    if let Some(&(key, value)) = required.get(done as usize) {
                        st.push(Task::ObjReq {
                            node,
                            done: done + 1,
                        });
                        st.push(Task::Value(value));
                        st.push(lit(key));
                        if done > 0 {
                            st.push(lit(LIT_COMMA));
                        }
                        continue;
                    }
                    let comma = !required.is_empty();
                    self.optional_props(&st, node, 0, optional, *additional, comma, out, depth);
                    return;
                }
                Task::ObjOpt { node, next } => {
                    st.pop();
                    let Node::Obj {
                        optional,
                        additional,
                        ..
                    } = &self.nodes[node as usize]
                    else {
                        unreachable!()
                    };
                    self.optional_props(&st, node, next, optional, *additional, true, out, depth);
                    return;
                }
            }
        }
    }

    /// The end of an object, or one of its optional properties from index `from` on (each preceded
    /// by a comma when `comma`), or an additional one (not modelled).
    #[allow(clippy::too_many_arguments)]
    fn optional_props(
        &self,
        st: &State,
        node: NodeId,
        from: u32,
        optional: &[(LitId, NodeId)],
        additional: bool,
        comma: bool,
        out: &mut Vec<State>,
        depth: usize,
    ) {
        let mut end = st.clone();
        end.push(lit(LIT_CLOSE_OBJECT));
        self.close(end, out, depth + 1);
        for (i, &(key, value)) in optional.iter().enumerate().skip(from as usize) {
            let mut alt = st.clone();
            alt.push(Task::ObjOpt {
                node,
                next: i as u32 + 1,
            });
            alt.push(Task::Value(value));
            alt.push(lit(key));
            if comma {
                alt.push(lit(LIT_COMMA));
            }
            self.close(alt, out, depth + 1);
        }
        if additional {
            let mut alt = st.clone();
            alt.push(Task::Opaque);
            if comma {
                alt.push(lit(LIT_COMMA));
            }
            self.close(alt, out, depth + 1);
        }
    }

    /// The states after `c`, closed and deduplicated.
    pub(super) fn advance(&self, states: &[State], c: char) -> Vec<State> {
        let mut out = Vec::new();
        for st in states {
            let Some(&top) = st.last() else { continue };
            let mut st = st.clone();
            let replaced = match top {
                Task::Lit { lit: l, pos } => {
                    let text = &self.lits[l as usize];
                    match text[pos as usize..].chars().next() {
                        Some(x) if x == c => {
                            let pos = pos as usize + c.len_utf8();
                            if pos == text.len() {
                                None
                            } else {
                                Some(Task::Lit {
                                    lit: l,
                                    pos: pos as u32,
                                })
                            }
                        }
                        _ => continue,
                    }
                }
                Task::Str { node, count, esc } => {
                    let Node::Str { min, max } = self.nodes[node as usize] else {
                        unreachable!()
                    };
                    match (esc, c) {
                        (0, '"') if count >= min => None,
                        (0, '"') => continue,
                        (0, '\\') if count < max => Some(Task::Str {
                            node,
                            count,
                            esc: 1,
                        }),
                        (0, c) if (c as u32) < 0x20 || c as u32 == 0x7f || count >= max => continue,
                        (0, _) => Some(Task::Str {
                            node,
                            count: count + 1,
                            esc: 0,
                        }),
                        (1, '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't') => Some(Task::Str {
                            node,
                            count: count + 1,
                            esc: 0,
                        }),
                        (1, 'u') => Some(Task::Str {
                            node,
                            count,
                            esc: 2,
                        }),
                        (2..=5, c) if c.is_ascii_hexdigit() => Some(if esc == 5 {
                            Task::Str {
                                node,
                                count: count + 1,
                                esc: 0,
                            }
                        } else {
                            Task::Str {
                                node,
                                count,
                                esc: esc + 1,
                            }
                        }),
                        _ => continue,
                    }
                }
                Task::Int {
                    node,
                    neg,
                    digits,
                    zero,
                    mag,
                } => match c {
                    '-' if digits == 0 && !neg => Some(Task::Int {
                        node,
                        neg: true,
                        digits,
                        zero,
                        mag,
                    }),
                    '0'..='9' => {
                        let d = u64::from(c as u8 - b'0');
                        Some(Task::Int {
                            node,
                            neg,
                            digits: digits + 1,
                            zero: digits == 0 && d == 0,
                            mag: mag
                                .checked_mul(10)
                                .and_then(|m| m.checked_add(d))
                                .unwrap_or(u64::MAX),
                        })
                    }
                    _ => continue,
                },
                Task::Pat { node, at } => match &self.nfa(node).insts[at as usize] {
                    Inst::Char(class, next) if class.matches(c) => {
                        Some(Task::Pat { node, at: *next })
                    }
                    _ => continue,
                },
                Task::Num(phase) => match phase.step(c) {
                    Some(p) => Some(Task::Num(p)),
                    None => continue,
                },
                // Text inside an unknown part cannot be followed.
                Task::Opaque => return Vec::new(),
                // `close` leaves only consuming tasks on top.
                _ => unreachable!("advance over an unexpanded state"),
            };
            st.pop();
            if let Some(t) = replaced {
                st.push(t);
            }
            self.close(st, &mut out, 0);
        }
        let mut seen = HashSet::with_capacity(out.len());
        out.retain(|s| seen.insert(s.clone()));
        out
    }

    /// The one character every state allows next, if so.
    pub(super) fn next_char(&self, states: &[State]) -> Next {
        let mut one: Option<char> = None;
        let mut ended = false;
        for st in states {
            let c = match st.last() {
                None => {
                    ended = true;
                    continue;
                }
                Some(Task::Lit { lit: l, pos }) => {
                    self.lits[*l as usize][*pos as usize..].chars().next()
                }
                Some(Task::Str {
                    node,
                    count,
                    esc: 0,
                }) => {
                    let Node::Str { min, max } = self.nodes[*node as usize] else {
                        unreachable!()
                    };
                    (*count >= max && *count >= min).then_some('"')
                }
                Some(Task::Pat { node, at }) => match &self.nfa(*node).insts[*at as usize] {
                    Inst::Char(class, _) => class.single(),
                    _ => None,
                },
                _ => None,
            };
            match (c, one) {
                (Some(c), None) => one = Some(c),
                (Some(c), Some(o)) if c == o => {}
                _ => return Next::Many,
            }
        }
        match (one, ended) {
            (Some(c), false) => Next::One(c),
            (None, true) => Next::End,
            _ => Next::Many,
        }
    }
}

fn lit(l: LitId) -> Task {
    Task::Lit { lit: l, pos: 0 }
}
