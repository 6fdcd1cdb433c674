//! Spanish words for the reading (see [`super`]): phrases and the English words they become,
//! and a hook for what a table cannot say (`lang/romance.rs` holds what French and Spanish
//! share).
//!
//! ## What the hook reads
//! - Times: "a las 5", "a la una", "a las 15:30", "a las 18h", "a las tres y media", "a las 3
//!   menos cuarto", "a las 5 y 10", "de la tarde" / "de la noche" (pm), "de la mañana" (am),
//!   "mediodía", "medianoche" (a bare hour 1 to 6 is pm, as in English); ranges "de 10 a 11",
//!   "de 2 a 3 de la tarde", "entre las 9 y las 10"; "durante 1h30" a duration.
//! - "mañana" is tomorrow, except "por la mañana", "esta mañana", "de la mañana", "cada
//!   mañana" (the morning) and "pasado mañana" (in 2 days).
//! - Dates: "el 3 de diciembre", "el día 1", "al 5 de diciembre", "3/12" and "18/12/2026"
//!   (day first); "antes de junio" / "para junio": the month's last day.
//! - Weekdays: "el lunes" (the next one), "vie." (an abbreviation only with its period), "el
//!   lunes que viene" / "el próximo lunes" (next week's), "este lunes"; recurring: "todos los
//!   lunes y jueves", "cada lunes", "los martes y jueves" (plural article: every week), "de
//!   lunes a viernes", "cada dos domingos".
//! - Completions: "ya" before a past tense ("ya entregué", "ya hice"), "he" before a
//!   participle ("he meditado"), or a past tense opening the message ("pagué el seguro") is
//!   "I did"; in a question "did I"; "no he ..." is "I have not"; "olvidé" is "I forgot"; with a
//!   day to come ("reservé una mesa para el viernes") nothing is done.
//! - Questions: "qué tengo" (what do I have), "qué hay" (what is on), "qué me queda" (what is
//!   left), "cuándo", "cómo"; "que", "cuando" and "como" without their accent only open a
//!   question.
//! - "pasa" is a move, but "pasa por" a visit; "pon" is a change ("pon la cena a las 9"), or
//!   an addition when the message names a list or a calendar; "cambia X por Y" is a rename; "lista" after an article is a list, else
//!   done.

use super::super::lex::Lexed;
use super::romance::{self, fw, rewrite, rewrite_owned, seq, Words};
use super::table::{RefWords, Rewrite, Table};

pub(super) static TABLE: Table = Table {
    phrases: PHRASES,
    hook,
    conjunctions: CONJUNCTIONS,
    elisions: &[],
};

const CONJUNCTIONS: &[&str] = &["y", "e"];

/// What matching Spanish titles needs (`reading/refs.rs`).
pub(super) static REFS: RefWords = romance::ref_words(STOP_WORDS, GENERIC);

/// Words left out when matching titles (as typed, with and without accents).
const STOP_WORDS: &[&str] = &[
    "el", "la", "los", "las", "un", "una", "unos", "unas", "de", "del", "al", "en", "y", "o",
    "con", "por", "para", "mi", "mis", "tu", "tus", "su", "sus", "que", "qué", "lo", "le", "les",
    "me", "te", "se", "nos", "ya", "no", "es", "está", "esta", "este", "ese", "esa", "eso", "esto",
    "he", "ha", "hay", "muy", "más", "mas",
    // Command words that would name a title's verb ("pon algo el martes" is not "Poner la
    // lavadora").
    "pon", "ponlo", "ponla", "mete", "metelo", "métela", "metela",
];

/// Words that name no item.
const GENERIC: &[&str] = &[
    "cosa",
    "cosas",
    "tarea",
    "tareas",
    "recordatorio",
    "evento",
    "hábito",
    "habito",
    "objetivo",
    "meta",
    "lista",
    "asunto",
];

