"""Binding test for coachcore from Python (the UniFFI-generated module `coachcore`).

Run by bindings/python/test.sh, which copies coachcore.py and libcoachcore.so into one folder and
puts it in COACHCORE_PY_DIR. Stdlib only. Prints "N passed, M failed"; exit code 1 on any failure.
"""
import io
import json
import os
import re
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.environ.get("COACHCORE_PY_DIR", os.path.dirname(os.path.abspath(__file__))))

import coachcore  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from coachcore import (  # noqa: E402
    AssistantListener,
    AsyncLanguageModel,
    AssistantMode,
    AssistantRequest,
    AssistantStage,
    CancelToken,
    CatalogExercise,
    ChangeProperty,
    ChangeType,
    ChangeValue,
    ChatRole,
    Coach,
    CoachError,
    DayRequest,
    Decision,
    Energy,
    Equipment,
    ExerciseContext,
    ExerciseLog,
    ExercisePerformance,
    ExercisePrescription,
    FinishReason,
    GenerationResult,
    ItemKind,
    JobStatus,
    OpType,
    PlannerOperation,
    Priority,
    RecipeSource,
    Recurrence,
    RecurrenceType,
    RouteDecision,
    LanguageModel,
    LlmError,
    LoadConfig,
    LogLevel,
    LogListener,
    MealLog,
    MealPlanListener,
    MealPlanRequest,
    MealPreferences,
    MealSlotRequest,
    MealType,
    OpenOptions,
    MealsRequest,
    ModelInfo,
    ModelAvailabilityStatus,
    ModelCheckOptions,
    ModelOptions,
    Muscle,
    Outcome,
    OutputErrorCode,
    PerformedSet,
    PickedBy,
    PlanSettings,
    PlanOutcome,
    PlanFallbackReason,
    PlanSource,
    RepRange,
    RepRangeMode,
    RestMode,
    SchemaSelection,
    SchemaVersion,
    SelectionReason,
    SessionLog,
    SetPrescription,
    SetType,
    ShoppingListOptions,
    StoreSection,
    SuggestionSource,
    TrainingStyle,
    WeightUnit,
    WorkoutPlan,
    CardioActivity,
    Goal,
    LoadKind,
    Recovery,
    SetActual,
    SetTier,
    TodayExerciseDone,
    TodayPlanRequest,
    TodaySetDone,
    WorkoutEquipment,
    WorkoutExercise,
    WorkoutListener,
    WorkoutLog,
    WorkoutMeta,
    WorkoutRequest,
    WorkoutSource,
    WorkoutStage,
)

WORKED_EXAMPLE = (
    '{"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai",'
    '"energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,'
    '"focus":"Prep"},{"title":"Main Set","durationMinutes":20,"focus":"Strength"}],"exercises":['
    '{"blockIndex":0,"order":0,"name":"Jumping Jacks","prescription":"2 x 30s","detail":null},'
    '{"blockIndex":1,"order":0,"name":"DB Press","prescription":"3 x 10","detail":"Controlled tempo"}]}'
)
BAD_BLOCK_INDEX = WORKED_EXAMPLE.replace('{"blockIndex":1,"order":0,"name":"DB Press"',
                                         '{"blockIndex":5,"order":0,"name":"DB Press"')
assert BAD_BLOCK_INDEX != WORKED_EXAMPLE
V1_EXAMPLE = (
    '{"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai",'
    '"energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,'
    '"focus":"Prep","exercises":[{"name":"Jumping Jacks","prescription":"2 x 30s","detail":null}]},'
    '{"title":"Main Set","durationMinutes":20,"focus":"Strength","exercises":[{"name":"DB Press",'
    '"prescription":"3 x 10","detail":"Controlled tempo"}]}]}'
)
UUID_LIKE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")

V2 = SchemaSelection(schema_version=SchemaVersion.V2_FLAT, reason=SelectionReason.OVERRIDE)
V1 = SchemaSelection(schema_version=SchemaVersion.V1_CURRENT, reason=SelectionReason.OVERRIDE)


def all_ids(plan):
    ids = [plan.id]
    for block in plan.blocks:
        ids.append(block.id)
        ids.extend(ex.id for ex in block.exercises)
    return ids


# ---- suggestions (spec 004): one barbell exercise in a one-exercise plan ----

DAY_MS = 86_400_000
T0_MS = 1_763_000_000_000
PLAN_ID = "push-day"
RX_ID = "rx-bench"
DOUBLE_PROGRESSION = "double_progression_range"


def bench_exercise():
    return CatalogExercise(catalog_id="bench", name="Bench Press", equipment=Equipment.BARBELL,
                           target_muscles=[Muscle.CHEST])


def push_plan():
    """Bench 3 x 8-12 at 135 lb, all sets resting 120 s."""
    sets = [SetPrescription(index=i, set_type=SetType.REGULAR, target_weight=135.0, target_reps=8, rest_seconds=120)
            for i in range(3)]
    return WorkoutPlan(
        settings=PlanSettings(plan_id=PLAN_ID, unit=WeightUnit.LBS, training_style=TrainingStyle.STRAIGHT_SETS,
                              load=LoadConfig(plates=[], bar_weight=0.0, dumbbells=[])),
        name="Push day",
        exercises=[ExercisePrescription(
            id=RX_ID, catalog_id="bench", position=0,
            rep_range=RepRange(mode=RepRangeMode.RANGE, lower=8, upper=12, target=0),
            rest_mode=RestMode.ALL_SAME, rest_seconds=120, sets=sets)],
    )


def performed_sets(weight=135.0, reps=12):
    return [PerformedSet(index=i, set_type=SetType.REGULAR, weight=weight, reps=reps, rest_seconds=120, completed=True)
            for i in range(3)]


def session_log(n, plan_id=PLAN_ID, reps=12):
    """Session sN, 2 days after s(N-1): bench 3 x `reps` at 135 (12: the top of the range)."""
    return SessionLog(id=f"s{n}", plan_id=plan_id, performed_at_ms=T0_MS + 2 * n * DAY_MS,
                      exercises=[ExerciseLog(id=f"bench-s{n}", catalog_id="bench", prescription_id=RX_ID,
                                             sets=performed_sets(reps=reps))])


def performance(n):
    """Session sN's bench performance, as the engine sees it (for evaluate_exercise)."""
    return ExercisePerformance(id=f"bench-s{n}", session_id=f"s{n}", catalog_id="bench",
                               performed_at_ms=T0_MS + 2 * n * DAY_MS, sets=performed_sets())


def setup_logged(coach):
    """Saves the exercise and the plan and logs s0 and s1."""
    coach.workouts().save_catalog_exercise(bench_exercise())
    coach.workouts().save_plan(push_plan())
    coach.workouts().log_session(session_log(0))
    coach.workouts().log_session(session_log(1))


def weight_changes(changes):
    return [c for c in changes if c.draft.property == ChangeProperty.WEIGHT]


# ---- an app-provided language model: the library's LanguageModel trait implemented in Python ----

MID_REPS = 10  # mid-range (8-12): the rules propose reps increases only, no weight or rest change
AI_REST = 120 + 30  # the fake's exercise-level rest: the current 120 s + 30
AI_REASONING = "Reps held at 10 on 120 s; 150 s of rest should help you reach 12."
TOOL_CALL = '{"tool":"getRecentExercisePerformances","limit":2}'
FINAL_ANSWER = (
    '{"suggestions":['
    '{"changeType":"increaseRest","targetSetIndex":-1,"newValue":150,"reasoning":"' + AI_REASONING + '"},'
    '{"changeType":"increaseReps","targetSetIndex":9,"newValue":9,"reasoning":"There is no set 9."}]}'
)
# The user's texts, which must never reach the log.
PRIVATE_TEXTS = ["Bench Press", "Push day", AI_REASONING]


def setup_mid_range(coach):
    """Saves the exercise and the plan and logs s0 and s1 at 3 x 10 (mid-range)."""
    coach.workouts().save_catalog_exercise(bench_exercise())
    coach.workouts().save_plan(push_plan())
    coach.workouts().log_session(session_log(0, reps=MID_REPS))
    coach.workouts().log_session(session_log(1, reps=MID_REPS))


def ai_changes(changes):
    return [c for c in changes if c.draft.source == SuggestionSource.AI]


