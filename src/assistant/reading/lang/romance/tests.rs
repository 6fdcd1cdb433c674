//! Unit tests of the French and Spanish readings (`lang/fr.rs`, `lang/es.rs`, `lang/romance.rs`):
//! one test per rule class, on a Monday (2026-11-23), with each language's evaluation planner;
//! and the question sets (`questions.{fr,es}.json`) read as the English ones are.

use crate::assistant::date::Date;
use crate::assistant::model::{ItemKind, PlannerItem, Priority, RecurrenceType, Weekday};
use crate::assistant::reading::{
    english_words, read_message_in, read_question, DateRole, Intent, Reading,
};
use crate::kernel::lang::Language;

const FR_SET: &str = include_str!("../../../../../tests/data/eval/assistant.fr.json");
const ES_SET: &str = include_str!("../../../../../tests/data/eval/assistant.es.json");
const MON: &str = "2026-11-23";

fn planner(set: &str) -> Vec<PlannerItem> {
    let set: serde_json::Value = serde_json::from_str(set).unwrap();
    serde_json::from_value(set["fixtures"]["planner"].clone()).unwrap()
}

fn read(lang: Language, msg: &str) -> Reading {
    let set = if lang == Language::Fr { FR_SET } else { ES_SET };
    read_message_in(msg, lang, Date::parse(MON).unwrap(), &planner(set))
}

fn fr(msg: &str) -> Reading {
    read(Language::Fr, msg)
}

fn es(msg: &str) -> Reading {
    read(Language::Es, msg)
}

/// The first date said, with its period end.
fn day(r: &Reading) -> Option<(&str, Option<&str>)> {
    r.dates
        .first()
        .map(|d| (d.date.as_str(), d.through.as_deref()))
}

fn on(r: &Reading) -> Option<&str> {
    r.scheduled_for()
}

fn best(r: &Reading) -> Option<&str> {
    r.matches.first().map(|m| m.id.as_str())
}

#[test]
fn relative_days() {
    for (msg, want) in [
        ("appeler le garage aujourd'hui", MON),
        ("appeler le garage demain", "2026-11-24"),
        ("appeler le garage après-demain", "2026-11-25"),
        ("appeler le garage apres demain", "2026-11-25"),
        ("sortir la poubelle ce soir", MON),
    ] {
        assert_eq!(on(&fr(msg)), Some(want), "{msg}");
    }
    assert_eq!(day(&fr("j'ai couru hier")), Some(("2026-11-22", None)));
    for (msg, want) in [
        ("llamar al taller hoy", MON),
        ("llamar al taller mañana", "2026-11-24"),
        ("llamar al taller pasado mañana", "2026-11-25"),
        ("sacar la basura esta noche", MON),
    ] {
        assert_eq!(on(&es(msg)), Some(want), "{msg}");
    }
    assert_eq!(day(&es("ayer salí a correr")), Some(("2026-11-22", None)));
    // "mañana" as the morning is no date
    for msg in [
        "llamar al banco por la mañana",
        "esta mañana ya medité",
        "tomar vitaminas cada mañana",
    ] {
        assert!(es(msg).dates.is_empty(), "{msg}");
    }
    let x = es("llamar al banco mañana por la mañana");
    assert_eq!(day(&x), Some(("2026-11-24", None)));
}