/// Phrases, each with the English words it becomes (an empty string drops the words).
const PHRASES: &[(&str, &str)] = &[
    // days and periods
    ("hoy", "today"),
    ("mañana", "tomorrow"),
    ("pasado mañana", "in 2 days"),
    ("ayer|anoche", "yesterday"),
    ("esta noche", "tonight"),
    ("esta mañana", "this morning"),
    ("esta tarde", "this afternoon"),
    ("por|en la mañana", "in the morning"),
    ("de la mañana", "in the morning"),
    ("por|en la tarde", "in the afternoon"),
    ("de la tarde", "in the afternoon"),
    ("por|en la noche", "at night"),
    ("de la noche", "at night"),
    ("cada mañana", "every morning"),
    ("todas las mañanas", "every morning"),
    ("tarde|tardes", "afternoon"),
    ("noche|noches", "night"),
    ("mediodía", "noon"),
    ("medianoche", "midnight"),
    ("la semana que viene", "next week"),
    ("la próxima semana", "next week"),
    ("la semana próxima", "next week"),
    ("semana que viene", "next week"),
    ("próxima semana", "next week"),
    ("esta semana", "this week"),
    ("el mes que viene", "next month"),
    ("el próximo mes", "next month"),
    ("mes que viene", "next month"),
    ("el año que viene", "next year"),
    ("el próximo año", "next year"),
    ("este fin de semana", "this weekend"),
    ("este finde", "this weekend"),
    ("el fin de semana", "the weekend"),
    ("el finde", "the weekend"),
    ("el próximo fin de semana", "next weekend"),
    ("el próximo finde", "next weekend"),
    ("el fin de semana que viene", "next weekend"),
    ("el finde que viene", "next weekend"),
    ("fin de semana", "weekend"),
    ("finde", "weekend"),
    ("fin de mes", "end of the month"),
    ("final de mes", "end of the month"),
    ("finales de mes", "the end of the month"),
    ("fin de año", "end of the year"),
    ("día", "day"),
    ("días", "days"),
    ("semana", "week"),
    ("semanas", "weeks"),
    ("mes", "month"),
    ("meses", "months"),
    ("año|años", "years"),
    ("hora", "hour"),
    ("horas", "hours"),
    ("una hora", "an hour"),
    ("media hora", "half an hour"),
    ("hora y media", "an hour and a half"),
    ("una hora y media", "an hour and a half"),
    ("y media", "and a half"),
    ("minutos", "minutes"),
    ("quince días", "2 weeks"),
    // numbers
    ("dos", "2"),
    ("tres", "3"),
    ("cuatro", "4"),
    ("cinco", "5"),
    ("seis", "6"),
    ("siete", "7"),
    ("ocho", "8"),
    ("nueve", "9"),
    ("diez", "10"),
    ("once", "11"),
    ("doce", "12"),
    ("quince", "15"),
    ("veinte", "20"),
    ("treinta", "30"),
    // recurrence
    ("todos los días|dias", "every day"),
    ("cada día", "every day"),
    ("diariamente", "daily"),
    ("a diario", "daily"),
    ("cada noche", "every night"),
    ("todas las noches", "every night"),
    ("cada tarde", "every evening"),
    ("todas las tardes", "every evening"),
    ("cada dos días", "every other day"),
    ("un día sí y otro no", "every other day"),
    ("cada semana", "every week"),
    ("todas las semanas", "every week"),
    ("semanalmente", "weekly"),
    ("cada mes", "every month"),
    ("todos los meses", "every month"),
    ("mensualmente", "monthly"),
    ("cada año", "every year"),
    ("todos los años", "every year"),
    ("todos los fines de semana", "every weekend"),
    ("los fines de semana", "on weekends"),
    ("entre semana", "on weekdays"),
    ("días laborables", "weekdays"),
    ("todos|todas los|las", "every"),
    ("cada", "every"),
    ("una vez por semana", "once a week"),
    ("una vez a la semana", "once a week"),
    ("una vez por|al mes", "once a month"),
    // prepositions and articles
    ("antes de|del", "before"),
    ("antes", "before"),
    ("después de|del", "after"),
    ("hasta", "until"),
    ("a partir de|del", "starting"),
    ("desde", "from"),
    ("de aquí a", "by"),
    ("dentro de", "in"),
    ("para", "for"),
    ("en", "in"),
    ("con", "with"),
    ("durante", "for"),
    ("a", "to"),
    ("al", "to"),
    ("de", "of"),
    ("del", "of the"),
    ("el|la|los|las|lo", "the"),
    ("un|una|uno", "a"),
    ("y|e", "and"),
    ("o|u", "or"),
    ("mi|mis", "my"),
    ("este|esta|estos|estas", "this"),
    ("ese|esa|eso|esos|esas", "that"),
    ("yo", "i"),
    ("todavía|aún", "yet"),
    ("ya no", "no longer"),
    // priority
    ("urgente|urgentes|urgentemente", "urgent"),
    ("importante|importantes", "important"),
    ("prioridad alta|máxima", "high priority"),
    ("alta prioridad", "high priority"),
    ("con prioridad alta", "high priority"),
    ("prioritario|prioritaria", "high priority"),
    ("prioridad baja|mínima", "low priority"),
    ("baja prioridad", "low priority"),
    ("prioridad media|normal", "medium priority"),
    ("no es urgente|importante", "not urgent"),
    ("no urgente", "not urgent"),
    ("sin prisa|prisas", "no rush"),
    ("no corre prisa", "no rush"),
    ("cuanto antes", "asap"),
    ("lo antes posible", "asap"),
    ("lo más pronto posible", "asap"),
    ("cuando pueda", "whenever"),
    ("algún día", "someday"),
    // creating
    ("recuérdame|recuerdame|acuérdame|recordarme", "remind me to"),
    ("recuérdame|recuerdame que|de", "remind me to"),
    ("no te olvides de|que", "don't forget to"),
    ("no olvides|olvidar", "don't forget to"),
    ("que no se me olvide", "don't forget to"),
    ("tengo|tendría que", "i need to"),
    ("necesito", "i need to"),
    ("debo|debería", "i should"),
    ("hay que", "need to"),
    ("quiero", "i want to"),
    ("me gustaría", "i'd like to"),
    ("añade|añadir|añádeme|agrega|agregar|agrégame", "add"),
    ("apunta|apúntame|apuntar|anota|anótame|anotar", "add"),
    ("crea|crear|créame", "create"),
    (
        "programa|programar|prográmame|agenda|agendar|agéndame",
        "schedule",
    ),
    ("reserva|reservar", "book"),
    ("planifica|planificar|planea", "plan"),
    ("nuevo|nueva", "new"),
    // completing and reopening
    ("hecho|hecha|hechos|hechas", "done"),
    ("listo|listos|listas", "done"),
    ("ya está hecho|hecha|listo|lista", "done"),
    ("ya está|están", "done"),
    ("terminado|terminada|terminé|acabado|acabada|acabé", "done"),
    ("completado|completada", "completed"),
    ("tacha|tachar|táchalo|táchala", "cross off"),
    ("marca|marcar|márcalo|márcala", "mark"),
    ("como", "as"),
    ("no hecho|hecha|terminado|terminada", "not done"),
    ("sin hacer", "not done"),
    ("pendiente", "incomplete"),
    ("desmarca|desmarcar|desmárcalo|desmárcala", "unmark"),
    ("reabre|reabrir", "reopen"),
    // deleting
    (
        "borra|borrar|bórralo|bórrala|bórralos|bórralas|bórrame",
        "delete",
    ),
    ("elimina|eliminar|elimínalo|elimínala|elimínalos", "delete"),
    ("cancela|cancelar|cancélalo|cancélala|cancélame", "cancel"),
    ("cancelado|cancelada|cancelé", "cancelled"),
    ("borré|eliminé", "delete"),
    ("quité", "remove"),
    ("cambié", "change"),
    ("se cancela", "cancelled"),
    ("quita|quitar|quítalo|quítala|quítame|saca|sacar", "remove"),
    ("olvídate de|del", "forget about"),
    ("ya no necesito", "no longer need"),
    ("ya no hace falta", "no longer need"),
    ("no necesito", "don't need"),
    // changing
    (
        "mueve|mover|muévelo|muévela|pasa|pasar|pásalo|pásala",
        "move",
    ),
    ("adelanta|adelantar|adelántalo|adelántala", "move"),
    (
        "aplaza|aplazar|aplázalo|aplázala|pospón|posponer|retrasa|retrasar",
        "postpone",
    ),
    (
        "cambia|cambiar|cámbialo|cámbiala|modifica|modificar",
        "change",
    ),
    ("cambia|cambiar el nombre de|del|a", "rename"),
    ("renombra|renombrar|renómbralo|renómbrala", "rename"),
    (
        "vincula|vincular|asocia|asociar|enlaza|enlazar|conecta|conectar|relaciona",
        "link",
    ),
    ("más tarde", "later"),
    ("más temprano|pronto", "earlier"),
    ("un día antes", "a day earlier"),
    ("una hora antes", "an hour earlier"),
    ("un día después", "a day later"),
    ("una hora después", "an hour later"),
    // kinds
    ("cita|citas", "appointment"),
    ("reunión|reuniones|reu", "meeting"),
    ("cena|cenas", "dinner"),
    ("comida|almuerzo", "lunch"),
    ("desayuno", "breakfast"),
    ("fiesta", "party"),
    ("entrevista", "interview"),
    ("vuelo", "flight"),
    ("concierto", "concert"),
    ("boda", "wedding"),
    ("conferencia", "conference"),
    ("partido", "game"),
    ("película|cine", "movie"),
    ("peluquería|peluquero", "haircut"),
    ("clase|clases", "class"),
    ("evento|eventos", "event"),
    ("hábito|hábitos|rutina", "habit"),
    ("objetivo|objetivos|meta|metas", "goal"),
    ("mi objetivo|meta es", "my goal is to"),
    ("tarea|tareas", "task"),
    ("recordatorio", "reminder"),
    ("cosa", "thing"),
    ("lo|eso de|del", "the thing with"),
    ("la cosa de|del|con", "the thing with"),
    ("correr|running|footing", "running"),
    ("caminar|pasear|paseo", "walk"),
    ("meditar|meditación", "meditate"),
    ("gimnasio|gym|pesas", "gym"),
    ("estiramientos|estirar", "stretching"),
    ("leer|lectura", "reading"),
    ("nadar|natación", "swimming"),
    ("guitarra", "guitar"),
    ("vitaminas", "vitamins"),
    ("agua", "water"),
    ("dormir", "sleep"),
    ("flexiones", "pushups"),
    ("hilo dental", "floss"),
    ("estudiar|practicar", "practice"),
    // chat
    ("gracias", "thanks"),
    ("muchas gracias", "thanks very much"),
    ("mil gracias", "thanks very much"),
    ("perfecto|perfecta", "perfect"),
    ("hola|buenas", "hi"),
    ("buenos días", "hello"),
    ("buenas tardes|noches", "hello"),
    ("genial|estupendo|guay|chévere|bacán", "great"),
    ("vale|okey|ok|dale", "ok"),
    ("de acuerdo", "ok"),
    ("sí", "yes"),
    ("no", "no"),
    ("muy bien", "very good"),
    ("adiós|chao", "bye"),
    ("hasta luego", "bye"),
    ("por favor", "please"),
    ("porfa", "please"),
    ("puedes|podrías", "can you"),
    ("me puedes|podrías", "can you"),
    // questions
    ("a qué hora", "what time"),
    ("qué día|días", "which day"),
    (
        "atrasado|atrasada|atrasados|atrasadas|retrasado|retrasada|retrasados",
        "overdue",
    ),
    (
        "liado|liada|ocupado|ocupada|cargado|cargada|lleno|llena|apretado|apretada",
        "busy",
    ),
    ("pinta|pinto", "looking"),
    ("tengo", "i have"),
    ("hay", "is on"),
    ("me queda|quedan", "is left"),
    ("queda|quedan", "left"),
];