class FakeModel(LanguageModel):
    """A LanguageModel implemented in Python: records every request and replies from a script (the
    last reply repeats, so repairs get it again). `fail` is raised from generate; `stream` sends the
    reply in pieces to the listener when the library passes one; `check_cancel` asks the
    CancelToken on every call."""

    def __init__(self, replies=(TOOL_CALL, FINAL_ANSWER), name="fake-python-model", fail=None,
                 stream=False, check_cancel=False):
        self.replies = list(replies)
        self.name = name
        self.fail = fail
        self.stream = stream
        self.check_cancel = check_cancel
        self.requests = []
        self.listener_passed = []
        self.streamed = []
        self.cancelled = []
        self.info_calls = 0

    def info(self):
        self.info_calls += 1
        return ModelInfo(name=self.name, context_tokens=4096, constrains_json_schema=False)

    def generate(self, request, listener, cancel):
        self.requests.append(request)
        self.listener_passed.append(listener is not None)
        if self.check_cancel:
            self.cancelled.append(cancel.is_cancelled())
        if self.fail is not None:
            raise self.fail
        text = self.replies[min(len(self.requests), len(self.replies)) - 1]
        if self.stream and listener is not None:
            pieces = [text[i:i + 7] for i in range(0, len(text), 7)]
            for piece in pieces:
                listener.on_token(piece)
            self.streamed.append("".join(pieces))
        return GenerationResult(text=text, finish=FinishReason.STOP, prompt_tokens=100 * len(request.messages),
                                completion_tokens=len(text) // 4, prompt_ms=1, generation_ms=2)


class CollectingLogListener(LogListener):
    """A LogListener implemented in Python: keeps every record."""

    def __init__(self):
        self.records = []

    def on_log(self, level, target, message):
        self.records.append((level, target, message))


# ---- the assistant (spec 002): a foreign listener, an app-implemented model, apply and reads ----

TODAY = "2026-11-20"  # a Friday: its week runs from Monday 2026-11-16 to Sunday 2026-11-22
PROPOSAL = ('{"operations":[{"op":"create","kind":"todo","title":"Call mom","scheduledFor":"2026-11-21",'
            '"priority":"High"}]}')
ASSISTANT_SUMMARY = "I added a call to mom on Saturday."


def event_name(e):
    if e.is_text_delta():
        return "textDelta"
    for name in ("stage", "clarify", "ops", "summary", "result", "heartbeat", "done"):
        if getattr(e, "is_" + name)():
            return name
    raise AssertionError(f"unknown event {e}")


def shape(events):
    """The events' names with each run of textDeltas as one "textDelta"."""
    out = []
    for n in map(event_name, events):
        if not (n == "textDelta" and out and out[-1] == "textDelta"):
            out.append(n)
    return out


def deltas(events):
    return [e.text for e in events if e.is_text_delta()]


RAW_CHAT = "Drink **water** and sleep well tonight."
CHAT_SUMMARY = "Drink water and sleep well tonight."


def chat_request(message):
    return AssistantRequest(message=message, mode=AssistantMode.CHAT, today=TODAY)


class AsyncFakeModel(AsyncLanguageModel):
    """An app's model with an `async def generate` (as one bridging a platform model would be):
    replies from a script after an await, streaming words to the listener; `fail` is raised
    instead. `started` is set when a call runs; with `hang` the call awaits until cancelled, and
    `cancelled` is set when the coroutine saw the CancelledError."""

    def __init__(self, replies=(RAW_CHAT,), fail=None, hang=False):
        self.replies = list(replies)
        self.fail = fail
        self.hang = hang
        self.calls = 0
        self.started = threading.Event()
        self.cancelled = threading.Event()

    def info(self):
        return ModelInfo(name="async-python-model", context_tokens=4096, constrains_json_schema=False)

    async def generate(self, request, listener):
        import asyncio

        self.calls += 1
        self.started.set()
        if self.hang:
            try:
                await asyncio.sleep(600)
            except asyncio.CancelledError:
                self.cancelled.set()
                raise
        await asyncio.sleep(0.005)
        if self.fail is not None:
            raise self.fail
        text = self.replies[min(self.calls, len(self.replies)) - 1]
        if listener is not None:
            for word in re.findall(r"\S+\s*", text):
                listener.on_token(word)
        return GenerationResult(text=text, finish=FinishReason.STOP, prompt_tokens=10, completion_tokens=5,
                                prompt_ms=1, generation_ms=5)


def run_on_a_loop(make_coroutine):
    """Runs the coroutine on a fresh event loop that the library's threads also use for an async
    model's calls (`uniffi_set_event_loop`)."""
    import asyncio

    async def main():
        coachcore.uniffi_set_event_loop(asyncio.get_running_loop())
        try:
            return await make_coroutine()
        finally:
            coachcore.uniffi_set_event_loop(None)

    return asyncio.run(main())


class CollectingAssistantListener(AssistantListener):
    """An AssistantListener implemented in Python: keeps every event but heartbeats."""

    def __init__(self):
        self.events = []
        self.lock = threading.Lock()

    def on_event(self, event):
        if not event.is_heartbeat():
            with self.lock:
                self.events.append(event)


class BlockingModel(LanguageModel):
    """A model whose generate blocks until the call is cancelled; `started` is set when it runs."""

    def __init__(self):
        self.started = threading.Event()

    def info(self):
        return ModelInfo(name="blocking-python-model", context_tokens=4096, constrains_json_schema=False)

    def generate(self, request, listener, cancel):
        self.started.set()
        while not cancel.is_cancelled():
            time.sleep(0.002)
        raise LlmError.Cancelled()


def todo_op(title, date=None, priority=None):
    return PlannerOperation(op=OpType.CREATE, kind=ItemKind.TODO, title=title, scheduled_for=date, priority=priority)


def daily_habit(title, anchor):
    return PlannerOperation(op=OpType.CREATE, kind=ItemKind.HABIT, title=title, scheduled_for=anchor, time_of_day="21:00",
                     recurrence=Recurrence(kind=RecurrenceType.DAILY))


def plan_request(message):
    return AssistantRequest(message=message, mode=AssistantMode.PLAN, today=TODAY)



# ---- meal planning ----

STARTER_RECIPES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                               "recipes", "starter.json")
FALLBACK_WARNING = "Model unavailable: picked by the deterministic fallback"


def starter_recipes_json():
    with open(STARTER_RECIPES, encoding="utf-8") as f:
        return f.read()


def meal_slot(servings, tags=(), note=None):
    return MealSlotRequest(servings=servings, tags=list(tags), note=note, is_meal_prep=False, repeat=None,
                           pinned_recipe_id=None)


def day_meals(breakfast=None, lunch=None, dinner=None):
    return MealsRequest(breakfast=breakfast, lunch=lunch, dinner=dinner, snack=None, dessert=None)


def meal_request(days, excluded=()):
    prefs = MealPreferences(diet=None, excluded_ingredients=list(excluded), max_prep_minutes=None,
                            max_cook_minutes=None)
    return MealPlanRequest(days=[DayRequest(date=d, meals=m) for d, m in days], preferences=prefs,
                           recent_days=None)


class CollectingMealListener(MealPlanListener):
    def __init__(self):
        self.events = []
        self.lock = threading.Lock()

    def on_event(self, event):
        with self.lock:
            self.events.append(event)