#[test]
fn relative_weeks_and_months() {
    let next_week = Some(("2026-11-30", Some("2026-12-06")));
    let next_month = Some(("2026-12-01", Some("2026-12-31")));
    assert_eq!(day(&fr("finir le bilan la semaine prochaine")), next_week);
    assert_eq!(day(&fr("finir le bilan le mois prochain")), next_month);
    assert_eq!(day(&es("terminar el informe la próxima semana")), next_week);
    assert_eq!(
        day(&es("terminar el informe la semana que viene")),
        next_week
    );
    assert_eq!(day(&es("terminar el informe el mes que viene")), next_month);
    for (msg, want) in [
        ("rendre la voiture dans 3 jours", "2026-11-26"),
        ("coupe de cheveux dans deux semaines", "2026-12-07"),
        ("changer les draps dans une semaine", "2026-11-30"),
        ("vidange dans un mois", "2026-12-23"),
        ("nettoyer les gouttières ce week-end", "2026-11-28"),
        ("résilier la salle d'ici la fin du mois", "2026-11-30"),
    ] {
        assert_eq!(on(&fr(msg)), Some(want), "{msg}");
    }
    for (msg, want) in [
        ("devolver el coche en 3 días", "2026-11-26"),
        ("cortarme el pelo dentro de dos semanas", "2026-12-07"),
        ("limpiar los canalones este finde", "2026-11-28"),
        ("darme de baja antes de fin de mes", "2026-11-30"),
    ] {
        assert_eq!(on(&es(msg)), Some(want), "{msg}");
    }
}

#[test]
fn weekdays_and_abbreviations() {
    for (msg, want) in [
        ("récupérer le pressing vendredi", "2026-11-27"),
        ("rdv kiné ven. 17h30", "2026-11-27"),
        ("préparer la présentation lundi prochain", "2026-11-30"),
        ("réunion mardi prochain", "2026-12-01"),
        ("appeler Paul ce jeudi", "2026-11-26"),
    ] {
        assert_eq!(on(&fr(msg)), Some(want), "{msg}");
    }
    for (msg, want) in [
        ("recoger la ropa el viernes", "2026-11-27"),
        ("cita con la fisio el vie. a las 17:30", "2026-11-27"),
        ("preparar la presentación el lunes que viene", "2026-11-30"),
        ("comida con Priya el próximo martes", "2026-12-01"),
        ("llamar a Pablo el jue.", "2026-11-26"),
    ] {
        assert_eq!(on(&es(msg)), Some(want), "{msg}");
    }
    // an abbreviation without its period, or a capitalised name, is no weekday
    assert!(fr("dîner avec Sam.").dates.is_empty());
    assert!(fr("acheter un jeu").dates.is_empty());
}

#[test]
fn ordinal_and_numeric_dates_day_first() {
    for (msg, want) in [
        ("rdv chez le médecin le 3 décembre", "2026-12-03"),
        ("payer la facture le 1er décembre", "2026-12-01"),
        ("payer la facture le 1er", "2026-12-01"),
        ("soirée de Noël le 18/12", "2026-12-18"),
        ("anniversaire de Paul 3/12", "2026-12-03"),
        ("rendre le rapport avant le 5 déc.", "2026-12-05"),
        ("détartrage le 10 mars", "2027-03-10"),
        ("vacances le 12/01/2027", "2027-01-12"),
    ] {
        assert_eq!(on(&fr(msg)), Some(want), "{msg}");
    }
    for (msg, want) in [
        ("cita con el médico el 3 de diciembre", "2026-12-03"),
        ("pagar la factura el día 1", "2026-12-01"),
        ("cena de Navidad el 18/12", "2026-12-18"),
        ("cumpleaños de Pablo 3/12", "2026-12-03"),
        ("limpieza dental el 10 de marzo", "2027-03-10"),
        ("entregar el informe antes del 5 de dic.", "2026-12-05"),
    ] {
        assert_eq!(on(&es(msg)), Some(want), "{msg}");
    }
    // a month alone after a deadline word: its last day; "début" / "principios": its first
    let x = fr("payer les impôts d'ici juin");
    assert_eq!(x.dates[0].date, "2027-06-30");
    assert_eq!(x.dates[0].role, DateRole::By);
    assert_eq!(on(&fr("payer les impôts fin juin")), Some("2027-06-30"));
    assert_eq!(on(&fr("inscription début mars")), Some("2027-03-01"));
    assert_eq!(on(&es("ahorrar antes de junio")), Some("2027-06-30"));
    assert_eq!(
        on(&es("pagar la renta a finales de junio")),
        Some("2027-06-30")
    );
    // the date's words keep the user's text
    let msg = "prendre des vitamines chaque matin jusqu'au 1er juin";
    let d = &fr(msg).dates[0];
    assert_eq!(&msg[d.span.start..d.span.end], "jusqu'au 1er juin");
    assert_eq!(d.role, DateRole::Until);
}