const WORDS: Words = Words {
    number,
    weekdays: [
        "lunes",
        "martes",
        "miercoles",
        "jueves",
        "viernes",
        "sabado",
        "domingo",
    ],
    weekday_abbreviations: ["lun", "mar", "mie", "jue", "vie", "sab", "dom"],
    month,
    hour_units: &["h", "hora", "horas", "hs", "hrs"],
    noon: &["mediodia"],
    midnight: &["medianoche"],
    minutes: &[("y media", 30), ("y cuarto", 15), ("menos cuarto", -15)],
    plus_minus: ("y", "menos"),
    meridiem: &[
        ("de la manana", "am"),
        ("de la madrugada", "am"),
        ("de la tarde", "pm"),
        ("de la noche", "pm"),
        ("del mediodia", "pm"),
        ("en punto", ""),
    ],
    clock_preps: &[
        "las", "la", "a", "de", "desde", "hasta", "entre", "y", "sobre", "hacia", "para",
    ],
    duration_preps: &["durante", "en"],
    ordinal_suffixes: &["º", "ª", "o"],
    first: &["primero", "primer"],
    next_week: &["que viene", "proximo"],
    month_ends: &["finales|final|fin de|del"],
    month_starts: &["principios|comienzos de|del"],
};

fn number(f: &str) -> Option<u32> {
    Some(match f {
        "un" | "una" | "uno" => 1,
        "dos" => 2,
        "tres" => 3,
        "cuatro" => 4,
        "cinco" => 5,
        "seis" => 6,
        "siete" => 7,
        "ocho" => 8,
        "nueve" => 9,
        "diez" => 10,
        "once" => 11,
        "doce" => 12,
        "trece" => 13,
        "catorce" => 14,
        "quince" => 15,
        "veinte" => 20,
        _ => return None,
    })
}

