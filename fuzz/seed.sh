#!/usr/bin/env bash
# seed.sh: fills fuzz/corpus/<target>/ with seed inputs from tests/data (and the few small
# hand-written ones in fuzz/seeds/). Idempotent; the corpora are git-ignored (a run adds the
# inputs it finds interesting to them). FUZZ_CORPUS=DIR (an absolute path) writes them there
# instead: the ordinary tests replay every seed from such a folder (tests/it/fuzz_replay.rs).
set -euo pipefail
cd "$(dirname "$0")"
data=../tests/data
python3 - "$data" <<'PY'
import json, os, pathlib, sys

data = pathlib.Path(sys.argv[1])
out = pathlib.Path(os.environ.get("FUZZ_CORPUS") or "corpus")

def put(target, name, body):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(body, str):
        body = body.encode()
    (d / name).write_bytes(body)

# Hand-written seeds.
for t in pathlib.Path("seeds").iterdir():
    for f in t.iterdir():
        put(t.name, f.name, f.read_bytes())

# Plan transform: the model outputs of both schema versions, and the demo's raw model text.
for f in sorted((data / "plans").glob("*.json")):
    put("plan_transform", f.name, f.read_bytes())
    put("plan_transform", "fenced-" + f.name, "Sure! Here is the plan:\n```json\n" + f.read_text() + "\n```\n")
put("plan_transform", "demo-model-output.txt", (data / "demo-model-output.txt").read_bytes())

# suggest evaluate: the CLI's example inputs.
for f in sorted((data / "suggest").glob("*.json")):
    put("suggest_evaluate", f.name, f.read_bytes())

# Operations: the expected operations of the assistant's evaluation set, written as operations
# (`titleContains` words become the title).
tasks = json.loads((data / "eval" / "assistant.json").read_text())["tasks"]
ops_seeds = []
for t in tasks:
    ops = []
    expected = t.get("expected")
    for op in (expected.get("ops") or [] if isinstance(expected, dict) else []):
        if not isinstance(op, dict):
            continue
        op = dict(op)
        words = op.pop("titleContains", None)
        if words:
            op["title"] = " ".join(words)
        ops.append(op)
    if ops:
        body = json.dumps({"operations": ops, "today": t.get("today")})
        ops_seeds.append(body)
        put("ops_dryrun", t["id"] + ".json", json.dumps({"operations": ops}))

# Workout YAML: the hand-written document also as JSON (YAML reads JSON).
yaml_text = (pathlib.Path("seeds") / "workout_yaml" / "valid.yaml").read_text()
# The test documents: the original app's shape and the library's earlier one (upgraded on read).
for f in sorted((data / "workout").glob("*.yaml")):
    put("workout_yaml", f.name, f.read_bytes())

# Workout YAML as an attacker writes it (issue 22), small: the caps must refuse each quickly.
# Anchors and aliases within the budget, an alias bomb in small, nesting past the cap in each
# form, a key given twice, numbers that are not finite, too many directives, two documents.
notes = yaml_text.replace("notes: ''", "notes: &n Brace hard", 1).replace("notes: ''", "notes: *n")
put("workout_yaml", "anchors.yaml", notes)
put("workout_yaml", "alias-bomb.yaml", "a: &x " + "b" * 5000 + "\nc: [" + "*x," * 20 + "*x]\n")
laughs = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 10))
put("workout_yaml", "nested-aliases.yaml", laughs)
put("workout_yaml", "self-alias.yaml", "a: &x [1, *x]\n")
for name, unit in [("flow3", "[[[a: "), ("flow1", "[a: "), ("key", "{? "), ("map", "{a: "),
                   ("open", "["), ("block", "- ")]:
    put("workout_yaml", f"deep-{name}.yaml", unit * 70)
put("workout_yaml", "deep-indent.yaml", "".join(" " * i + "a:\n" for i in range(70)))
put("workout_yaml", "duplicate-key.yaml", yaml_text + "units: kg\n")
put("workout_yaml", "nan.yaml", yaml_text.replace("target_weight: 135", "target_weight: .nan", 1))
put("workout_yaml", "inf.yaml", yaml_text.replace("target_weight: 135", "target_weight: -.inf", 1))
put("workout_yaml", "directives.yaml", "".join(f"%TAG !t{i}! tag:x,{i}:\n" for i in range(20)) + "---\n" + yaml_text)
put("workout_yaml", "two-documents.yaml", yaml_text + "---\n" + yaml_text)