#[test]
fn times_24_hour_and_words() {
    for (msg, want) in [
        ("appeler maman à 17h", "17:00"),
        ("coiffeur à 14h30", "14:30"),
        ("coiffeur à 14 h 30", "14:30"),
        ("réunion à 15 heures", "15:00"),
        ("réunion à 15 heures 30", "15:30"),
        ("déjeuner à midi", "12:00"),
        ("déjeuner à midi et demi", "12:30"),
        ("train à minuit", "00:00"),
        ("appeler maman à 5", "17:00"),
        ("appeler maman à 9h", "09:00"),
        ("appeler maman à 09h", "09:00"),
        ("appeler maman à 5h du matin", "05:00"),
        ("rdv banque 3h de l'après-midi", "15:00"),
        ("dîner à 8h du soir", "20:00"),
        ("appeler à 3 heures moins le quart", "14:45"),
    ] {
        assert_eq!(fr(msg).time_of_day(), Some(want), "{msg}");
    }
    for (msg, want) in [
        ("llamar a mamá a las 5", "17:00"),
        ("llamar a mamá a la una", "13:00"),
        ("llamar a mamá a las 15:30", "15:30"),
        ("llamar a mamá a las 18h", "18:00"),
        ("peluquería a las tres y media", "15:30"),
        ("peluquería a las 2 y cuarto", "14:15"),
        ("peluquería a las 3 menos cuarto", "14:45"),
        ("peluquería a las 5 y 10", "17:10"),
        ("cena a las 8 de la tarde", "20:00"),
        ("cena a las 9 de la noche", "21:00"),
        ("correr a las 7 de la mañana", "07:00"),
        ("comida a mediodía", "12:00"),
        ("llamar a las 9 en punto", "09:00"),
    ] {
        assert_eq!(es(msg).time_of_day(), Some(want), "{msg}");
    }
    // a number that is not a time stays a number
    assert_eq!(fr("courir 10 km").time, None);
    assert_eq!(es("leer 20 minutos").time, None);
    assert_eq!(fr("la réunion une heure plus tard").time, None);
}

#[test]
fn ranges_and_durations() {
    let range = |r: Reading| {
        (
            r.time_of_day().map(str::to_string),
            r.end_time().map(str::to_string),
        )
    };
    let want = |a: &str, b: &str| (Some(a.to_string()), Some(b.to_string()));
    assert_eq!(range(fr("offsite de 14h à 15h")), want("14:00", "15:00"));
    assert_eq!(
        range(fr("point budget de 9h à 10h30")),
        want("09:00", "10:30")
    );
    assert_eq!(
        range(fr("point budget de 10 à 11h")),
        want("10:00", "11:00")
    );
    assert_eq!(
        range(fr("point entre 10h et 11h30")),
        want("10:00", "11:30")
    );
    assert_eq!(
        range(fr("café à 10h pendant 45 min")),
        want("10:00", "10:45")
    );
    assert_eq!(
        range(fr("sport à 18h pendant 1h30")),
        want("18:00", "19:30")
    );
    assert_eq!(
        range(fr("sport à 18h pendant une heure")),
        want("18:00", "19:00")
    );
    assert_eq!(range(es("offsite de 10 a 11")), want("10:00", "11:00"));
    assert_eq!(
        range(es("offsite de 2 a 3 de la tarde")),
        want("14:00", "15:00")
    );
    assert_eq!(
        range(es("reunión entre las 9 y las 10")),
        want("09:00", "10:00")
    );
    assert_eq!(range(es("reunión de 9 a 10:30")), want("09:00", "10:30"));
    assert_eq!(
        range(es("café a las 10 durante 45 minutos")),
        want("10:00", "10:45")
    );
    assert_eq!(
        range(es("gimnasio a las 6 durante hora y media")),
        want("18:00", "19:30")
    );
    // a range is an event
    assert_eq!(fr("offsite de 14h à 15h").kind.kind, ItemKind::Event);
}