fn month(f: &str) -> Option<u32> {
    Some(match f {
        "enero" | "ene" => 1,
        "febrero" | "feb" => 2,
        "marzo" | "mar" => 3,
        "abril" | "abr" => 4,
        "mayo" => 5,
        "junio" | "jun" => 6,
        "julio" | "jul" => 7,
        "agosto" | "ago" => 8,
        "septiembre" | "setiembre" | "sep" | "sept" | "set" => 9,
        "octubre" | "oct" => 10,
        "noviembre" | "nov" => 11,
        "diciembre" | "dic" => 12,
        _ => return None,
    })
}

/// What the table cannot say (see the module docs).
fn hook(p: &Lexed, i: usize) -> Option<Rewrite> {
    let f = fw(p, i);
    let raw = p.w(i);
    let opens = i == 0 || p.gap(i).contains('¿');
    match f.as_str() {
        "que" if raw == "qué" || (opens && romance::is_question(p)) => return what(p, i),
        "cuando" if raw == "cuándo" || opens => return rewrite(i + 1, &["when"]),
        "como" if raw == "cómo" || (opens && romance::is_question(p)) => {
            return rewrite(i + 1, &["how"])
        }
        "cuanto" | "cuantos" | "cuantas" if raw.contains('á') || opens => {
            return rewrite(i + 1, &["how", "many"])
        }
        "ya" | "he" | "hemos" | "no" => {
            if let Some(r) = past(p, i) {
                return Some(r);
            }
        }
        "a" | "de" | "desde" | "entre" | "y" | "hasta" | "sobre" | "hacia" | "las" | "la" => {
            if let Some(r) = time_prep(p, i, &f) {
                return Some(r);
            }
        }
        "el" | "al" | "del" | "los" | "todos" | "todas" | "cada" | "este" | "dia" => {
            if let Some(r) = article(p, i, &f) {
                return Some(r);
            }
        }
        // "pasa por el banco": a visit, not a move
        "pasa" | "pasar" if matches!(fw(p, i + 1).as_str(), "por" | "a") => {
            return rewrite(i + 1, &["stop", "by"]);
        }
        "pon" | "ponlo" | "ponla" | "poner" | "mete" | "meter" | "metelo" | "metela" => {
            let list = (0..p.len()).any(|k| {
                matches!(
                    fw(p, k).as_str(),
                    "lista" | "agenda" | "calendario" | "planificador"
                )
            });
            return rewrite(i + 1, &[if list { "add" } else { "change" }]);
        }
        "lista" => {
            let article = i > 0
                && matches!(
                    fw(p, i - 1).as_str(),
                    "la" | "mi" | "una" | "tu" | "su" | "esta" | "esa"
                );
            return rewrite(i + 1, &[if article { "list" } else { "done" }]);
        }
        "cambia" | "cambiar" | "cambialo" | "cambiala" if swap(p, i).is_some() => {
            return rewrite(i + 1, &["rename"]);
        }
        "por" if (0..i).any(|k| swap(p, k) == Some(i)) => return rewrite(i + 1, &["to"]),
        _ => {}
    }
    // a past tense opening the message, or after "hoy" / "ayer": "pagué el seguro"
    let report_start = i == 0 || matches!(fw(p, i - 1).as_str(), "hoy" | "ayer" | "anoche");
    if report_start && preterite(p, i) {
        if let Some(r) = report(p, i, false) {
            return Some(r);
        }
    }
    if let Some(r) = deadline(p, i, &f) {
        return Some(r);
    }
    let dated = i > 0 && matches!(fw(p, i - 1).as_str(), "del" | "el" | "al" | "dia");
    if let Some(r) = romance::day_date(p, i, &WORDS, "de", dated || romance::is_ordinal(&f)) {
        return Some(r);
    }
    if let Some(r) = romance::weekday_word(p, i, &WORDS) {
        return Some(r);
    }
    romance::time_at(p, i, &WORDS)
}