class CoachTest(unittest.TestCase):
    def setUp(self):
        self.coach = Coach.open_in_memory()

    def check_worked_example(self, plan):
        self.assertEqual(plan.focus, "Upper Body Strength")
        self.assertEqual(plan.duration_minutes, 30)
        self.assertEqual(plan.equipment, ["Dumbbells"])
        self.assertEqual(plan.source, PlanSource.AI)
        self.assertEqual(plan.energy, Energy.MODERATE)
        self.assertEqual(plan.summary, "Sample plan")
        self.assertEqual([b.title for b in plan.blocks], ["Warm-up", "Main Set"])
        self.assertEqual([b.duration_minutes for b in plan.blocks], [5, 20])
        self.assertEqual([b.focus for b in plan.blocks], ["Prep", "Strength"])
        self.assertEqual([e.name for e in plan.blocks[0].exercises], ["Jumping Jacks"])
        self.assertEqual([e.name for e in plan.blocks[1].exercises], ["DB Press"])
        jj = plan.blocks[0].exercises[0]
        self.assertEqual(jj.prescription, "2 x 30s")
        self.assertIsNone(jj.detail)
        press = plan.blocks[1].exercises[0]
        self.assertEqual(press.prescription, "3 x 10")
        self.assertEqual(press.detail, "Controlled tempo")
        ids = all_ids(plan)
        for i in ids:
            self.assertRegex(i, UUID_LIKE)
        self.assertEqual(len(set(ids)), len(ids), "ids are not distinct")

    def test_library_version(self):
        self.assertTrue(coachcore.library_version().strip())

    def test_select_override_wins(self):
        both = [SchemaVersion.V1_CURRENT, SchemaVersion.V2_FLAT]
        self.assertEqual(coachcore.select_plan_schema(both, SchemaVersion.V1_CURRENT),
                         SchemaSelection(schema_version=SchemaVersion.V1_CURRENT, reason=SelectionReason.OVERRIDE))
        self.assertEqual(coachcore.select_plan_schema([SchemaVersion.V1_CURRENT], SchemaVersion.V2_FLAT),
                         SchemaSelection(schema_version=SchemaVersion.V2_FLAT, reason=SelectionReason.OVERRIDE))

    def test_select_single_supported_and_smallest(self):
        s = coachcore.select_plan_schema([SchemaVersion.V1_CURRENT], None)
        self.assertEqual((s.schema_version, s.reason), (SchemaVersion.V1_CURRENT, SelectionReason.SINGLE_SUPPORTED))
        s = coachcore.select_plan_schema([SchemaVersion.V2_FLAT], None)
        self.assertEqual((s.schema_version, s.reason), (SchemaVersion.V2_FLAT, SelectionReason.SINGLE_SUPPORTED))
        both = coachcore.select_plan_schema([SchemaVersion.V1_CURRENT, SchemaVersion.V2_FLAT], None)
        self.assertEqual(both.reason, SelectionReason.SMALLEST_ESTIMATE)
        self.assertEqual(coachcore.select_plan_schema([], None), both)

    def test_transform_worked_example(self):
        t = self.coach.workouts().transform_plan(WORKED_EXAMPLE, V2, None)
        self.check_worked_example(t.plan)
        self.assertEqual(t.schema_version, SchemaVersion.V2_FLAT)
        self.assertTrue(t.ruleset_version.strip())

    def test_transform_fenced_and_wrapped(self):
        fenced = "Here is your plan for today:\n```json\n" + WORKED_EXAMPLE + "\n```\nHave a good workout!"
        self.check_worked_example(self.coach.workouts().transform_plan(fenced, V2, 1).plan)
        wrapped = ("<think>The user wants an upper body session; keep it to 30 minutes.</think>"
                   "<response>" + WORKED_EXAMPLE + "</response>")
        self.check_worked_example(self.coach.workouts().transform_plan(wrapped, V2, 1).plan)

    def test_transform_v1_current(self):
        t = self.coach.workouts().transform_plan(V1_EXAMPLE, V1, 3)
        self.check_worked_example(t.plan)
        self.assertEqual(t.schema_version, SchemaVersion.V1_CURRENT)

    def test_error_block_index_out_of_range(self):
        with self.assertRaises(CoachError.InvalidModelOutput) as cm:
            self.coach.workouts().transform_plan(BAD_BLOCK_INDEX, V2, None)
        e = cm.exception
        self.assertIsInstance(e, CoachError)
        self.assertEqual(e.code, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE)
        self.assertEqual(e.path, "exercises[1].blockIndex")
        self.assertTrue(e.detail.strip())
        # still usable after an error
        self.check_worked_example(self.coach.workouts().transform_plan(WORKED_EXAMPLE, V2, None).plan)

    def test_error_invalid_json(self):
        with self.assertRaises(CoachError.InvalidModelOutput) as cm:
            self.coach.workouts().transform_plan("I could not make a plan today, sorry.", V2, None)
        self.assertEqual(cm.exception.code, OutputErrorCode.INVALID_JSON)

    def test_determinism_with_seed(self):
        a = self.coach.workouts().transform_plan(WORKED_EXAMPLE, V2, 42).plan
        b = self.coach.workouts().transform_plan(WORKED_EXAMPLE, V2, 42).plan
        self.assertEqual(a, b)
        self.assertEqual(all_ids(a), all_ids(b))
        other = Coach.open_in_memory()
        self.assertEqual(all_ids(other.workouts().transform_plan(WORKED_EXAMPLE, V2, 42).plan), all_ids(a))
        c = self.coach.workouts().transform_plan(WORKED_EXAMPLE, V2, 43).plan
        self.assertNotEqual(c.id, a.id)

    def test_file_database_records_generations(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "coach.sqlite3")
            coach = Coach.open(path)
            self.assertEqual(coach.workouts().plan_generations(10), [])
            t = coach.workouts().transform_plan(WORKED_EXAMPLE, V2, 7)
            self.assertIsNotNone(t.generation_id)
            with self.assertRaises(CoachError.InvalidModelOutput):
                coach.workouts().transform_plan(BAD_BLOCK_INDEX, V2, 7)
            rows = coach.workouts().plan_generations(10)
            self.assertEqual(len(rows), 2)
            failed, ok = rows
            self.assertFalse(failed.succeeded)
            self.assertEqual(failed.error_code, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE)
            self.assertTrue(ok.succeeded)
            self.assertIsNone(ok.error_code)
            self.assertEqual(ok.id, t.generation_id)
            self.assertNotEqual(failed.id, ok.id)
            for r in rows:
                self.assertTrue(r.feature.strip())
                self.assertEqual(r.schema_version, SchemaVersion.V2_FLAT)
                self.assertEqual(r.selection_reason, SelectionReason.OVERRIDE)
                self.assertEqual(r.ruleset_version, t.ruleset_version)
                self.assertGreater(r.created_at_ms, 1_600_000_000_000)
            self.assertGreaterEqual(failed.created_at_ms, ok.created_at_ms)
            self.assertEqual([r.id for r in coach.workouts().plan_generations(1)], [failed.id])
            del coach, t, rows, failed, ok  # drop the object so the database is closed

            self.assertGreater(os.path.getsize(path), 0)
            coach = Coach.open(path)
            rows = coach.workouts().plan_generations(10)
            self.assertEqual(len(rows), 2)
            self.assertTrue(rows[1].succeeded)
            self.assertEqual(rows[0].error_code, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE)
            del coach

    def test_database_too_new(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "newer.sqlite3")
            coach = Coach.open(path)
            coach.workouts().transform_plan(WORKED_EXAMPLE, V2, 1)
            del coach  # closes the database (and checkpoints the WAL)
            with open(path, "rb") as f:
                data = bytearray(f.read())
            data[60:64] = (99).to_bytes(4, "big")  # PRAGMA user_version = 99
            with open(path, "wb") as f:
                f.write(data)
            with self.assertRaises(CoachError.DatabaseTooNew) as cm:
                Coach.open(path)
            self.assertEqual(cm.exception.found_version, 99)
            self.assertTrue(0 < cm.exception.supported_version < 99, cm.exception.supported_version)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), bytes(data), "newer database was modified")

    def test_encryption_with_a_key_and_with_a_wrong_key(self):
        """openEncrypted: a round trip with the key, a wrong key and no key refused with the file
        byte-identical. In a build without the feature `encryption` a key is EncryptionUnavailable
        and no file is made."""
        key = bytes(range(32))
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "secret.db")
            if not coachcore.encryption_available():
                with self.assertRaises(CoachError.EncryptionUnavailable):
                    Coach.open_encrypted(path, key)
                self.assertEqual(os.listdir(d), [], "no plaintext store was made")
                return
            coach = Coach.open_encrypted(path, key)
            self.assertTrue(coach.data().is_encrypted())
            coach.planner().apply([todo_op("Private-title")], None, "2026-11-18")
            del coach
            with open(path, "rb") as f:
                data = f.read()
            self.assertNotEqual(data[:16], b"SQLite format 3\x00")
            self.assertNotIn(b"Private-title", data)
            coach = Coach.open_encrypted(path, key)
            self.assertEqual([i.title for i in coach.planner().backlog(10)], ["Private-title"])
            del coach
            with open(path, "rb") as f:
                before = f.read()
            wrong = bytes(31) + b"\x01"
            with self.assertRaises(CoachError.WrongKey):
                Coach.open_encrypted(path, wrong)
            with self.assertRaises(CoachError.DatabaseEncrypted):
                Coach.open(path)
            with self.assertRaises(CoachError.InvalidArgument):
                Coach.open_encrypted(path, key[:16])
            with open(path, "rb") as f:
                self.assertEqual(f.read(), before, "a refused open changed the file")
            self.assertEqual(sorted(os.listdir(d)), ["secret.db"])
            # Rekey: afterwards only the new key opens it.
            coach = Coach.open_encrypted(path, key)
            new_key = bytes(reversed(range(32)))
            coach.data().rekey(new_key)
            del coach
            with self.assertRaises(CoachError.WrongKey):
                Coach.open_encrypted(path, key)
            self.assertEqual(len(Coach.open_encrypted(path, new_key).planner().backlog(10)), 1)

    def test_not_a_database(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "garbage.db")
            data = bytearray(((i * 37 + 11) % 251) for i in range(4096))
            head = b"this is not a sqlite database\n"
            data[: len(head)] = head
            with open(path, "wb") as f:
                f.write(data)
            with self.assertRaises(CoachError.NotADatabase):
                Coach.open(path)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), bytes(data), "garbage file was modified")

    def test_check_integrity_and_read_only_file(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "coach.sqlite3")
            coach = Coach.open(path)
            coach.workouts().transform_plan(WORKED_EXAMPLE, V2, 1)
            report = coach.data().check_integrity()
            self.assertTrue(report.ok)
            self.assertEqual(report.problems, [])
            del coach, report  # closes the database
            with open(path, "rb") as f:
                before = f.read()
            os.chmod(path, 0o444)
            try:
                coach = Coach.open(path)
                self.assertEqual(len(coach.workouts().plan_generations(10)), 1)
                # Recording a transform writes: refused with the typed error.
                with self.assertRaises(CoachError.ReadOnly):
                    coach.workouts().transform_plan(WORKED_EXAMPLE, V2, 2)
                del coach
            finally:
                os.chmod(path, 0o644)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), before, "the read-only file was modified")

    def test_service_objects_and_shutdown(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "coach.db")
            coach = Coach.open(path)
            planner = coach.planner()
            planner.apply([todo_op("Buy milk")], None, "2026-11-23")
            meals, data = coach.meals(), coach.data()
            coach.shutdown()
            coach.shutdown()  # a second time: nothing happens
            with self.assertRaises(CoachError.Closed):
                planner.backlog(5)
            with self.assertRaises(CoachError.Closed):
                coach.planner().backlog(5)
            with self.assertRaises(CoachError.Closed):
                meals.recipe("r")
            with self.assertRaises(CoachError.Closed):
                data.export_all()
            with self.assertRaises(CoachError.Closed):
                coach.model().set(None)
            del planner, meals, data, coach
            again = Coach.open(path)
            self.assertEqual([i.title for i in again.planner().backlog(5)], ["Buy milk"])
            # A service object keeps the database open after the Coach is released.
            planner = again.planner()
            del again
            self.assertEqual(len(planner.backlog(5)), 1)

    def test_export_import_erase_and_undo(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            a = Coach.open(os.path.join(d, "a.sqlite3"))
            a.workouts().transform_plan(WORKED_EXAMPLE, V2, 1)
            applied = a.planner().apply([todo_op("Buy chalk ünïcode"), todo_op("Stretch")],
                                         "py-key", TODAY)
            todo = applied.applied[0].id
            doc = a.data().export_all()
            parsed = json.loads(doc)
            self.assertEqual((parsed["format"], parsed["version"]), ("coachcore-export", 1))
            self.assertEqual(len(parsed["tables"]["planner_items"]["rows"]), 2)

            # Into a new file: the same data back, and the same document out.
            b = Coach.open(os.path.join(d, "b.sqlite3"))
            summary = b.data().import_all(doc)
            counts = {t.table: t.rows for t in summary.tables}
            self.assertEqual(counts["planner_items"], 2)
            self.assertEqual(counts["generation_metadata"], 1)
            self.assertEqual(summary.total_rows, sum(counts.values()))
            self.assertEqual(b.planner().item(ItemKind.TODO, todo).title, "Buy chalk ünïcode")
            self.assertEqual(b.planner().audit_log(10, None), a.planner().audit_log(10, None))
            def tables(document):
                return json.loads(document)["tables"]

            self.assertEqual(tables(b.data().export_all()), tables(doc))
            # Not empty any more: refused. Another version: refused.
            with self.assertRaises(CoachError.DatabaseNotEmpty):
                b.data().import_all(doc)
            parsed["version"] = 99
            with self.assertRaises(CoachError.InvalidArgument) as cm:
                Coach.open_in_memory().data().import_all(json.dumps(parsed))
            self.assertIn("unsupported version", str(cm.exception))

            # Undo in the copy: the items go; a second undo is a typed conflict.
            undone = b.planner().undo(applied.request_id)
            self.assertEqual(undone.request_id, "undo:" + applied.request_id)
            self.assertIsNone(b.planner().item(ItemKind.TODO, todo))
            with self.assertRaises(CoachError.UndoConflict) as cm:
                b.planner().undo(applied.request_id)
            self.assertIsNone(cm.exception.item_id)
            with self.assertRaises(CoachError.NotFound):
                b.planner().undo("no-such-request")

            # Erase: every row gone in one call; the file takes the import again.
            erased = a.data().erase_all()
            self.assertEqual(erased.total_rows, summary.total_rows)
            self.assertEqual(json.loads(a.data().export_all())["tables"]["planner_items"]["rows"], [])
            a.data().import_all(doc)
            self.assertEqual(tables(a.data().export_all()), tables(doc))
            del a, b


    # ---- suggestions (spec 004) ----

    def check_increases(self, changes):
        """The weight changes of s1: double-progression increases 135 -> 140 on sets 0 and 1."""
        incs = weight_changes(changes)
        self.assertEqual(sorted(c.draft.target_set_index for c in incs), [0, 1], changes)
        for c in incs:
            d = c.draft
            self.assertEqual(d.change_type, ChangeType.INCREASE_WEIGHT)
            self.assertEqual(d.rule_id, DOUBLE_PROGRESSION)
            self.assertEqual(d.source, SuggestionSource.RULE)
            self.assertEqual(d.old_value, ChangeValue.NUMBER(value=135.0))
            self.assertEqual(d.new_value, ChangeValue.NUMBER(value=140.0))
            self.assertTrue(d.new_value.is_NUMBER())
            self.assertEqual(d.new_value.value, 140.0)
            self.assertTrue(d.reasoning.strip())
            self.assertEqual(d.evidence.performance_ids, ["bench-s1", "bench-s0"])
        return sorted(incs, key=lambda c: c.draft.target_set_index)

    def test_suggest_catalog_and_plan_round_trip(self):
        self.coach.workouts().save_catalog_exercise(bench_exercise())
        self.coach.workouts().save_plan(push_plan())
        self.assertEqual(self.coach.workouts().plan(PLAN_ID), push_plan())
        self.assertIsNone(self.coach.workouts().plan("no-such-plan"))
        self.assertIsNone(self.coach.workouts().history("bench"), "never logged")
        renamed = push_plan()
        renamed.name = "Push day (heavy)"
        self.coach.workouts().save_plan(renamed)
        self.assertEqual(self.coach.workouts().plan(PLAN_ID).name, "Push day (heavy)")

    def test_suggest_double_progression_generated_once(self):
        setup_logged(self.coach)
        h = self.coach.workouts().history("bench")
        self.assertEqual((h.catalog_id, h.session_count), ("bench", 2))
        self.assertEqual((h.typical_lower_reps, h.typical_upper_reps), (12, 12))
        first = self.coach.suggestions().for_session("s1")
        self.check_increases(first)
        for c in first:
            self.assertEqual(c.decision, Decision.PENDING)
            self.assertEqual((c.session_id, c.plan_id, c.prescription_id, c.catalog_id), ("s1", PLAN_ID, RX_ID, "bench"))
            self.assertEqual(c.outcome, Outcome.NOT_EVALUATED)
            self.assertIsNone(c.decided_at_ms)
            self.assertFalse(c.user_override)
            self.assertTrue(c.id.strip())
        self.assertEqual(len({c.id for c in first}), len(first), "change ids are not distinct")
        self.assertEqual(self.coach.suggestions().for_session("s1"), first, "second call")

    def test_suggest_accept_applies_to_plan_once(self):
        setup_logged(self.coach)
        inc0, _ = self.check_increases(self.coach.suggestions().for_session("s1"))
        accepted = self.coach.suggestions().accept(inc0.id)
        self.assertEqual(accepted.id, inc0.id)
        self.assertEqual(accepted.decision, Decision.ACCEPTED)
        self.assertIsNotNone(accepted.decided_at_ms)
        self.assertEqual(accepted.draft, inc0.draft)
        plan = self.coach.workouts().plan(PLAN_ID)
        self.assertEqual([s.target_weight for s in plan.exercises[0].sets], [140.0, 135.0, 135.0])
        with self.assertRaises(CoachError.InvalidArgument) as cm:
            self.coach.suggestions().accept(inc0.id)
        self.assertTrue(cm.exception.detail.strip())
        self.assertEqual([s.target_weight for s in self.coach.workouts().plan(PLAN_ID).exercises[0].sets],
                         [140.0, 135.0, 135.0], "applied once")
        stored = {c.id: c for c in self.coach.suggestions().for_session("s1")}
        self.assertEqual(stored[inc0.id].decision, Decision.ACCEPTED)

    def test_suggest_defer_and_reject(self):
        setup_logged(self.coach)
        first = self.coach.suggestions().for_session("s1")
        inc0, inc1 = self.check_increases(first)
        self.coach.suggestions().accept(inc0.id)
        self.assertEqual(self.coach.suggestions().deferred(PLAN_ID), [])
        n = self.coach.suggestions().defer_pending("s1")
        self.assertEqual(n, len(first) - 1)
        self.assertEqual(self.coach.suggestions().defer_pending("s1"), 0, "nothing left pending")
        deferred = self.coach.suggestions().deferred(PLAN_ID)
        self.assertEqual(sorted(c.id for c in deferred), sorted(c.id for c in first if c.id != inc0.id))
        for c in deferred:
            self.assertEqual(c.decision, Decision.DEFERRED)
            self.assertIsNotNone(c.decided_at_ms)
        rejected = self.coach.suggestions().reject(inc1.id)
        self.assertEqual((rejected.id, rejected.decision), (inc1.id, Decision.REJECTED))
        self.assertNotIn(inc1.id, [c.id for c in self.coach.suggestions().deferred(PLAN_ID)])
        self.assertEqual(len(self.coach.suggestions().deferred(PLAN_ID)), n - 1)
        with self.assertRaises(CoachError.InvalidArgument):
            self.coach.suggestions().defer_change(inc1.id)
        self.assertEqual([s.target_weight for s in self.coach.workouts().plan(PLAN_ID).exercises[0].sets],
                         [140.0, 135.0, 135.0], "rejecting changes nothing")

    def test_suggest_defer_change(self):
        setup_logged(self.coach)
        first = self.coach.suggestions().for_session("s1")
        inc0, inc1 = self.check_increases(first)
        d = self.coach.suggestions().defer_change(inc1.id)
        self.assertEqual((d.id, d.decision), (inc1.id, Decision.DEFERRED))
        self.assertEqual([c.id for c in self.coach.suggestions().deferred(PLAN_ID)], [inc1.id])
        self.assertEqual(self.coach.suggestions().defer_pending("s1"), len(first) - 1)
        # a deferred change can still be accepted
        self.assertEqual(self.coach.suggestions().accept(inc1.id).decision, Decision.ACCEPTED)
        self.assertEqual(self.coach.workouts().plan(PLAN_ID).exercises[0].sets[1].target_weight, 140.0)

    def test_suggest_accept_change_edited_is_a_user_override(self):
        setup_logged(self.coach)
        inc0, _ = self.check_increases(self.coach.suggestions().for_session("s1"))
        edited = self.coach.suggestions().accept_edited(inc0.id, ChangeValue.NUMBER(value=145.0))
        self.assertEqual((edited.id, edited.decision, edited.user_override), (inc0.id, Decision.ACCEPTED, True))
        self.assertEqual(edited.draft.new_value, ChangeValue.NUMBER(value=145.0))
        self.assertEqual(self.coach.workouts().plan(PLAN_ID).exercises[0].sets[0].target_weight, 145.0)
        with self.assertRaises(CoachError.InvalidArgument):
            self.coach.suggestions().accept_edited(inc0.id, ChangeValue.NUMBER(value=150.0))
        h = self.coach.workouts().history("bench", WeightUnit.KG)
        self.assertAlmostEqual(h.last_e1rm, self.coach.workouts().history("bench").last_e1rm / 2.20462)

    def test_suggest_not_found_and_invalid(self):
        self.coach.workouts().save_catalog_exercise(bench_exercise())
        self.coach.workouts().save_plan(push_plan())
        with self.assertRaises(CoachError.NotFound) as cm:
            self.coach.workouts().log_session(session_log(0, plan_id="no-such-plan"))
        self.assertIsInstance(cm.exception, CoachError)
        self.assertTrue(cm.exception.detail.strip())
        with self.assertRaises(CoachError.NotFound):
            self.coach.suggestions().for_session("s0")  # nothing was stored
        with self.assertRaises(CoachError.NotFound):
            self.coach.suggestions().accept("no-such-change")
        with self.assertRaises(CoachError.NotFound):
            self.coach.suggestions().reject("no-such-change")
        with self.assertRaises(CoachError.NotFound):
            self.coach.suggestions().deferred("no-such-plan")
        with self.assertRaises(CoachError.NotFound):
            self.coach.suggestions().defer_pending("no-such-session")
        self.coach.workouts().log_session(session_log(0))
        with self.assertRaises(CoachError.InvalidArgument):
            self.coach.workouts().log_session(session_log(0))  # same id twice
        self.assertEqual(self.coach.workouts().history("bench").session_count, 1)

    def test_suggest_evaluate_exercise(self):
        plan = push_plan()
        ctx = ExerciseContext(plan=plan.settings, exercise=bench_exercise(), prescription=plan.exercises[0],
                              current=performance(1), previous=[performance(0)], history=None)
        now = T0_MS + 2 * DAY_MS
        drafts = [d for d in coachcore.evaluate_exercise(ctx, [], now) if d.property == ChangeProperty.WEIGHT]
        self.assertEqual([d.target_set_index for d in drafts], [0, 1], drafts)
        for d in drafts:
            self.assertEqual((d.change_type, d.rule_id), (ChangeType.INCREASE_WEIGHT, DOUBLE_PROGRESSION))
            self.assertEqual(d.new_value, ChangeValue.NUMBER(value=140.0))
        # the same drafts as the stored suggestions of the same two sessions
        setup_logged(self.coach)
        stored = sorted(weight_changes(self.coach.suggestions().for_session("s1")), key=lambda c: c.draft.target_set_index)
        self.assertEqual([c.draft for c in stored], drafts)
        # stored changes passed as `existing` block similar drafts for 7 days
        created = stored[0].created_at_ms
        blocked = coachcore.evaluate_exercise(ctx, stored, created + DAY_MS)
        self.assertEqual([d for d in blocked if d.change_type == ChangeType.INCREASE_WEIGHT], [])
        later = coachcore.evaluate_exercise(ctx, stored, created + 8 * DAY_MS)
        self.assertEqual([d for d in later if d.property == ChangeProperty.WEIGHT], drafts)

    def test_suggest_file_database_survives_reopen(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "coach.sqlite3")
            coach = Coach.open(path)
            setup_logged(coach)
            first = coach.suggestions().for_session("s1")
            inc0, _ = self.check_increases(first)
            coach.suggestions().accept(inc0.id)
            del coach
            coach = Coach.open(path)
            again = {c.id: c for c in coach.suggestions().for_session("s1")}
            self.assertEqual(sorted(again), sorted(c.id for c in first))
            self.assertEqual(again[inc0.id].decision, Decision.ACCEPTED)
            self.assertEqual(coach.workouts().plan(PLAN_ID).exercises[0].sets[0].target_weight, 140.0)
            self.assertEqual(coach.workouts().history("bench").session_count, 2)
            del coach

    # ---- an app-provided language model (foreign LanguageModel) ----

    def check_ai_run(self, changes, fake):
        """The fake's exercise-level rest increase was kept and its set-9 suggestion dropped."""
        ai = ai_changes(changes)
        self.assertEqual(len(ai), 1, changes)
        d = ai[0].draft
        self.assertEqual(d.source, SuggestionSource.AI)
        self.assertIsNone(d.rule_id)
        self.assertEqual(d.change_type, ChangeType.INCREASE_REST)
        self.assertEqual(d.property, ChangeProperty.REST)
        self.assertIsNone(d.target_set_index, "exercise-level rest")
        self.assertEqual(d.old_value, ChangeValue.NUMBER(value=120.0))
        self.assertEqual(d.new_value, ChangeValue.NUMBER(value=float(AI_REST)))
        self.assertEqual(d.reasoning, AI_REASONING)
        self.assertIn("bench-s1", d.evidence.performance_ids)
        self.assertEqual(ai[0].prescription_id, RX_ID)
        self.assertEqual([c for c in changes if c.draft.target_set_index == 9], [], "set 9 does not exist")
        self.assertEqual(weight_changes(changes), [], "mid-range: no weight change")
        self.assertTrue(any(c.draft.source == SuggestionSource.RULE for c in changes), "the rules still run")
        self.assertGreaterEqual(len(fake.requests), 2, "a tool call and the final answer")

    def test_ai_foreign_model_tool_loop(self):
        setup_mid_range(self.coach)
        fake = FakeModel()
        self.coach.model().set(fake)
        changes = self.coach.suggestions().for_session("s1")
        self.check_ai_run(changes, fake)
        self.assertGreater(fake.info_calls, 0)
        reqs = fake.requests
        for r in reqs:
            self.assertIsNotNone(r.json_schema, "every request carries the step schema")
            self.assertIn("suggestions", r.json_schema)
            self.assertGreater(r.max_tokens, 0)
        first = reqs[0].messages
        self.assertEqual([m.role for m in first], [ChatRole.SYSTEM, ChatRole.USER])
        self.assertIn("Bench Press", first[1].content, "the prompt describes the exercise")
        self.assertIn("getRecentExercisePerformances", reqs[0].json_schema, "the first step offers the tool")
        second = reqs[1].messages
        self.assertEqual(len(second), 4, [m.content for m in second])
        self.assertEqual((second[2].role, second[2].content), (ChatRole.ASSISTANT, TOOL_CALL))
        result = second[3]
        self.assertEqual(result.role, ChatRole.USER)
        self.assertIn("getRecentExercisePerformances result", result.content)
        # s0's bench, 3 x 10 at 135 (in whatever compact form the library writes it).
        self.assertIn("135", result.content, "the tool result holds the performance data")
        self.assertIn("10", result.content, "the tool result holds the performance data")
        self.assertNotIn("getRecentExercisePerformances", reqs[1].json_schema, "a used tool is not offered again")
        # The invalid suggestion went back for repair with the validator's line.
        self.assertTrue(any("suggestions[1].targetSetIndex" in m.content for r in reqs[2:] for m in r.messages),
                        [m.content for m in reqs[-1].messages])
        # Stored: asking again returns the same changes without calling the model.
        n = len(reqs)
        self.assertEqual(self.coach.suggestions().for_session("s1"), changes)
        self.assertEqual(len(fake.requests), n)

    def test_ai_foreign_model_error_leaves_rule_suggestions(self):
        setup_mid_range(self.coach)
        fake = FakeModel(fail=LlmError.Backend(detail="fake backend outage"))
        self.coach.model().set(fake)
        logs = CollectingLogListener()
        coachcore.set_log_listener(logs, LogLevel.INFO)
        try:
            changes = self.coach.suggestions().for_session("s1")
        finally:
            coachcore.set_log_listener(None, LogLevel.INFO)
        self.assertGreaterEqual(len(fake.requests), 1, "the model was asked")
        self.assertTrue(changes, "the rules' suggestions")
        self.assertEqual(ai_changes(changes), [], changes)
        self.assertTrue(all(c.draft.source == SuggestionSource.RULE and c.draft.rule_id for c in changes), changes)
        # The typed error crossed the boundary as itself (not as an unexpected callback error).
        errors = [m for (_, t, m) in logs.records if "fake backend outage" in m]
        self.assertTrue(errors, logs.records)
        self.assertFalse(any("app model failed" in m for m in errors), errors)
        # Still usable: the next session with a working model gets the AI change.
        self.coach.workouts().log_session(session_log(2, reps=MID_REPS))
        ok = FakeModel()
        self.coach.model().set(ok)
        self.assertEqual(len(ai_changes(self.coach.suggestions().for_session("s2"))), 1)

    def test_ai_foreign_model_streams_to_the_listener_if_given(self):
        setup_mid_range(self.coach)
        fake = FakeModel(stream=True)
        self.coach.model().set(fake)
        changes = self.coach.suggestions().for_session("s1")
        self.check_ai_run(changes, fake)
        self.assertEqual(len(fake.listener_passed), len(fake.requests))
        # Every listener the library passed received the whole reply in pieces without failing.
        self.assertEqual(len(fake.streamed), sum(fake.listener_passed))

    def test_ai_foreign_model_checks_the_cancel_token(self):
        setup_mid_range(self.coach)
        fake = FakeModel(check_cancel=True)
        self.coach.model().set(fake)
        changes = self.coach.suggestions().for_session("s1")
        self.check_ai_run(changes, fake)
        self.assertEqual(len(fake.cancelled), len(fake.requests))
        self.assertEqual(set(fake.cancelled), {False}, "nobody cancelled the run")
        token = CancelToken()
        self.assertFalse(token.is_cancelled())
        token.cancel()
        self.assertTrue(token.is_cancelled())

    def test_ai_log_listener_gets_model_records_without_user_text(self):
        setup_mid_range(self.coach)
        fake = FakeModel(name="fake-python-model")
        self.coach.model().set(fake)
        logs = CollectingLogListener()
        coachcore.set_log_listener(logs, LogLevel.INFO)
        try:
            self.check_ai_run(self.coach.suggestions().for_session("s1"), fake)
        finally:
            coachcore.set_log_listener(None, LogLevel.INFO)
        llm = [m for (_, t, m) in logs.records if t == "coachcore::llm"]
        self.assertTrue(any("model=" in m for m in llm), logs.records)
        self.assertTrue(any("model=fake-python-model" in m for m in llm), llm)
        self.assertFalse(any(level == LogLevel.DEBUG for (level, _, _) in logs.records), "Info and above only")
        for (_, t, m) in logs.records:
            self.assertTrue(t.startswith("coachcore"), t)
            for text in PRIVATE_TEXTS:
                self.assertNotIn(text, m, f"user text in the log ({t})")
        # After set_log_listener(None) nothing more arrives.
        n = len(logs.records)
        self.coach.workouts().log_session(session_log(2, reps=MID_REPS))
        self.coach.suggestions().for_session("s2")
        self.assertGreater(len(fake.requests), 0)
        self.assertEqual(len(logs.records), n)

    def test_ai_use_language_model_none_turns_ai_off(self):
        setup_mid_range(self.coach)
        fake = FakeModel()
        self.coach.model().set(fake)
        self.check_ai_run(self.coach.suggestions().for_session("s1"), fake)
        n = len(fake.requests)
        self.coach.model().set(None)
        self.coach.workouts().log_session(session_log(2, reps=MID_REPS))
        changes = self.coach.suggestions().for_session("s2")
        self.assertEqual(ai_changes(changes), [], changes)
        self.assertEqual(len(fake.requests), n, "the model is no longer asked")

    # ---- the assistant ----

    def test_assistant_send_message_events_and_wait(self):
        fake = FakeModel(replies=(PROPOSAL, ASSISTANT_SUMMARY))
        self.coach.model().set(fake)
        listener = CollectingAssistantListener()
        task = self.coach.assistant().send(plan_request("something about mom"), listener)
        result = task.wait()
        self.assertTrue(task.is_finished())
        self.assertEqual(task.wait(), result, "wait returns the same result again")
        self.assertEqual(result.decision, RouteDecision.PLAN)
        self.assertEqual([(o.op, o.kind, o.title, o.scheduled_for, o.priority) for o in result.operations],
                         [(OpType.CREATE, ItemKind.TODO, "Call mom", "2026-11-21", Priority.HIGH)])
        self.assertEqual(result.operations[0].recurrence, Recurrence(kind=RecurrenceType.NONE), "repaired")
        self.assertEqual(result.summary, ASSISTANT_SUMMARY)
        self.assertEqual(result.invalid, [])
        events = listener.events
        self.assertEqual([event_name(e) for e in events],
                         ["stage", "stage", "ops", "stage", "summary", "result", "done"])
        self.assertEqual([e.stage for e in events if e.is_stage()],
                         [AssistantStage.PROPOSING, AssistantStage.VALIDATING, AssistantStage.SUMMARIZING])
        ops = events[2]
        self.assertEqual((ops.valid_count, ops.invalid_count, ops.operations), (1, 0, result.operations))
        self.assertEqual(events[4].text, ASSISTANT_SUMMARY)
        self.assertEqual(events[5].result, result)
        self.assertEqual(len(fake.requests), 2, "a proposal and a summary")
        self.assertIsNotNone(fake.requests[0].json_schema, "the proposal is schema-constrained")
        self.assertEqual(self.coach.planner().audit_log(10, None), [], "a message applies nothing")

    def test_a_chat_answer_streams_text_deltas_then_the_authoritative_summary(self):
        self.coach.model().set(FakeModel(replies=(RAW_CHAT,), stream=True))
        listener = CollectingAssistantListener()
        result = self.coach.assistant().send(chat_request("tips for tonight?"), listener).wait()
        self.assertEqual(result.summary, CHAT_SUMMARY)
        self.assertEqual(shape(listener.events), ["textDelta", "summary", "done"])
        self.assertGreater(len(deltas(listener.events)), 3, "streamed in pieces")
        self.assertEqual("".join(deltas(listener.events)), RAW_CHAT, "the deltas are the model's text")
        self.assertEqual(listener.events[-2].text, CHAT_SUMMARY, "the summary replaces them")
        # A plan is not streamed.
        self.coach.model().set(FakeModel(replies=(PROPOSAL, ASSISTANT_SUMMARY), stream=True))
        listener = CollectingAssistantListener()
        self.coach.assistant().send(plan_request("something about mom"), listener).wait()
        self.assertEqual(deltas(listener.events), [])

    def test_an_async_model_answers_streams_and_its_json_is_validated_and_repaired(self):
        self.coach.model().set_async_model(AsyncFakeModel())
        self.assertEqual(self.coach.model().info().name, "async-python-model")
        listener = CollectingAssistantListener()
        result = run_on_a_loop(lambda: self.coach.assistant().send_async(chat_request("tips?"), listener))
        self.assertEqual(result.summary, CHAT_SUMMARY)
        self.assertEqual(deltas(listener.events), ["Drink ", "**water** ", "and ", "sleep ", "well ", "tonight."])
        # Plan mode: an unreadable first answer, then the proposal (the one repair), then the summary.
        planner = AsyncFakeModel(replies=("I would add a call.", PROPOSAL, ASSISTANT_SUMMARY))
        self.coach.model().set_async_model(planner)
        plan = run_on_a_loop(lambda: self.coach.assistant().send_async(plan_request("something about mom")))
        self.assertEqual([o.title for o in plan.operations], ["Call mom"])
        self.assertEqual(plan.summary, ASSISTANT_SUMMARY)
        self.assertEqual(planner.calls, 3, "proposal, repair, summary")

    def test_an_async_model_that_raises_fails_the_message(self):
        self.coach.model().set_async_model(AsyncFakeModel(fail=LlmError.Backend("the system model is not ready")))
        with self.assertRaises(CoachError.ModelFailure) as e:
            run_on_a_loop(lambda: self.coach.assistant().send_async(chat_request("tips?")))
        self.assertIn("not ready", e.exception.detail)
        self.coach.model().set_async_model(AsyncFakeModel(fail=ValueError("not an LlmError")))
        with self.assertRaises(CoachError.ModelFailure) as e:
            run_on_a_loop(lambda: self.coach.assistant().send_async(chat_request("tips?")))
        self.assertIn("not an LlmError", e.exception.detail)

    def test_cancelling_the_message_cancels_the_async_models_task(self):
        import asyncio

        model = AsyncFakeModel(hang=True)
        self.coach.model().set_async_model(model)

        async def wait_for(event):
            deadline = time.monotonic() + 30
            while not event.is_set():
                self.assertLess(time.monotonic(), deadline, "timed out")
                await asyncio.sleep(0.01)

        async def cancel_the_asyncio_task():
            task = asyncio.ensure_future(self.coach.assistant().send_async(chat_request("tips?")))
            await wait_for(model.started)
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task
            await wait_for(model.cancelled)

        run_on_a_loop(cancel_the_asyncio_task)

        again = AsyncFakeModel(hang=True)
        self.coach.model().set_async_model(again)

        async def cancel_the_handle():
            handle = self.coach.assistant().send(chat_request("tips?"), None)
            await wait_for(again.started)
            handle.cancel()
            with self.assertRaises(CoachError.Cancelled):
                await asyncio.get_running_loop().run_in_executor(None, handle.wait)
            await wait_for(again.cancelled)

        run_on_a_loop(cancel_the_handle)

    def test_async_message_returns_its_result_and_cancelling_the_asyncio_task_stops_it(self):
        import asyncio

        self.coach.model().set(FakeModel(replies=(PROPOSAL, ASSISTANT_SUMMARY)))
        result = asyncio.run(self.coach.assistant().send_async(plan_request("something about mom")))
        self.assertEqual(result.summary, ASSISTANT_SUMMARY)
        self.assertEqual([o.title for o in result.operations], ["Call mom"])

        model = BlockingModel()
        self.coach.model().set(model)
        listener = CollectingAssistantListener()

        async def cancel_while_the_model_runs():
            task = asyncio.ensure_future(self.coach.assistant().send_async(plan_request("something about mom"), listener))
            started = await asyncio.get_running_loop().run_in_executor(None, model.started.wait, 30)
            self.assertTrue(started, "the model never ran")
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task

        asyncio.run(cancel_while_the_model_runs())
        # The Rust future was dropped: the message is cancelled and its listener gets `done`.
        deadline = time.monotonic() + 30
        while not (listener.events and event_name(listener.events[-1]) == "done"):
            self.assertLess(time.monotonic(), deadline, "the Rust work was not cancelled")
            time.sleep(0.005)
        self.assertNotIn("result", [event_name(e) for e in listener.events])

    def test_assistant_listener_that_always_throws(self):
        class Throwing(AssistantListener):
            calls = 0

            def on_event(self, event):
                Throwing.calls += 1
                raise RuntimeError("listener bug")

        self.coach.model().set(FakeModel(replies=(PROPOSAL, ASSISTANT_SUMMARY)))
        task = self.coach.assistant().send(plan_request("something about mom"), Throwing())
        result = task.wait()  # returns: the message goes on without its listener
        self.assertEqual(result.summary, ASSISTANT_SUMMARY)
        self.assertEqual(len(result.operations), 1)
        self.assertEqual(Throwing.calls, 1, "called once, then ignored")
        self.assertTrue(task.is_finished())

    def test_assistant_dropping_the_task_cancels_it(self):
        model = BlockingModel()
        self.coach.model().set(model)
        listener = CollectingAssistantListener()
        task = self.coach.assistant().send(plan_request("something about mom"), listener)
        self.assertTrue(model.started.wait(30), "the model never ran")
        del task  # the last reference: the handle is dropped and the message cancelled
        deadline = time.monotonic() + 30
        while not listener.events or event_name(listener.events[-1]) != "done":
            self.assertLess(time.monotonic(), deadline, "not cancelled")
            time.sleep(0.005)

    def test_model_lifecycle_errors(self):
        self.assertIsNone(self.coach.model().info())
        self.assertFalse(self.coach.model().unload())
        with self.assertRaises(CoachError.ModelUnusable):
            self.coach.model().load("/no/such/model.gguf", ModelOptions(context_tokens=2048, threads=2), None)
        huge = os.path.join(REPO, "tests", "data", "models", "huge-kv-header.bin")
        with self.assertRaises(CoachError.InsufficientMemory) as cm:
            self.coach.model().load(huge, ModelOptions(context_tokens=2048, threads=2), None)
        self.assertGreater(cm.exception.needed_bytes, cm.exception.available_bytes)
        self.coach.model().set(FakeModel())
        info = self.coach.model().info()
        self.assertFalse(info.embedded)
        self.assertTrue(self.coach.model().unload())
        self.assertIsNone(self.coach.model().info())

    def test_model_availability_without_loading(self):
        # One status per reason, without a Coach. The bindings' library is built without the engine
        # (bindings/generate.sh: default features), so a good file is ENGINE_MISSING here; with
        # the engine it is AVAILABLE (tests/it/model_lifecycle.rs).
        models = os.path.join(REPO, "tests", "data", "models")
        tiny = os.path.join(models, "tiny-llama.bin")
        plenty = ModelCheckOptions(context_tokens=2048, available_bytes=1 << 40)
        S = ModelAvailabilityStatus
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            text = os.path.join(d, "notes.gguf")
            with open(text, "w") as f:
                f.write("not a model at all")
            cut = os.path.join(d, "cut.gguf")
            with open(tiny, "rb") as src, open(cut, "wb") as dst:
                dst.write(src.read()[:300])  # an interrupted download: the tensor data is missing
            cases = [
                (os.path.join(d, "absent.gguf"), S.FILE_MISSING),
                (d, S.UNREADABLE),
                (text, S.NOT_GGUF),
                (cut, S.NOT_GGUF),
                (os.path.join(models, "tiny-mamba.bin"), S.UNSUPPORTED_ARCHITECTURE),
                (tiny, S.ENGINE_MISSING),
            ]
            for path, status in cases:
                a = coachcore.model_availability(path, plenty)
                self.assertEqual(a.status, status, path)
                self.assertEqual(a.detail is None, status == S.AVAILABLE, path)
        a = coachcore.model_availability(tiny, plenty)
        self.assertEqual((a.architecture, a.gguf_version, a.tensor_count, a.parameter_count), ("llama", 3, 1, 8))
        self.assertEqual(a.file_bytes, os.path.getsize(tiny))
        # Memory: the device's reading (the huge header never fits), or the figure given.
        a = coachcore.model_availability(os.path.join(models, "huge-kv-header.bin"))
        self.assertEqual(a.status, S.INSUFFICIENT_MEMORY)
        self.assertEqual(a.context_tokens, 2048)
        self.assertGreater(a.needed_bytes, a.available_bytes)
        a = coachcore.model_availability(tiny, ModelCheckOptions(context_tokens=2048, available_bytes=1000))
        self.assertEqual((a.status, a.available_bytes), (S.INSUFFICIENT_MEMORY, 1000))
        self.assertGreater(a.needed_bytes, 1000)

    def test_assistant_dry_run(self):
        ops = [todo_op("Call mom", "2026-11-21", Priority.HIGH), todo_op("Buy milk"), daily_habit("Stretch", TODAY),
               PlannerOperation(op=OpType.COMPLETE, kind=ItemKind.TODO, id="no-such-todo")]
        v = self.coach.planner().dry_run(ops, TODAY)
        self.assertEqual((v.valid_count, v.invalid_count), (3, 1))
        self.assertEqual([c.valid for c in v.checks], [True, True, True, False])
        self.assertEqual(v.checks[0].operation.recurrence, Recurrence(kind=RecurrenceType.NONE))
        self.assertTrue(v.checks[0].repairs)
        self.assertIn("unknown_id", [e.code for e in v.checks[3].errors])
        self.assertEqual(self.coach.planner().backlog(10), [], "nothing was applied")
        with self.assertRaises(CoachError.InvalidArgument):
            self.coach.planner().dry_run(ops, "next friday")

    def test_assistant_apply_week_and_audit_log(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            coach = Coach.open(os.path.join(d, "planner.sqlite3"))
            ops = [todo_op("Call mom", "2026-11-21", Priority.HIGH), todo_op("Buy milk"),
                   daily_habit("Stretch", TODAY)]
            r = coach.planner().apply(ops, "key-1", TODAY)
            self.assertFalse(r.replayed)
            self.assertRegex(r.request_id, UUID_LIKE)
            self.assertEqual([(a.index, a.op, a.kind) for a in r.applied],
                             [(0, OpType.CREATE, ItemKind.TODO), (1, OpType.CREATE, ItemKind.TODO),
                              (2, OpType.CREATE, ItemKind.HABIT)])
            week = coach.planner().week(TODAY)
            self.assertEqual((week.week_start, week.week_end), ("2026-11-16", "2026-11-22"))
            self.assertEqual([(e.date, e.item.title) for e in week.entries],
                             [("2026-11-20", "Stretch"), ("2026-11-21", "Stretch"), ("2026-11-21", "Call mom"),
                              ("2026-11-22", "Stretch")])
            self.assertEqual([i.title for i in coach.planner().backlog(10)], ["Buy milk"])
            item = coach.planner().item(ItemKind.TODO, r.applied[0].id)
            self.assertEqual((item.title, item.priority, item.completed), ("Call mom", Priority.HIGH, False))
            self.assertIsNone(coach.planner().item(ItemKind.GOAL, r.applied[0].id))
            log = coach.planner().audit_log(10, None)
            self.assertEqual(len(log), 3)
            self.assertEqual([a.item_id for a in reversed(log)], [a.id for a in r.applied])
            self.assertTrue(all(a.request_id == r.request_id for a in log))
            self.assertEqual(coach.planner().audit_log(10, log[0].seq), log[1:])
            with self.assertRaises(CoachError.InvalidArgument):
                coach.planner().week("2026-02-30")
            del coach

    def test_assistant_idempotent_replay_and_conflict(self):
        ops = [todo_op("Call mom", "2026-11-21")]
        first = self.coach.planner().apply(ops, "key-7", TODAY)
        again = self.coach.planner().apply(ops, "key-7", TODAY)
        self.assertTrue(again.replayed)
        self.assertEqual((again.request_id, again.applied), (first.request_id, first.applied))
        self.assertEqual(len(self.coach.planner().audit_log(10, None)), 1, "applied once")
        with self.assertRaises(CoachError.IdempotencyConflict) as cm:
            self.coach.planner().apply([todo_op("Call dad")], "key-7", TODAY)
        self.assertIsInstance(cm.exception, CoachError)
        with self.assertRaises(CoachError.OperationsRejected) as cm:
            self.coach.planner().apply([todo_op("Buy milk"), PlannerOperation(op=OpType.DELETE, kind=ItemKind.EVENT,
                                                                        id="no-such-event")], None, TODAY)
        self.assertEqual((cm.exception.invalid_count, cm.exception.total_count), (1, 2))
        self.assertEqual(self.coach.planner().backlog(10), [], "all or nothing")
        self.assertEqual(len(self.coach.planner().audit_log(10, None)), 1)

    def test_assistant_cancel(self):
        model = BlockingModel()
        self.coach.model().set(model)
        listener = CollectingAssistantListener()
        task = self.coach.assistant().send(plan_request("something about mom"), listener)
        while not model.started.wait(0.01):
            self.assertFalse(task.is_finished(), "ended before the model ran")
        self.assertFalse(task.is_finished())
        task.cancel()
        with self.assertRaises(CoachError.Cancelled):
            task.wait()
        self.assertTrue(task.is_finished())
        with self.assertRaises(CoachError.Cancelled):
            task.wait()
        names = [event_name(e) for e in listener.events]
        self.assertEqual(names[-1], "done")
        self.assertEqual(names.count("done"), 1)
        self.assertNotIn("result", names)

    def test_assistant_without_a_model(self):
        listener = CollectingAssistantListener()
        task = self.coach.assistant().send(plan_request("something about mom"), listener)
        with self.assertRaises(CoachError.InvalidArgument):
            task.wait()
        self.assertEqual([event_name(e) for e in listener.events], ["done"])


    # ---- meal planning ----

    def test_meals_plan_without_a_model_then_confirm_log_and_history(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            # The starter recipes are the only ones: no built-in recipes.
            coach = Coach.open_with_options(os.path.join(d, "meals.sqlite3"),
                                            OpenOptions(builtin_recipes=False))
            text = starter_recipes_json()
            self.assertEqual(coach.meals().import_recipes(text), len(json.loads(text)))
            # Days out of order: the plan is in date order, meals breakfast first.
            request = meal_request([
                ("2026-11-24", day_meals(dinner=meal_slot(4, ["chicken"]), breakfast=meal_slot(2, ["eggs"]))),
                ("2026-11-23", day_meals(dinner=meal_slot(2, note="something with rice"), breakfast=meal_slot(1))),
            ], excluded=["peanut"])
            listener = CollectingMealListener()
            task = coach.meals().plan(request, listener)
            self.assertRegex(task.id(), UUID_LIKE)
            job = task.wait()
            self.assertTrue(task.is_finished())
            self.assertEqual(task.wait(), job, "wait returns the same envelope again")
            self.assertEqual((job.status, job.error_code), (JobStatus.COMPLETE, None))
            self.assertEqual((job.processed_slots, job.total_slots), (4, 4))
            result = job.result
            self.assertEqual(result.slot_failures_count, 0)
            self.assertEqual([day.date for day in result.days], ["2026-11-23", "2026-11-24"])
            selections = [s.selection for day in result.days for s in (day.meals.breakfast, day.meals.dinner)]
            for sel in selections:
                self.assertEqual(sel.picked_by, PickedBy.FALLBACK)
                self.assertIn(FALLBACK_WARNING, sel.warnings)
                self.assertEqual(sel.source, RecipeSource.STAGE, "a core pick is staged")
                self.assertLessEqual(len(sel.alternatives), 2)
            self.assertEqual(len({s.recipe_id for s in selections}), 4)
            self.assertEqual(selections[3].matched_tags, ["chicken"])
            staged = coach.meals().recipe(selections[3].recipe_id)
            self.assertEqual(staged.source, RecipeSource.STAGE)
            self.assertIsNotNone(staged.expires_ms)
            self.assertIn("chicken", coach.meals().recipe(staged.origin_id).tags)
            # Events: progress after each slot, completed last with the same plan.
            events = listener.events
            self.assertEqual([(e.processed_slots, e.total_slots) for e in events[:4]],
                             [(1, 4), (2, 4), (3, 4), (4, 4)])
            self.assertTrue(all(e.is_progress() for e in events[:4]))
            self.assertEqual(len(events), 5)
            done = events[4]
            self.assertTrue(done.is_completed())
            self.assertEqual((done.status, done.slot_failures_count, done.result),
                             (PlanOutcome.COMPLETED, 0, result))
            # Read back by id, also from a new Coach on the same file.
            del coach
            coach = Coach.open(os.path.join(d, "meals.sqlite3"))
            back = coach.meals().job(task.id())
            self.assertEqual((back.id, back.status, back.result), (task.id(), JobStatus.COMPLETE, result))
            self.assertIsNone(coach.meals().job("no-such-job"))
            # Confirming records the meals and keeps the staged copies.
            self.assertEqual(coach.meals().confirm(result), 4)
            self.assertIsNone(coach.meals().recipe(selections[3].recipe_id).expires_ms)
            history = coach.meals().history("2026-11-23", "2026-11-24")
            self.assertEqual([(h.date, h.meal_type) for h in history],
                             [("2026-11-23", MealType.BREAKFAST), ("2026-11-23", MealType.DINNER),
                              ("2026-11-24", MealType.BREAKFAST), ("2026-11-24", MealType.DINNER)])
            self.assertEqual(history[3].recipe_id, staged.origin_id, "history names the core recipe")
            logged = coach.meals().log(MealLog(date="2026-11-25", meal_type=MealType.LUNCH,
                                            recipe_id="core-greek-salad"))
            self.assertEqual((logged.title, logged.recipe_id), ("Greek Village Salad", "core-greek-salad"))
            self.assertEqual(len(coach.meals().history("2026-11-23", "2026-11-25")), 5)
            with self.assertRaises(CoachError.NotFound):
                coach.meals().log(MealLog(date="2026-11-25", meal_type=MealType.LUNCH, recipe_id="core-nope"))
            with self.assertRaises(CoachError.InvalidArgument):
                coach.meals().history("2026-11-23", "yesterday")
            del coach

    def test_meals_shopping_list_and_pantry_staples(self):
        meals = self.coach.meals()
        meals.import_recipes(starter_recipes_json())
        # Shakshuka (serves 3) for 6, paella (serves 6) for 6: both pinned.
        shakshuka = MealSlotRequest(servings=6, tags=[], note=None, is_meal_prep=False, repeat=None,
                                    pinned_recipe_id="core-shakshuka")
        paella = MealSlotRequest(servings=6, tags=[], note=None, is_meal_prep=False, repeat=None,
                                 pinned_recipe_id="core-paella")
        job = meals.plan(meal_request([("2026-12-05", day_meals(breakfast=shakshuka)),
                                       ("2026-12-06", day_meals(dinner=paella))]), None).wait()
        self.assertEqual(job.status, JobStatus.COMPLETE)
        self.assertEqual(meals.set_pantry_staples(["salt", " Salt ", "olive oil"]), ["salt", "olive oil"])
        self.assertEqual(meals.pantry_staples(), ["salt", "olive oil"])
        shopping = meals.shopping_list(job.id)
        self.assertEqual(shopping.dates, ["2026-12-05", "2026-12-06"])
        self.assertEqual(shopping.sections[0].section, StoreSection.PRODUCE)
        garlic = shopping.sections[0].items[0]
        # 4 cloves (shakshuka for 6) + 3 cloves (paella for 6).
        self.assertEqual((garlic.name, [(a.quantity, a.unit) for a in garlic.amounts]),
                         ("garlic", [(7.0, "cloves")]))
        self.assertEqual([(m.date, m.meal_type, m.recipe_title) for m in garlic.meals],
                         [("2026-12-05", MealType.BREAKFAST, "Shakshuka"),
                          ("2026-12-06", MealType.DINNER, "Seafood Paella")])
        self.assertEqual([i.name for i in shopping.skipped_staples], ["olive oil", "salt"])
        self.assertTrue(shopping.skipped_staples[1].to_taste)
        self.assertEqual(shopping.missing_recipes, [])
        sunday = meals.shopping_list(job.id, ShoppingListOptions(days=["2026-12-06"], include_staples=True))
        names = [i.name for s in sunday.sections for i in s.items]
        self.assertIn("olive oil", names)
        self.assertNotIn("eggs", names)
        with self.assertRaises(CoachError.NotFound):
            meals.shopping_list("no-such-job")
        with self.assertRaises(CoachError.InvalidArgument):
            meals.shopping_list(job.id, ShoppingListOptions(days=["2026-12-07"], include_staples=False))
        with self.assertRaises(CoachError.InvalidArgument):
            meals.set_pantry_staples(["x" * 81])
        self.assertEqual(meals.pantry_staples(), ["salt", "olive oil"], "a refused list changes nothing")

    def test_meals_stage_keep_and_cleanup(self):
        self.coach.meals().import_recipes(starter_recipes_json())
        staged = self.coach.meals().stage_recipe("core-shakshuka")
        self.assertEqual((staged.source, staged.origin_id, staged.title),
                         (RecipeSource.STAGE, "core-shakshuka", "Shakshuka"))
        self.assertIsNotNone(staged.expires_ms)
        self.assertEqual(self.coach.meals().recipe(staged.id), staged)
        other = self.coach.meals().stage_recipe("core-menemen")
        self.coach.meals().keep_staged(staged.id)
        self.assertIsNone(self.coach.meals().recipe(staged.id).expires_ms)
        self.assertEqual(self.coach.meals().cleanup_staged(), 0, "nothing is 72 h old yet")
        self.assertIsNotNone(self.coach.meals().recipe(other.id))
        self.assertIsNone(self.coach.meals().recipe("core-nope"))
        with self.assertRaises(CoachError.NotFound):
            self.coach.meals().stage_recipe("core-nope")
        with self.assertRaises(CoachError.NotFound):
            self.coach.meals().keep_staged("stage-nope")

    def test_built_in_recipes_and_recipe_management(self):
        meals = self.coach.meals()
        core = meals.list_recipes(0, 5, RecipeSource.CORE)
        self.assertGreaterEqual(core.total, 120, "the built-in recipes are there on open")
        self.assertEqual(len(core.recipes), 5)
        self.assertEqual(meals.list_recipes(core.total - 1, 5, RecipeSource.CORE).recipes[0].source,
                         RecipeSource.CORE)
        found = meals.search_recipes("shakshuka", None, 5)
        self.assertEqual(found[0].id, "core-shakshuka")
        self.assertTrue(all(r.meal_types for r in meals.search_recipes("", MealType.SNACK, 10)))
        meals.hide_recipe("core-shakshuka")
        self.assertEqual(meals.hidden_recipes(), ["core-shakshuka"])
        self.assertEqual(meals.search_recipes("shakshuka", None, 5), [])
        self.assertEqual(meals.list_recipes(0, 200, None).total, core.total - 1)
        self.assertTrue(meals.unhide_recipe("core-shakshuka"))
        with self.assertRaises(CoachError.InvalidArgument):
            meals.delete_recipe("core-shakshuka")
        with self.assertRaises(CoachError.NotFound):
            meals.delete_recipe("no-such-recipe")
        with self.assertRaises(CoachError.NotFound):
            meals.hide_recipe("no-such-recipe")
        with self.assertRaises(CoachError.InvalidArgument):
            meals.list_recipes(0, 0, None)
        empty = Coach.open_in_memory_with_options(OpenOptions(builtin_recipes=False))
        self.assertEqual(empty.meals().list_recipes(0, 5, None).total, 0)

    def test_meals_bad_requests_are_typed_errors(self):
        self.coach.meals().import_recipes(starter_recipes_json())
        with self.assertRaises(CoachError.InvalidArgument) as cm:
            self.coach.meals().plan(meal_request([]), None)
        self.assertIn("days", cm.exception.detail)
        with self.assertRaises(CoachError.InvalidArgument) as cm:
            self.coach.meals().plan(meal_request([("2026-11-23", day_meals(lunch=meal_slot(0)))]), None)
        self.assertIn("servings", cm.exception.detail)
        with self.assertRaises(CoachError.InvalidArgument) as cm:
            self.coach.meals().plan(meal_request([("2026-02-30", day_meals(lunch=meal_slot(1)))]), None)
        self.assertIn("date", cm.exception.detail)
        with self.assertRaises(CoachError.InvalidArgument):
            self.coach.meals().import_recipes("[{\"title\": 1}]")

    # ---- workouts (spec 001) and today-plan generation (spec 000) ----

    def test_workout_generate_list_get_log_and_validate(self):
        listener = CollectingWorkoutListener()
        task = self.coach.workouts().generate(workout_request(), listener)
        result = task.wait()
        self.assertTrue(task.is_finished())
        self.assertEqual(result.source, WorkoutSource.DETERMINISTIC)
        workout = result.workout
        self.assertEqual(workout.workout_id, "2025-08-17-gym-downtown-01")
        # The original app's shape (issue 23): the number 1.2, the tiers to drop, C first.
        self.assertEqual(workout.version, 1.2)
        self.assertEqual(workout.cut_order, ["C", "B"])
        self.assertTrue(all(s.equipment != "eq_smith_machine" for s in workout.sets))
        self.assertEqual(listener.stages, [WorkoutStage.PRE_ANALYSIS, WorkoutStage.DONE])
        listed = self.coach.workouts().list(10)
        self.assertEqual([w.workout_id for w in listed], [workout.workout_id])
        self.assertFalse(listed[0].logged)
        self.assertEqual(self.coach.workouts().get(workout.workout_id), result)
        self.assertIsNone(self.coach.workouts().get("no-such-workout"))
        first = workout.sets[0]
        self.coach.workouts().log(WorkoutLog(workout_id=workout.workout_id, performed_at_ms=1755432000000,
                                          sets=[SetActual(set_id=first.id, actual_weight=95.0, actual_reps=8)],
                                          post_workout=None))
        self.assertTrue(self.coach.workouts().list(10)[0].logged)
        logged = self.coach.workouts().get(workout.workout_id).workout.sets[0]
        self.assertEqual((logged.actual_weight, logged.actual_reps), (95.0, 8))
        with self.assertRaises(CoachError.NotFound):
            self.coach.workouts().log(WorkoutLog(workout_id="nope", performed_at_ms=0, sets=[], post_workout=None))
        # The saved YAML validates; a broken set id is the error with its path.
        ok = coachcore.validate_workout_yaml(result.yaml)
        self.assertEqual(ok.workout, workout)
        self.assertIsNone(ok.error)
        bad = coachcore.validate_workout_yaml(result.yaml.replace("id: " + first.id, "id: bad", 1))
        self.assertIsNone(bad.workout)
        self.assertEqual(bad.error.code, "schema_violation")
        self.assertEqual(bad.error.path, "sets[0].id")
        self.assertEqual(coachcore.validate_workout_yaml("sets: [").error.code, "invalid_yaml")
        # The library's earlier form (version '1.2', cut_order set ids) is read as the original's.
        tiers = "cut_order:\n- C\n- B\n"
        self.assertTrue(result.yaml.startswith("version: 1.2\n") and tiers in result.yaml, result.yaml)
        last_b = [s.id for s in workout.sets if s.tier == SetTier.B][-1]
        last_c = [s.id for s in workout.sets if s.tier == SetTier.C][-1]
        earlier = (result.yaml.replace("version: 1.2\n", "version: '1.2'\n", 1)
                   .replace(tiers, f"cut_order:\n- {last_b}\n- {last_c}\n", 1))
        self.assertEqual(coachcore.validate_workout_yaml(earlier).workout, workout)
        b_first = coachcore.validate_workout_yaml(result.yaml.replace(tiers, "cut_order:\n- B\n- C\n", 1))
        self.assertEqual((b_first.error.path, b_first.error.detail), ("cut_order[1]", "C is cut before B: list C first"))
        # The original app's own document validates as it is.
        with open(os.path.join(REPO, "tests", "data", "workout", "original-app.yaml"), encoding="utf-8") as f:
            original = coachcore.validate_workout_yaml(f.read())
        self.assertIsNone(original.error)
        self.assertEqual((original.workout.version, original.workout.cut_order), (1.2, ["C", "B"]))

    def test_the_apps_own_exercises_and_equipment_are_saved_and_used(self):
        # Without a definition the key provides nothing: no trap-bar exercise is allowed.
        request = workout_request()
        request.equipment = ["eq_hex_bar"]
        request.bans = ["bodyweight-squat"]  # the hinge is then the first Tier A pick
        sets = self.coach.workouts().generate(request, None).wait().workout.sets
        self.assertFalse(any(s.exercise == "trap-bar-deadlift" for s in sets))
        self.coach.workouts().save_equipment(WorkoutEquipment(key="eq_hex_bar", name="Hex bar",
                                                           provides=["trap_bar"], weights=[],
                                                           units=WeightUnit.LBS))
        self.assertEqual([e.key for e in self.coach.workouts().equipment()], ["eq_hex_bar"])
        sets = self.coach.workouts().generate(request, None).wait().workout.sets
        self.assertTrue(any(s.exercise == "trap-bar-deadlift" and s.equipment == "eq_hex_bar" for s in sets))
        with self.assertRaises(CoachError.InvalidArgument):
            self.coach.workouts().save_equipment(WorkoutEquipment(key="Bad Key", name="x", provides=[], weights=[],
                                                               units=WeightUnit.KG))
        own = WorkoutExercise(id="hex-bar-carry", name="Hex bar carry", requires=["trap_bar"], muscles=["traps"],
                              compound=True, load=LoadKind.OTHER, pattern="core", per_side=False)
        self.coach.workouts().save_exercise(own)
        self.assertIn(own, self.coach.workouts().exercises())

    def test_generate_today_plan_with_an_app_model(self):
        d = self.coach.workouts().today_plan(today_plan_request())
        self.assertEqual(d.plan.source, PlanSource.DETERMINISTIC, "no model: code's plan")
        self.assertEqual(d.fallback_reason, PlanFallbackReason.NO_MODEL)
        self.assertEqual(self.coach.workouts().saved_today_plan("2025-08-18").plan, d.plan)
        # One exercise per slot of today's skeleton ("30 minutes, upper body", a full gym).
        model = FakeModel(replies=['{"focus": 1}', '{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}'])
        self.coach.model().set(model)
        t = self.coach.workouts().today_plan(today_plan_request())
        self.assertEqual(t.schema_version, SchemaVersion.V1_CURRENT)
        self.assertEqual(t.plan.focus, "Upper Body Session")
        self.assertEqual([b.title for b in t.plan.blocks], ["Warm-up", "Main Lifts", "Accessories", "Cool-down"])
        self.assertEqual(t.plan.blocks[1].exercises[0].name, "Dumbbell Bench Press")
        self.assertEqual(len(model.requests), 2, "one repair")
        schema = json.loads(model.requests[0].json_schema)
        self.assertEqual(schema["required"], ["A1", "A2", "B1", "B2", "C1", "C2"])
        self.assertEqual(self.coach.workouts().plan_generations(1)[0].feature, "plan.generate")
        self.coach.model().set(FakeModel(replies=["no json"]))
        f = self.coach.workouts().today_plan(today_plan_request())
        self.assertEqual(f.fallback_reason, PlanFallbackReason.INVALID_ANSWERS)
        self.assertEqual(f.plan.source, PlanSource.DETERMINISTIC)
        saved = self.coach.workouts().recent_today_plans(5)
        self.assertEqual(len(saved), 1, "one plan per seed and date")
        performed = [TodayExerciseDone(exercise_id=t.exercise_id, sets=[TodaySetDone(weight=20.0, reps=8)])
                     for t in saved[0].targets]
        done = self.coach.workouts().mark_today_plan_done(f.plan.id, performed, 1_755_500_000_000)
        self.assertEqual(done.done_at_ms, 1_755_500_000_000)
        self.assertEqual(done.session_id, "today:" + f.plan.id)
        with self.assertRaises(CoachError.InvalidArgument):
            self.coach.workouts().mark_today_plan_done(f.plan.id)
        # The async form (`async def`) returns the same plan, on a fresh database (here the plan
        # marked done made its exercises recent, so the skeleton would offer others).
        import asyncio
        fresh = Coach.open_in_memory()
        fresh.model().set(FakeModel(replies=['{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}']))
        t = asyncio.run(fresh.workouts().today_plan_async(today_plan_request()))
        self.assertEqual(t.plan.blocks[1].exercises[0].name, "Dumbbell Bench Press")


class CollectingWorkoutListener(WorkoutListener):
    """A WorkoutListener implemented in Python: keeps every stage."""

    def __init__(self):
        self.stages = []

    def on_event(self, event):
        self.stages.append(event.stage)


def workout_request():
    """`tests/data/workout/request.json` as records."""
    return WorkoutRequest(
        meta=WorkoutMeta(date="2025-08-17", location="gym:downtown", units=WeightUnit.LBS, duration_minutes=60,
                         goal=Goal.HYPERTROPHY),
        instructions="Upper/lower split, 3 days a week.\n- no bb-deadlift",
        bans=["eq_smith_machine"],
        equipment=["eq_barbell_olympic", "eq_squat_rack", "eq_bench_adjustable", "eq_dumbbells_set_5-50",
                   "eq_cable_machine_dual_stack", "eq_pullup_bar"],
        recent_cardio=[CardioActivity(date="2025-08-16", activity_type="run", duration_minutes=45,
                                      relative_effort=62)],
        upcoming_cardio="Long run (90 min) on 2025-08-19.",
        recovery=Recovery(sleep_score=72, body_battery=58),
        history_text=None,
    )


def today_plan_request():
    return TodayPlanRequest(date="2025-08-18", notes="30 minutes, upper body", schema_version=None,
                            timezone="Europe/Berlin", seed=7)


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(CoachTest)
    out = io.StringIO()
    result = unittest.TextTestRunner(stream=out, verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    if failed:
        sys.stdout.write(out.getvalue())
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed or result.testsRun == 0 else 0)