#[test]
fn recurrence() {
    let weekly = |r: &Reading| {
        let x = r.recurrence.as_ref().expect("a recurrence");
        (
            x.recurrence.kind,
            x.recurrence.interval,
            x.recurrence.weekdays.clone(),
        )
    };
    use RecurrenceType::{Daily, Monthly, Weekly};
    use Weekday::{Fri, Mon, Sun, Thu, Tue, Wed};
    for (msg, want) in [
        ("natation tous les lundis", (Weekly, None, vec![Mon])),
        (
            "natation tous les lundis et jeudis",
            (Weekly, None, vec![Mon, Thu]),
        ),
        ("natation chaque lundi", (Weekly, None, vec![Mon])),
        ("boire de l'eau tous les jours", (Daily, None, vec![])),
        ("boire de l'eau chaque jour", (Daily, None, vec![])),
        ("lire chaque soir", (Daily, None, vec![])),
        (
            "arroser toutes les deux semaines",
            (Weekly, Some(2), vec![]),
        ),
        ("arroser tous les 15 jours", (Weekly, Some(2), vec![])),
        ("piano le lundi et le jeudi", (Weekly, None, vec![Mon, Thu])),
        (
            "étirements du lundi au vendredi",
            (Weekly, None, vec![Mon, Tue, Wed, Thu, Fri]),
        ),
        (
            "appeler mamie un dimanche sur deux",
            (Weekly, Some(2), vec![Sun]),
        ),
        (
            "payer le loyer le 1er de chaque mois",
            (Monthly, None, vec![]),
        ),
    ] {
        assert_eq!(weekly(&fr(msg)), want, "{msg}");
    }
    for (msg, want) in [
        ("nadar todos los lunes", (Weekly, None, vec![Mon])),
        (
            "nadar todos los lunes y jueves",
            (Weekly, None, vec![Mon, Thu]),
        ),
        ("nadar cada lunes", (Weekly, None, vec![Mon])),
        ("beber agua cada día", (Daily, None, vec![])),
        ("beber agua todos los días", (Daily, None, vec![])),
        ("leer cada noche", (Daily, None, vec![])),
        (
            "regar las plantas cada dos semanas",
            (Weekly, Some(2), vec![]),
        ),
        ("yoga los martes y jueves", (Weekly, None, vec![Tue, Thu])),
        (
            "estiramientos de lunes a viernes",
            (Weekly, None, vec![Mon, Tue, Wed, Thu, Fri]),
        ),
        (
            "llamar a la abuela cada dos domingos",
            (Weekly, Some(2), vec![Sun]),
        ),
        (
            "pagar el alquiler el día 1 de cada mes",
            (Monthly, None, vec![]),
        ),
    ] {
        assert_eq!(weekly(&es(msg)), want, "{msg}");
    }
    // "el lunes" is a day, "los lunes" every week
    assert!(es("yoga el lunes").recurrence.is_none());
    let x = fr("vitamines chaque matin jusqu'au 1er juin");
    let rec = x.recurrence.unwrap().recurrence;
    assert_eq!(rec.until.as_deref(), Some("2027-06-01"));
    let x = es("vitaminas cada mañana hasta el 1 de junio");
    let rec = x.recurrence.unwrap().recurrence;
    assert_eq!(rec.until.as_deref(), Some("2027-06-01"));
}