/// "qué" opening a question: "qué tengo" (what do I have), "qué hay" (what is on), "qué me
/// queda" (what is left), "qué tal" (how), else "what".
fn what(p: &Lexed, i: usize) -> Option<Rewrite> {
    if let Some(e) = seq(p, i + 1, "tengo") {
        return rewrite(e, &["what", "do", "i", "have"]);
    }
    if let Some(e) = seq(p, i + 1, "hay") {
        return rewrite(e, &["what", "is", "on"]);
    }
    if let Some(e) = seq(p, i + 1, "me queda|quedan").or(seq(p, i + 1, "queda|quedan")) {
        return rewrite(e, &["what", "is", "left"]);
    }
    if let Some(e) = seq(p, i + 1, "tal") {
        return rewrite(e, &["how"]);
    }
    if let Some(e) = seq(p, i + 1, "dia|dias") {
        return rewrite(e, &["which", "day"]);
    }
    rewrite(i + 1, &["what"])
}

/// "cambia X por Y": the index of its "por" (not "por la tarde", "por favor").
fn swap(p: &Lexed, i: usize) -> Option<usize> {
    if !matches!(
        fw(p, i).as_str(),
        "cambia" | "cambiar" | "cambialo" | "cambiala"
    ) {
        return None;
    }
    (i + 2..p.len()).find(|&k| {
        fw(p, k) == "por"
            && k + 1 < p.len()
            && !matches!(fw(p, k + 1).as_str(), "la" | "el" | "las" | "los" | "favor")
    })
}

