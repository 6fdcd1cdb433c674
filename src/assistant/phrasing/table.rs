//! The shape of a language's table of templates (see [`super`]).

/// How a language writes a time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeStyle {
    /// `3 PM`, `6:30 PM` (12-hour clock).
    Twelve,
    /// `15 Uhr`, `15:30 Uhr`.
    Uhr,
    /// `15 h`, `15 h 30`.
    H,
    /// `15:00`.
    Colon,
}

/// One language's templates (see the module docs for the placeholders).
pub(crate) struct Phrases {
    // Calendar words.
    pub weekdays: [&'static str; 7],
    pub weekdays_short: [&'static str; 7],
    /// Weekday names after "every" (French "lundis", Spanish "sábados").
    pub weekdays_plural: [&'static str; 7],
    pub months: [&'static str; 12],
    /// The first day of a month (French "1er").
    pub day_one: &'static str,
    pub today: &'static str,
    pub tomorrow: &'static str,
    pub yesterday: &'static str,
    pub this_week: &'static str,
    pub next_week: &'static str,
    pub this_weekend: &'static str,
    /// A date: `{weekday}`, `{day}`, `{month}`.
    pub date: &'static str,
    /// A date after its preposition: `{date}` ("on {date}", "am {date}").
    pub on_date: &'static str,
    /// One day's entries in a range: `{day}` (its short form), `{list}`.
    pub day_group: &'static str,
    /// A day in a list of days: `{wd}` (short weekday), `{day}`.
    pub short_day: &'static str,
    /// A range within one month: `{d1}`, `{d2}`, `{month}`.
    pub range_same_month: &'static str,
    /// A range over months: `{d1}`, `{m1}`, `{d2}`, `{m2}`.
    pub range_months: &'static str,
    pub time_style: TimeStyle,
    /// After an item: `{time}`.
    pub at_time: &'static str,
    /// Spanish "a la 1:00" (the hour 1 is singular); else as `at_time`.
    pub at_one: &'static str,
    /// After an item: `{start}`, `{end}`.
    pub from_to: &'static str,
    /// The last joint of a list ("and").
    pub and: &'static str,
    /// The last joint before a word starting with an i sound (Spanish "e"); else as `and`.
    pub and_before_i: &'static str,
    pub quote_open: &'static str,
    pub quote_close: &'static str,
    /// Words merged after filling (Spanish "a el" is "al").
    pub contractions: &'static [(&'static str, &'static str)],

    // Answers.
    pub count_one: &'static str,
    pub count_many: &'static str,
    pub done_mark: &'static str,
    pub agenda_day: &'static str,
    pub agenda_day_none: &'static str,
    pub agenda_range: &'static str,
    pub range_none: &'static str,
    pub repeating: &'static str,
    pub every_day_in_range: &'static str,
    pub busy_day: &'static str,
    pub busy_day_none: &'static str,
    pub busy_range: &'static str,
    pub left_day: &'static str,
    pub left_day_none: &'static str,
    pub left_range: &'static str,
    pub left_range_none: &'static str,
    pub overdue: &'static str,
    pub overdue_item: &'static str,
    pub overdue_none: &'static str,
    pub not_found: &'static str,
    pub when_on: &'static str,
    pub when_past_open: &'static str,
    pub when_done: &'static str,
    pub when_undated: &'static str,
    pub when_repeats: &'static str,
    pub when_repeats_ended: &'static str,
    pub done_yes: &'static str,
    pub done_no: &'static str,
    pub done_yes_on: &'static str,
    pub done_no_on: &'static str,
    pub done_yes_past: &'static str,
    pub done_no_past: &'static str,
    pub done_not_planned: &'static str,
    pub every_day: &'static str,
    pub every_n_days: &'static str,
    pub every_weekdays: &'static str,
    pub every_n_weeks_on: &'static str,
    pub every_month: &'static str,
    pub every_n_months: &'static str,
    pub every_year: &'static str,
    pub every_n_years: &'static str,

    // Small talk, when the model's reply cannot be used.
    pub reply_thanks: &'static str,
    pub reply_hello: &'static str,
    pub reply_other: &'static str,

    // Rule-based summaries.
    /// A kind before an item's title (todo, event, habit, goal).
    pub kind_named: [&'static str; 4],
    /// An item of a kind whose title is unknown ("a todo").
    pub kind_some: [&'static str; 4],
    /// Recurrence words (once, daily, weekly, monthly, yearly).
    pub recurrence: [&'static str; 5],
    /// Priorities (high, medium, low).
    pub priorities: [&'static str; 3],
    pub s_create: &'static str,
    pub s_on: &'static str,
    pub s_at: &'static str,
    pub s_repeating: &'static str,
    pub s_with_items: &'static str,
    pub s_update: &'static str,
    pub s_update_changes: &'static str,
    pub c_title: &'static str,
    pub c_date: &'static str,
    pub c_time: &'static str,
    pub c_priority: &'static str,
    pub c_repeats: &'static str,
    pub c_notes: &'static str,
    pub s_delete: &'static str,
    pub s_complete: &'static str,
    pub s_complete_on: &'static str,
    pub s_add_item: &'static str,
    pub s_add_items: &'static str,
    pub s_remove_item: &'static str,
    pub s_remove_some_item: &'static str,
    pub s_add_child: &'static str,
    pub s_remove_child: &'static str,
    pub s_more_one: &'static str,
    pub s_more_many: &'static str,
    pub s_invalid_one: &'static str,
    pub s_invalid_many: &'static str,
    pub s_none: &'static str,
    pub s_no_model: &'static str,
    pub s_corrected: &'static str,

    // What code corrected in the model's answer.
    pub r_date: &'static str,
    pub r_time: &'static str,
    pub r_end: &'static str,
    pub r_end_dropped: &'static str,
    pub r_default_option: &'static str,
    pub r_title_kept: &'static str,
    pub r_no_title: &'static str,
    /// Fields a change of an item may set: title, date, time, end time, priority, notes, repeat.
    pub fields: [&'static str; 7],
    /// Fields of a change the message does not mention, left out: `{title}`, `{fields}`.
    pub r_left_out: &'static str,
    /// A change setting only fields the message does not mention, dropped: `{title}`,
    /// `{fields}`.
    pub r_dropped: &'static str,

    // Questions code asks back (spec 002's clarify).
    pub q_which_item: &'static str,
    pub q_not_found: &'static str,
    /// `{title}`.
    pub q_what_to_do: &'static str,
    /// `{title}`.
    pub q_what_change: &'static str,
    pub q_what_to_add: &'static str,
    /// `{date}` (the date said, as `date` writes it), `{said}` (the weekday said with it).
    pub q_which_day: &'static str,
    pub q_too_slow: &'static str,
}