#[test]
fn priorities() {
    let prio = |r: Reading| r.priority.map(|p| p.priority);
    for (msg, want) in [
        ("urgent : renouveler le passeport", Priority::High),
        ("important : appeler la banque", Priority::High),
        ("ranger le garage, priorité basse", Priority::Low),
        ("appeler l'assureur, priorité haute", Priority::High),
        ("mets la note de frais en priorité basse", Priority::Low),
        ("réparer le robinet au plus vite", Priority::High),
        ("trier les photos, pas urgent", Priority::Low),
    ] {
        assert_eq!(prio(fr(msg)), Some(want), "{msg}");
    }
    for (msg, want) in [
        ("urgente: renovar el pasaporte", Priority::High),
        ("importante: llamar al banco", Priority::High),
        ("ordenar el garaje, prioridad baja", Priority::Low),
        ("llamar a la aseguradora, prioridad alta", Priority::High),
        ("arreglar el grifo cuanto antes", Priority::High),
        ("ordenar fotos, no es urgente", Priority::Low),
    ] {
        assert_eq!(prio(es(msg)), Some(want), "{msg}");
    }
}

#[test]
fn completion_deletion_update_and_create_cues() {
    let cases: &[(Language, &str, Intent)] = &[
        (Language::Fr, "acheter du lait : fait", Intent::Complete),
        (Language::Fr, "c'est fait pour le lait", Intent::Complete),
        (Language::Fr, "lessive terminée", Intent::Complete),
        (
            Language::Fr,
            "j'ai fini la déclaration d'impôts",
            Intent::Complete,
        ),
        (
            Language::Fr,
            "j'ai envoyé la note de frais",
            Intent::Complete,
        ),
        (Language::Fr, "je suis allé courir hier", Intent::Complete),
        (
            Language::Fr,
            "marque la lessive comme faite",
            Intent::Complete,
        ),
        (Language::Fr, "supprime la tâche lessive", Intent::Delete),
        (
            Language::Fr,
            "efface le rappel pour le plombier",
            Intent::Delete,
        ),
        (
            Language::Fr,
            "annule le rdv chez le dentiste",
            Intent::Delete,
        ),
        (
            Language::Fr,
            "enlève les impôts de ma liste",
            Intent::Delete,
        ),
        (
            Language::Fr,
            "plus besoin du rappel pour le cadeau",
            Intent::Delete,
        ),
        (Language::Fr, "déplace la lessive à demain", Intent::Update),
        (
            Language::Fr,
            "décale le rdv dentiste à jeudi",
            Intent::Update,
        ),
        (
            Language::Fr,
            "repousse l'assurance auto au 5 décembre",
            Intent::Update,
        ),
        (Language::Fr, "mets le dîner avec Sam à 21h", Intent::Update),
        (
            Language::Fr,
            "renomme acheter du lait en acheter du pain",
            Intent::Update,
        ),
        (Language::Fr, "rappelle-moi d'appeler maman", Intent::Create),
        (Language::Fr, "ajoute acheter du pain", Intent::Create),
        (Language::Fr, "note acheter du pain", Intent::Create),
        (
            Language::Fr,
            "n'oublie pas de payer le loyer",
            Intent::Create,
        ),
        (
            Language::Fr,
            "marque la lessive comme pas faite",
            Intent::Uncomplete,
        ),
        (Language::Es, "comprar leche: hecho", Intent::Complete),
        (Language::Es, "comprar leche: listo", Intent::Complete),
        (
            Language::Es,
            "lo de la leche ya está hecho",
            Intent::Complete,
        ),
        (Language::Es, "terminé el informe", Intent::Complete),
        (
            Language::Es,
            "ya hice la declaración de la renta",
            Intent::Complete,
        ),
        (
            Language::Es,
            "ya entregué el informe de gastos",
            Intent::Complete,
        ),
        (Language::Es, "hoy he meditado", Intent::Complete),
        (
            Language::Es,
            "borra la tarea de la lavadora",
            Intent::Delete,
        ),
        (
            Language::Es,
            "elimina el recordatorio del fontanero",
            Intent::Delete,
        ),
        (Language::Es, "cancela la cita del dentista", Intent::Delete),
        (
            Language::Es,
            "quita lo de la renta de la lista",
            Intent::Delete,
        ),
        (
            Language::Es,
            "mueve la cita del dentista al jueves",
            Intent::Update,
        ),
        (
            Language::Es,
            "pasa lo del fontanero al martes",
            Intent::Update,
        ),
        (Language::Es, "cambia la reunión a las 2", Intent::Update),
        (Language::Es, "recuérdame llamar a mamá", Intent::Create),
        (Language::Es, "añade comprar pan", Intent::Create),
        (Language::Es, "apunta comprar pan", Intent::Create),
        (Language::Es, "agrega comprar pan", Intent::Create),
        (
            Language::Es,
            "no te olvides de pagar la comunidad",
            Intent::Create,
        ),
        (Language::Es, "desmarca la lavadora", Intent::Uncomplete),
    ];
    for (lang, msg, want) in cases {
        assert_eq!(read(*lang, msg).intent, Some(*want), "{msg}");
    }
    // a negated report is neither a completion nor a new item
    for (lang, msg) in [
        (Language::Fr, "j'ai pas encore rendu les livres"),
        (Language::Fr, "je n'ai pas médité aujourd'hui"),
        (Language::Es, "todavía no he devuelto los libros"),
        (Language::Es, "no he meditado hoy"),
    ] {
        assert_eq!(read(lang, msg).intent, None, "{msg}");
    }
    // "I forgot" is nothing done; a booking of a day to come is a new item; a visit no move
    for (lang, msg, want) in [
        (Language::Fr, "j'ai oublié d'appeler le plombier", None),
        (
            Language::Fr,
            "j'ai réservé une table pour vendredi",
            Some(Intent::Create),
        ),
        (
            Language::Fr,
            "passe chez le dentiste vendredi",
            Some(Intent::Create),
        ),
        (Language::Es, "olvidé llamar al fontanero", None),
        (
            Language::Es,
            "reservé una mesa para el viernes",
            Some(Intent::Create),
        ),
        (
            Language::Es,
            "pagué el seguro del coche",
            Some(Intent::Complete),
        ),
        (
            Language::Es,
            "pasa por el banco el viernes",
            Some(Intent::Create),
        ),
    ] {
        assert_eq!(read(lang, msg).intent, want, "{msg}");
    }
    // "lista" after an article is a list, not "done"
    assert!(english_words("añade pan a la lista", Language::Es)
        .split(' ')
        .any(|w| w == "list"));
    // a rename's new title is what follows its "en" / "por" / "a"
    assert_eq!(
        fr("renomme acheter du lait en acheter du lait d'avoine")
            .title
            .as_deref(),
        Some("Acheter du lait d'avoine")
    );
    assert_eq!(
        es("cambia comprar leche por comprar leche de avena")
            .title
            .as_deref(),
        Some("Comprar leche de avena")
    );
}