/// "a las", "de 10 a 11", "entre las 9 y las 10": "at", "from", "to", "between", "and" before
/// a time (see the module docs).
fn time_prep(p: &Lexed, i: usize, f: &str) -> Option<Rewrite> {
    let k = if matches!(f, "las" | "la") {
        i + 1
    } else {
        seq(p, i + 1, "las|la").unwrap_or(i + 1)
    };
    // "a la una", "a las 5": a bare number is a time here
    let c = romance::clock_at(p, k, &WORDS, true)?;
    let after_clock = romance::clock_ends_at(p, i, &WORDS);
    let word = match f {
        "a" | "hasta" if after_clock => "to",
        "y" if after_clock => "and",
        "a" | "las" | "la" => "at",
        "entre" => "between",
        "sobre" | "hacia" => "around",
        "de" | "desde" => {
            // a range: "de 10 a 11", "desde las 9 hasta las 10"
            let e = romance::meridiem_at(p, c.end, &WORDS).map_or(c.end, |(_, e)| e);
            let to = seq(p, e, "a|hasta")?;
            let to = seq(p, to, "las|la").unwrap_or(to);
            romance::clock_at(p, to, &WORDS, true)?;
            "from"
        }
        _ => return None,
    };
    rewrite(k, &[word])
}

/// An article or quantifier before a day number or a weekday (see the module docs).
fn article(p: &Lexed, i: usize, f: &str) -> Option<Rewrite> {
    let joins = &["y", "e", "o"][..];
    let articles = &["el", "los"][..];
    match f {
        "el" | "al" | "del" | "dia" => {
            let prep = match f {
                "el" => "on",
                "al" => "to",
                _ => "",
            };
            let k = if f != "dia" {
                seq(p, i + 1, "dia").unwrap_or(i + 1)
            } else {
                i + 1
            };
            if let Some(r) = romance::day_date(p, k, &WORDS, "de", true) {
                return romance::prefixed(r.end, prep, r.words);
            }
            if f == "del" {
                let (days, end) = romance::weekday_range(p, i + 1, &WORDS, &["al", "a"])?;
                return romance::days_rewrite(end, "every", &days, false);
            }
            if f == "dia" {
                return None;
            }
            if let Some(k) = seq(p, i + 1, "proximo|proxima") {
                let (d, _, e) = romance::weekday_at(p, k, &WORDS)?;
                let words = vec!["next".to_string(), romance::weekday_en(d, false)];
                return romance::prefixed(e, prep, words);
            }
            romance::weekday_word(p, i + 1, &WORDS)
                .and_then(|r| romance::prefixed(r.end, prep, r.words))
        }
        "los" => {
            let (days, end) = romance::weekday_list(p, i + 1, &WORDS, joins, articles)?;
            romance::days_rewrite(end, "on", &days, true)
        }
        "este" => {
            let (d, _, e) = romance::weekday_at(p, i + 1, &WORDS)?;
            rewrite_owned(e, vec!["this".into(), romance::weekday_en(d, false)])
        }
        "cada" => {
            // "cada dos domingos": every 2 weeks on Sunday
            let n = (WORDS.number)(&fw(p, i + 1))
                .or_else(|| fw(p, i + 1).parse().ok())
                .filter(|n| (2..=12).contains(n));
            if let Some(n) = n {
                let (d, _, e) = romance::weekday_at(p, i + 2, &WORDS)?;
                return rewrite_owned(
                    e,
                    vec![
                        "every".into(),
                        n.to_string(),
                        "weeks".into(),
                        "on".into(),
                        romance::weekday_en(d, false),
                    ],
                );
            }
            let (days, end) = romance::weekday_list(p, i + 1, &WORDS, joins, articles)?;
            romance::days_rewrite(end, "every", &days, false)
        }
        _ => {
            // "todos los lunes y jueves"
            let k = seq(p, i + 1, "los|las")?;
            let (days, end) = romance::weekday_list(p, k, &WORDS, joins, articles)?;
            romance::days_rewrite(end, "every", &days, false)
        }
    }
}

