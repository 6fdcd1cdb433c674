"""Binding test for coachcore from Python (the UniFFI-generated module `coachcore`).

Run by bindings/python/test.sh, which copies coachcore.py and libcoachcore.so into one folder and
puts it in COACHCORE_PY_DIR. Stdlib only. Prints "N passed, M failed"; exit code 1 on any failure.
"""
import io
import os
import re
import sys
import tempfile
import unittest

sys.path.insert(0, os.environ.get("COACHCORE_PY_DIR", os.path.dirname(os.path.abspath(__file__))))

import coachcore  # noqa: E402
from coachcore import (  # noqa: E402
    Coach,
    CoachError,
    Energy,
    OutputErrorCode,
    PlanSource,
    SchemaSelection,
    SchemaVersion,
    SelectionReason,
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
        self.assertEqual(self.coach.select_plan_schema(both, SchemaVersion.V1_CURRENT),
                         SchemaSelection(schema_version=SchemaVersion.V1_CURRENT, reason=SelectionReason.OVERRIDE))
        self.assertEqual(self.coach.select_plan_schema([SchemaVersion.V1_CURRENT], SchemaVersion.V2_FLAT),
                         SchemaSelection(schema_version=SchemaVersion.V2_FLAT, reason=SelectionReason.OVERRIDE))

    def test_select_single_supported_and_smallest(self):
        s = self.coach.select_plan_schema([SchemaVersion.V1_CURRENT], None)
        self.assertEqual((s.schema_version, s.reason), (SchemaVersion.V1_CURRENT, SelectionReason.SINGLE_SUPPORTED))
        s = self.coach.select_plan_schema([SchemaVersion.V2_FLAT], None)
        self.assertEqual((s.schema_version, s.reason), (SchemaVersion.V2_FLAT, SelectionReason.SINGLE_SUPPORTED))
        both = self.coach.select_plan_schema([SchemaVersion.V1_CURRENT, SchemaVersion.V2_FLAT], None)
        self.assertEqual(both.reason, SelectionReason.SMALLEST_ESTIMATE)
        self.assertEqual(self.coach.select_plan_schema([], None), both)

    def test_transform_worked_example(self):
        t = self.coach.transform_plan(WORKED_EXAMPLE, V2, None)
        self.check_worked_example(t.plan)
        self.assertEqual(t.schema_version, SchemaVersion.V2_FLAT)
        self.assertTrue(t.ruleset_version.strip())

    def test_transform_fenced_and_wrapped(self):
        fenced = "Here is your plan for today:\n```json\n" + WORKED_EXAMPLE + "\n```\nHave a good workout!"
        self.check_worked_example(self.coach.transform_plan(fenced, V2, 1).plan)
        wrapped = ("<think>The user wants an upper body session; keep it to 30 minutes.</think>"
                   "<response>" + WORKED_EXAMPLE + "</response>")
        self.check_worked_example(self.coach.transform_plan(wrapped, V2, 1).plan)

    def test_transform_v1_current(self):
        t = self.coach.transform_plan(V1_EXAMPLE, V1, 3)
        self.check_worked_example(t.plan)
        self.assertEqual(t.schema_version, SchemaVersion.V1_CURRENT)

    def test_error_block_index_out_of_range(self):
        with self.assertRaises(CoachError.InvalidModelOutput) as cm:
            self.coach.transform_plan(BAD_BLOCK_INDEX, V2, None)
        e = cm.exception
        self.assertIsInstance(e, CoachError)
        self.assertEqual(e.code, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE)
        self.assertEqual(e.path, "exercises[1].blockIndex")
        self.assertTrue(e.detail.strip())
        # still usable after an error
        self.check_worked_example(self.coach.transform_plan(WORKED_EXAMPLE, V2, None).plan)

    def test_error_invalid_json(self):
        with self.assertRaises(CoachError.InvalidModelOutput) as cm:
            self.coach.transform_plan("I could not make a plan today, sorry.", V2, None)
        self.assertEqual(cm.exception.code, OutputErrorCode.INVALID_JSON)

    def test_determinism_with_seed(self):
        a = self.coach.transform_plan(WORKED_EXAMPLE, V2, 42).plan
        b = self.coach.transform_plan(WORKED_EXAMPLE, V2, 42).plan
        self.assertEqual(a, b)
        self.assertEqual(all_ids(a), all_ids(b))
        other = Coach.open_in_memory()
        self.assertEqual(all_ids(other.transform_plan(WORKED_EXAMPLE, V2, 42).plan), all_ids(a))
        c = self.coach.transform_plan(WORKED_EXAMPLE, V2, 43).plan
        self.assertNotEqual(c.id, a.id)

    def test_file_database_records_generations(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "coach.sqlite3")
            coach = Coach.open(path)
            self.assertEqual(coach.recent_generations(10), [])
            t = coach.transform_plan(WORKED_EXAMPLE, V2, 7)
            self.assertIsNotNone(t.generation_id)
            with self.assertRaises(CoachError.InvalidModelOutput):
                coach.transform_plan(BAD_BLOCK_INDEX, V2, 7)
            rows = coach.recent_generations(10)
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
            self.assertEqual([r.id for r in coach.recent_generations(1)], [failed.id])
            del coach, t, rows, failed, ok  # drop the object so the database is closed

            self.assertGreater(os.path.getsize(path), 0)
            coach = Coach.open(path)
            rows = coach.recent_generations(10)
            self.assertEqual(len(rows), 2)
            self.assertTrue(rows[1].succeeded)
            self.assertEqual(rows[0].error_code, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE)
            del coach

    def test_database_too_new(self):
        with tempfile.TemporaryDirectory(prefix="coachcore-python-") as d:
            path = os.path.join(d, "newer.sqlite3")
            coach = Coach.open(path)
            coach.transform_plan(WORKED_EXAMPLE, V2, 1)
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


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(CoachTest)
    out = io.StringIO()
    result = unittest.TextTestRunner(stream=out, verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    if failed:
        sys.stdout.write(out.getvalue())
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed or result.testsRun == 0 else 0)
