//! The word lists of the reading: intent cue phrases, question and chit-chat words, the words
//! that imply a kind, and the filler trimmed from a title guess. Phrases are words separated by
//! spaces; `|` separates the alternatives of one word.

use super::Intent;

/// Cue phrases, longest first within each intent; matched at each word in message order.
pub(super) const CUES: &[(Intent, &[&str])] = &[
    (
        Intent::Uncomplete,
        &[
            "as not done",
            "not done",
            "not finished",
            "not complete",
            "not completed",
            "didn't|didnt|haven't|havent finish|finished|do|done",
            "undo",
            "undone",
            "unmark",
            "uncheck",
            "reopen",
            "incomplete",
        ],
    ),
    (
        Intent::Complete,
        &[
            "as done|complete|completed|finished",
            "done with",
            "done",
            "finished",
            "completed",
            "check off",
            "tick off",
            "cross off",
            "i did",
            "just did",
            "i've done",
            "i went",
            "went for",
        ],
    ),
    (
        Intent::Delete,
        &[
            "get rid of",
            "forget about",
            "no longer need",
            "don't|dont need",
            "call off",
            "called off",
            "take off",
            "delete",
            "remove",
            "cancel",
            "cancelled",
            "canceled",
            "drop",
            "scrap",
            "erase",
        ],
    ),
    (
        Intent::Update,
        &[
            "push back",
            "move back",
            "make it",
            "set it",
            "move",
            "reschedule",
            "rename",
            "change",
            "push",
            "postpone",
            "delay",
            "shift",
            "bump",
            "update",
            "edit",
        ],
    ),
    (
        Intent::Goal,
        &[
            "set a goal",
            "new goal",
            "my goal is to",
            "goal",
            "goals",
            "objective",
        ],
    ),
    (
        Intent::Create,
        &[
            "remind me to|about|of",
            "remind me",
            "don't|dont forget to",
            "i need|have to",
            "i must|should|gotta",
            "i want to",
            "i'd like to",
            "need|have to",
            "set up",
            "add",
            "create",
            "schedule",
            "book",
            "plan",
            "new",
            "put",
            "track",
            "start",
            "remember to",
        ],
    ),
];

/// Irregular past tenses of everyday activities, for first-person reports ("I paid ...").
pub(super) const PAST_IRREGULAR: &[&str] = &[
    "paid", "did", "went", "ran", "read", "bought", "sent", "made", "took", "wrote", "swam",
    "rode", "ate", "drank", "gave", "got", "brought", "spoke", "met", "fed", "hung", "threw",
];
/// Words that say a dated thing will not happen ("no gym today", "skip piano today"): no new
/// item is implied.
pub(super) const NOT_THIS: &[&str] = &["no", "not", "never", "skip"];
/// Words that turn a report into its opposite ("I haven't paid ...").
pub(super) const NEGATIONS: &[&str] = &[
    "not", "never", "haven't", "havent", "didn't", "didnt", "hasn't", "wasn't", "no", "yet",
];
pub(super) const QUESTION_OPENERS: &[&str] = &[
    "what", "what's", "whats", "when", "when's", "where", "which", "who", "why", "how", "how's",
    "is", "are", "am", "was", "were", "have", "has", "any", "anything", "should", "shall",
];
pub(super) const POLITE: &[&str] = &["can", "could", "would", "will", "please", "pls", "plz"];
/// Words that may come before a todo label that opens a message ("hey, new todo: ...").
pub(super) const LABEL_OPENERS: &[&str] = &[
    "please", "pls", "plz", "hey", "ok", "okay", "so", "can", "could", "would", "will", "you", "a",
    "an", "new", "another", "quick",
];
pub(super) const CHAT: &[&str] = &[
    "thanks", "thank", "thx", "ty", "hi", "hello", "hey", "ok", "okay", "cool", "great", "nice",
    "awesome", "bye", "lol", "perfect", "morning", "night", "yes", "no", "nope", "sure", "there",
    "sounds", "good", "fine", "alright", "got", "that's", "thats", "much", "very", "all", "set",
];
pub(super) const WH: &[&str] = &[
    "what", "what's", "when", "where", "which", "who", "why", "how",
];

pub(super) const EVENT_WORDS: &[&str] = &[
    "event",
    "meeting",
    "meetings",
    "appointment",
    "appt",
    "dinner",
    "lunch",
    "breakfast",
    "brunch",
    "party",
    "interview",
    "flight",
    "concert",
    "wedding",
    "standup",
    "stand-up",
    "conference",
    "webinar",
    "game",
    "movie",
    "drinks",
    "checkup",
    "haircut",
    "class",
];
pub(super) const HABIT_WORDS: &[&str] = &[
    "habit",
    "routine",
    "run",
    "running",
    "jog",
    "jogging",
    "walk",
    "walking",
    "meditate",
    "meditation",
    "exercise",
    "workout",
    "work out",
    "gym",
    "yoga",
    "stretch",
    "stretching",
    "read",
    "reading",
    "journal",
    "journaling",
    "floss",
    "practice",
    "practise",
    "study",
    "swim",
    "swimming",
    "pushups",
    "push-ups",
    "vitamins",
    "water",
    "piano",
    "guitar",
    "spanish",
    "sleep",
];
pub(super) const TODO_WORDS: &[&str] = &["todo", "task", "reminder", "to-do"];

pub(super) const LEAD_FILLER: &[&str] = &[
    "to", "a", "an", "the", "please", "pls", "plz", "and", "or", "that", "about", "me", "for",
    "of", "my", "new", "todo", "to-do", "task", "reminder", "event", "habit", "called", "named",
    "titled", "i", "can", "could", "would", "will", "you", "hey", "ok", "okay", "so", "also",
    "just", "then", "of",
];
pub(super) const TAIL_FILLER: &[&str] = &[
    "to", "on", "at", "for", "by", "and", "the", "a", "please", "pls", "in", "from", "every", "my",
    "as", "of", "it", "thanks", "with",
];
/// Parts of the day: a hint for am or pm, never a time. Rewritten from another language
/// ("abends"), they are left out of a title's edges and of references.
pub(super) const PARTS_OF_DAY: &[&str] = &["morning", "afternoon", "evening", "night", "tonight"];
pub(super) const TAIL_PHRASES: &[&str] = &[
    "to my list",
    "to my todo|task|shopping list",
    "to my to do list",
    "to my tasks|todos|calendar|habits",
    "to the list|calendar",
    "on|in my calendar",
    "as a habit|todo|task",
    "as an event",
];