/// "antes de junio", "para junio", "a finales de junio", "de aquí a junio": by the month's
/// last day; "a principios de junio": its first; "de lunes a viernes": every day of the
/// range.
fn deadline(p: &Lexed, i: usize, f: &str) -> Option<Rewrite> {
    if f == "de" {
        if let Some((days, end)) = romance::weekday_range(p, i + 1, &WORDS, &["a", "al"]) {
            return romance::days_rewrite(end, "every", &days, false);
        }
    }
    let (prep, k) = match f {
        "antes" => ("before", seq(p, i + 1, "de|del").unwrap_or(i + 1)),
        "para" | "a" => ("by", i + 1),
        "de" => ("by", seq(p, i + 1, "aqui a")?),
        "fin" | "finales" => ("by", i),
        "principios" | "comienzos" => ("on", i),
        _ => return None,
    };
    romance::month_deadline(p, k, &WORDS, prep)
}

/// Nouns that end like a past tense.
const NOT_PRETERITES: &[&str] = &[
    "cafe", "bebe", "pure", "comite", "jose", "rene", "si", "se", "que", "fue", "esqui", "aqui",
    "alli", "ahi", "asi", "mani", "rubi", "menu",
];

/// Whether word `k` is a past tense of "I" ("entregué", "salí", "hice", "puse", "fui").
fn preterite(p: &Lexed, k: usize) -> bool {
    let raw = p.w(k);
    let f = fw(p, k);
    if NOT_PRETERITES.contains(&f.as_str()) || raw.chars().count() < 3 {
        return false;
    }
    raw.ends_with('é')
        || raw.ends_with('í')
        || matches!(
            f.as_str(),
            "hice"
                | "puse"
                | "fui"
                | "tuve"
                | "estuve"
                | "di"
                | "vi"
                | "dije"
                | "traje"
                | "vine"
                | "pude"
                | "anduve"
                | "hicimos"
                | "fuimos"
        )
}