#[test]
fn kinds() {
    for (lang, msg, want) in [
        (Language::Fr, "rdv chez le médecin jeudi", ItemKind::Event),
        (
            Language::Fr,
            "rendez-vous chez le médecin jeudi",
            ItemKind::Event,
        ),
        (Language::Fr, "réunion budget jeudi", ItemKind::Event),
        (Language::Fr, "nouvelle habitude : méditer", ItemKind::Habit),
        (
            Language::Fr,
            "objectif : courir un marathon",
            ItemKind::Goal,
        ),
        (Language::Fr, "natation tous les lundis", ItemKind::Habit),
        (
            Language::Es,
            "cita con el médico el jueves",
            ItemKind::Event,
        ),
        (
            Language::Es,
            "reunión de presupuesto el jueves",
            ItemKind::Event,
        ),
        (Language::Es, "nuevo hábito: meditar", ItemKind::Habit),
        (Language::Es, "meta: correr una maratón", ItemKind::Goal),
        (Language::Es, "objetivo: leer 12 libros", ItemKind::Goal),
        (Language::Es, "nadar todos los lunes", ItemKind::Habit),
    ] {
        assert_eq!(read(lang, msg).kind.kind, want, "{msg}");
    }
}

#[test]
fn descriptors_and_references() {
    for (lang, msg, want) in [
        (
            Language::Fr,
            "mets le truc chez le dentiste vendredi",
            "event-dentist",
        ),
        (Language::Fr, "c'est fait pour le lait", "todo-milk"),
        (Language::Fr, "j'ai médité aujourd'hui", "habit-meditate"),
        (Language::Fr, "je suis allé courir hier", "habit-run"),
        (Language::Fr, "plombier appelé, c'est fait", "todo-plumber"),
        (
            Language::Es,
            "pasa lo del dentista al viernes",
            "event-dentist",
        ),
        (Language::Es, "hoy ya practiqué piano", "habit-piano"),
        (
            Language::Es,
            "ya entregué el informe de gastos",
            "todo-report",
        ),
        (Language::Es, "ayer salí a correr", "habit-run"),
    ] {
        assert_eq!(best(&read(lang, msg)), Some(want), "{msg}");
    }
    // words read as times or dates name no item ("mediodía", "media" are not "Meditar")
    assert!(es("comida con Priya el martes a mediodía")
        .matches
        .is_empty());
    assert!(es("peluquería el miércoles a las 2 y media")
        .matches
        .is_empty());
    assert!(es("cita con el médico el 3 de diciembre")
        .matches
        .iter()
        .all(|m| m.id != "habit-meditate"));
    // a part of the day next to a date is no title word: "courses samedi matin" (groceries)
    // does not name "Course du matin" strongly
    assert!(fr("courses samedi matin")
        .matches
        .iter()
        .all(|m| m.score < 0.6));
    // descriptors become the reading's descriptor words
    let words = |lang, msg| english_words(msg, lang);
    assert!(words(Language::Fr, "le truc chez le dentiste").contains("the thing with the"));
    assert!(words(Language::Fr, "ce rendez-vous").contains("that appointment"));
    assert!(words(Language::Es, "lo del dentista").contains("the thing with"));
    assert!(words(Language::Es, "esa cita").contains("that appointment"));
}