# C API: each method with a plausible request.
def call(name, method, request):
    put("capi_call", name, method + "\n" + (request if isinstance(request, str) else json.dumps(request)))

for f in sorted((data / "suggest").glob("*.json")):
    call("suggest.evaluate-" + f.stem, "suggestions.evaluate", f.read_text())
for i, body in enumerate(ops_seeds[:20]):
    call(f"ops.dryrun-{i}", "planner.dryRun", body)
    call(f"ops.apply-{i}", "planner.apply", json.loads(body) | {"idempotencyKey": f"k{i % 3}"})
call("workouts.generate", "workouts.generate", (data / "workout" / "request.json").read_text())
call("workouts.validate", "workouts.validate", {"yaml": yaml_text})
for f in sorted((data / "meals").glob("*.request.json")):
    call("meals.plan-" + f.stem, "meals.plan", f.read_text())
recipes = json.loads((data / "recipes" / "starter.json").read_text())
recipes = recipes if isinstance(recipes, list) else recipes.get("recipes", [])
call("meals.importRecipes", "meals.importRecipes", recipes[:3])
evaluate = json.loads((data / "suggest" / "evaluate-input.json").read_text())
ctx = evaluate["context"]
if "plan" in ctx:
    call("workouts.savePlan", "workouts.savePlan", ctx["plan"])
for m, r in [
    ("workouts.plan", {"id": "p1"}), ("suggestions.deferred", {"id": "p1"}), ("suggestions.forSession", {"id": "s1"}),
    ("suggestions.deferPending", {"id": "s1"}), ("suggestions.accept", {"id": "c1"}), ("suggestions.reject", {"id": "c1"}),
    ("suggestions.deferChange", {"id": "c1"}), ("suggestions.acceptEdited", {"id": "c1", "newValue": {"type": "weight", "value": 100}}),
    ("workouts.history", {"id": "bb-back-squat", "unit": "kg"}), ("model.unload", {}), ("model.info", {}),
    ("meals.recipe", {"id": "core-beef-stew"}), ("meals.job", {"id": "j1"}), ("workouts.list", {"limit": 5}),
    ("workouts.get", {"id": "w1"}), ("planner.item", {"kind": "todo", "id": "t1"}),
    ("planner.week", {"date": "2026-11-23"}), ("planner.backlog", {"limit": 10}), ("data.checkIntegrity", {}),
    ("planner.auditLog", {"limit": 5, "beforeSeq": 9}), ("workouts.todayPlan", {"date": "2026-11-23", "notes": "legs", "units": "kg"}),
    ("workouts.savedTodayPlan", {"date": "2026-11-23"}), ("workouts.recentTodayPlans", {"limit": 5}),
    ("workouts.markTodayPlanDone", {"planId": "p1", "performed": [{"exerciseId": "e1", "sets": [{"weight": 60, "reps": 8}]}]}),
    ("workouts.week", {"today": "2026-11-23", "daysPerWeek": 4}),
    ("assistant.send", {"message": "Remind me to call mom tomorrow at 5", "mode": "auto", "today": "2026-11-23"}),
    ("workouts.log", {"workoutId": "w1", "sets": []}), ("workouts.saveCatalogExercise", {"id": "bb-back-squat", "name": "Back squat"}),
    ("workouts.logSession", {"id": "s1"}), ("workouts.render", {}), ("unknown.method", {}),
    ("meals.stageRecipe", {"id": "core-beef-stew"}), ("meals.keepStaged", {"id": "core-beef-stew"}),
    ("meals.cleanupStaged", {}), ("meals.history", {"from": "2026-11-01", "to": "2026-11-30"}),
    ("model.prewarm", {"feature": "assistant"}), ("planner.undo", {"requestId": "r1"}),
    ("data.exportAll", {}), ("data.eraseAll", {}),
    ("data.importAll", {"format": "coachcore-export", "version": 1, "schemaVersion": 6, "exportedAtMs": 0,
                     "tables": {"plans": {"columns": ["id", "name"], "rows": [["p1", "Push"]]}}}),
]:
    call(m, m, r)
counts = {d.name: len(list(d.iterdir())) for d in sorted(out.iterdir())}
print("seed.sh: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
PY