/// Whether word `k` is a participle ("meditado", "hecho", "puesto", "devuelto").
fn participle(p: &Lexed, k: usize) -> bool {
    let f = fw(p, k);
    f.len() > 4 && ["ado", "ada", "ido", "ida"].iter().any(|e| f.ends_with(e))
        || matches!(
            f.as_str(),
            "hecho"
                | "puesto"
                | "vuelto"
                | "devuelto"
                | "escrito"
                | "visto"
                | "dicho"
                | "roto"
                | "abierto"
                | "ido"
        )
}

/// A verb whose own words say what was done ("cancelé", "borré", "moví"): its table entry
/// decides, not "I did".
fn cue_verb(f: &str) -> bool {
    [
        "cancel", "borr", "elimin", "quit", "mov", "muev", "cambi", "aplac", "aplaz", "renombr",
        "anot", "apunt", "anad", "agreg", "program", "reserv", "pase", "pasa",
    ]
    .iter()
    .any(|s| f.starts_with(s))
}

/// "ya entregué", "ya he hecho", "he meditado", "no he devuelto": what was done (or not), as
/// the reading's words (see the module docs).
fn past(p: &Lexed, i: usize) -> Option<Rewrite> {
    let f = fw(p, i);
    if f == "no" {
        // "no he devuelto", "no lo he hecho": I have not (done)
        let k = seq(p, i + 1, "lo|la").unwrap_or(i + 1);
        let k = seq(p, k, "he|hemos")?;
        if !participle(p, k) {
            return None;
        }
        let mut words = vec!["i".to_string(), "have".to_string(), "not".to_string()];
        if matches!(fw(p, k).as_str(), "hecho" | "terminado" | "acabado") {
            words.push("done".into());
        }
        return rewrite_owned(k + 1, words);
    }
    let (already, k) = match f.as_str() {
        "ya" => (true, seq(p, i + 1, "he|hemos").unwrap_or(i + 1)),
        _ => (false, i + 1),
    };
    let done = if k > i + 1 || f != "ya" {
        participle(p, k)
    } else {
        preterite(p, k)
    };
    if !done {
        return None;
    }
    report(p, k, already)
}

/// The past tense or participle at word `k` reported as done: "I did" ("did I" in a question),
/// ending after `k` for "hecho" / "hice" and for a verb opening the report; "I forgot" for
/// "olvidé"; nothing for a verb whose own words say what was done ("cancelé": the table's), nor
/// for a booking of a day to come ("reservé una mesa para el viernes").
fn report(p: &Lexed, k: usize, already: bool) -> Option<Rewrite> {
    let question = romance::is_question(p);
    let f = fw(p, k);
    if cue_verb(&f) {
        return None;
    }
    if f.starts_with("olvid") {
        return rewrite(k + 1, &["i", "forgot"]);
    }
    if !question && future(p) {
        return None;
    }
    let mut words: Vec<String> = if question {
        vec!["did".into(), "i".into()]
    } else {
        vec!["i".into(), "did".into()]
    };
    if already {
        words.push("already".into());
    }
    let opens = !already && !matches!(fw(p, k.saturating_sub(1)).as_str(), "he" | "hemos");
    let end = if opens || matches!(f.as_str(), "hecho" | "hice") {
        k + 1
    } else {
        k
    };
    rewrite_owned(end, words)
}

/// Whether the message names a day to come ("mañana", "el lunes que viene", "dentro de 3
/// días", "para el viernes"), so that a past tense reports a booking, not something done.
fn future(p: &Lexed) -> bool {
    (0..p.len()).any(|k| {
        let f = fw(p, k);
        let prev = k.checked_sub(1).map(|j| fw(p, j)).unwrap_or_default();
        (f == "manana" && !matches!(prev.as_str(), "esta" | "la" | "las" | "cada" | "de"))
            || matches!(f.as_str(), "proximo" | "proxima" | "dentro")
            || seq(p, k, "que viene").is_some()
            || (f == "para"
                && (romance::weekday_at(p, k + 1, &WORDS).is_some()
                    || matches!(fw(p, k + 1).as_str(), "el" | "manana" | "esta" | "este")))
    })
}