#[test]
fn titles_keep_the_users_words_without_edge_filler() {
    for (lang, msg, want) in [
        (
            Language::Fr,
            "rappelle-moi d'appeler maman demain à 17h",
            "Appeler maman",
        ),
        (
            Language::Fr,
            "ajoute acheter du pain pour ce soir",
            "Acheter du pain",
        ),
        (
            Language::Fr,
            "rdv chez le médecin le 3 décembre à 9h30",
            "Rdv chez le médecin",
        ),
        (
            Language::Fr,
            "payer la facture d'électricité le 1er décembre",
            "Payer la facture d'électricité",
        ),
        (
            Language::Fr,
            "mon objectif : courir un semi-marathon",
            "Courir un semi-marathon",
        ),
        (
            Language::Es,
            "recuérdame llamar a mamá mañana a las 5",
            "Llamar a mamá",
        ),
        (
            Language::Es,
            "añade comprar pan para esta noche",
            "Comprar pan",
        ),
        (
            Language::Es,
            "cita con el médico el 3 de diciembre a las 9:30",
            "Cita con el médico",
        ),
        (
            Language::Es,
            "devolver el coche de alquiler en 3 días",
            "Devolver el coche de alquiler",
        ),
        (
            Language::Es,
            "mi objetivo es correr una media maratón",
            "Correr una media maratón",
        ),
        (Language::Fr, "courses samedi matin", "Courses"),
        (Language::Es, "compra mañana por la mañana", "Compra"),
    ] {
        assert_eq!(read(lang, msg).title.as_deref(), Some(want), "{msg}");
    }
}

/// Each question of `questions.LANG.json` reads as its English one does: a question, nothing to
/// change, the same dates, and for the question reader (`reading/question.rs`, which works on
/// these words) the same question: what it asks and its days (the kinds said may differ: "c'est
/// quand le dentiste ?" names no appointment).
fn questions_read_as_the_english_ones(lang: Language, set: &str) {
    let en: serde_json::Value = serde_json::from_str(include_str!(
        "../../../../../tests/data/eval/questions.en.json"
    ))
    .unwrap();
    let set: serde_json::Value = serde_json::from_str(set).unwrap();
    let items = |s: &serde_json::Value| -> Vec<PlannerItem> {
        serde_json::from_value(s["fixtures"]["planner"].clone()).unwrap()
    };
    let (en_items, items) = (items(&en), items(&set));
    let today = Date::parse(MON).unwrap();
    let tasks = set["tasks"].as_array().unwrap();
    let en_tasks = en["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), en_tasks.len());
    for (t, e) in tasks.iter().zip(en_tasks) {
        assert_eq!(t["id"], e["id"]);
        let msg = t["message"].as_str().unwrap();
        let r = read_message_in(msg, lang, today, &items);
        let er = read_message_in(
            e["message"].as_str().unwrap(),
            Language::En,
            today,
            &en_items,
        );
        assert!(r.question, "{msg}");
        assert_eq!(r.intent, Some(Intent::Nothing), "{msg}");
        let dates = |r: &Reading| -> Vec<(String, Option<String>)> {
            r.dates
                .iter()
                .map(|d| (d.date.clone(), d.through.clone()))
                .collect()
        };
        assert_eq!(dates(&r), dates(&er), "{msg}");
        let q = read_question(msg, lang, today, &items).expect(msg);
        let eq = read_question(
            e["message"].as_str().unwrap(),
            Language::En,
            today,
            &en_items,
        )
        .unwrap();
        assert_eq!((q.asks, q.days), (eq.asks, eq.days), "{msg}");
    }
}

#[test]
fn french_questions_read_as_the_english_ones() {
    questions_read_as_the_english_ones(
        Language::Fr,
        include_str!("../../../../../tests/data/eval/questions.fr.json"),
    );
    let words = |msg| english_words(msg, Language::Fr);
    assert!(words("qu'est-ce que j'ai jeudi ?").starts_with("what do i have"));
    assert!(words("j'ai déjà payé la facture ?").starts_with("did i already"));
    assert!(words("je suis allé courir samedi ?").starts_with("did i go"));
    assert!(words("qu'est-ce qui est en retard ?").contains("overdue"));
    assert!(words("il me reste quoi aujourd'hui ?").contains("what is left"));
    assert!(words("quand est le dentiste ?").starts_with("when"));
}

#[test]
fn spanish_questions_read_as_the_english_ones() {
    questions_read_as_the_english_ones(
        Language::Es,
        include_str!("../../../../../tests/data/eval/questions.es.json"),
    );
    let words = |msg| english_words(msg, Language::Es);
    assert!(words("¿qué tengo el jueves?").starts_with("what do i have"));
    assert!(words("¿ya pagué la factura?").starts_with("did i already"));
    assert!(words("¿salí a correr el sábado?").starts_with("did i"));
    assert!(words("¿qué tengo atrasado?").contains("overdue"));
    assert!(words("¿qué me queda hoy?").starts_with("what is left"));
    assert!(words("¿cuándo es lo del dentista?").starts_with("when"));
    assert!(words("qué tengo mañana").starts_with("what do i have"));
    // "que" without its accent opens only a question
    assert!(!words("tengo que llamar").contains("what"));
}

#[test]
fn stemming_for_title_matches() {
    use super::stem;
    for (a, b) in [
        ("appelé", "appeler"),
        ("médité", "méditer"),
        ("meditado", "meditar"),
        ("rendus", "rendre"),
        ("courir", "course"),
        ("llamé", "llamar"),
    ] {
        assert_eq!(stem(a), stem(b), "{a} {b}");
    }
}
