// DemoCheck.kt: runs PlanDemoModel and ModelDemoModel (the demo app's non-UI logic) on a desktop JVM
// against the real library through JNA. Built and run by android-demo/check.sh, compiled together
// with the generated uniffi/coachcore/coachcore.kt and app/src/main/java/com/coachcore/demo/*Model.kt.
// Argument 1: a GGUF header whose KV cache cannot fit in memory (tests/data/models).
// Prints "N passed, M failed" and exits 1 on any failure.
package com.coachcore.demo

import java.io.File
import java.nio.file.Files
import kotlin.system.exitProcess

private var passed = 0
private var failed = 0

/** Runs [body], which returns the problems it found (empty: passed). */
private fun check(name: String, body: () -> List<String>) {
    val problems = try {
        body()
    } catch (e: Throwable) {
        listOf("threw $e")
    }
    if (problems.isEmpty()) {
        passed++
        println("ok   $name")
    } else {
        failed++
        println("FAIL $name")
        problems.forEach { println("     $it") }
    }
}

fun main(args: Array<String>) {
    val dir = Files.createTempDirectory("coachdemo-check").toFile()
    val dbPath = File(dir, "coach.sqlite").path
    try {
        check("sample output gives the plan title and both blocks") {
            val result = PlanDemoModel(dbPath).run()
            result.lines.forEach { println("     | $it") }
            buildList {
                result.errorMessage?.let { add("unexpected error: $it") }
                for (expected in listOf("Upper Body Strength", "Warm-up", "Main Set")) {
                    if (result.lines.none { expected in it }) add("no line contains \"$expected\"")
                }
            }
        }

        check("blockIndex 9 gives an error message naming blockIndex") {
            // The broken sample the app's "Broken output" button uses.
            val broken = PlanDemoModel.BROKEN_SAMPLE_MODEL_OUTPUT
            if (""""blockIndex":9,""" !in broken) return@check listOf("BROKEN_SAMPLE_MODEL_OUTPUT has no blockIndex 9")
            val result = PlanDemoModel(dbPath, broken).run()
            println("     | error: ${result.errorMessage}")
            buildList {
                if ("blockIndex" !in (result.errorMessage ?: "")) {
                    add("errorMessage does not contain \"blockIndex\": ${result.errorMessage}")
                }
                if (result.lines.isNotEmpty()) add("lines should be empty, got ${result.lines}")
            }
        }

        check("without a model file the app is told where to put one") {
            val result = ModelDemoModel(dbPath, null).run("2026-01-05")
            println("     | error: ${result.errorMessage}")
            if ("model.gguf" in (result.errorMessage ?: "")) emptyList() else listOf("no hint naming model.gguf")
        }

        check("a model that does not fit is refused before loading, in MB") {
            val result = ModelDemoModel(dbPath, args[0]).run("2026-01-05")
            println("     | error: ${result.errorMessage}")
            if ("MB free" in (result.errorMessage ?: "")) emptyList() else listOf("not the InsufficientMemory message")
        }

        check("a file that is not GGUF is reported as unusable") {
            val notGguf = File(dir, "notes.gguf").apply { writeText("not a model") }
            val result = ModelDemoModel(dbPath, notGguf.path).run("2026-01-05")
            println("     | error: ${result.errorMessage}")
            if (result.errorMessage?.startsWith("The model cannot be used") == true) emptyList()
            else listOf("not the ModelUnusable message")
        }

        check("findModel finds <filesDir>/model.gguf, and nothing in an empty folder") {
            val files = File(dir, "files").apply { mkdirs() }
            buildList {
                if (ModelDemoModel.findModel(files) != null) add("found a model in an empty folder")
                val downloaded = File(files, ModelDemoModel.FILE_NAME).apply { writeText("GGUF") }
                if (ModelDemoModel.findModel(files) != downloaded.path) add("did not find ${downloaded.path}")
            }
        }
    } finally {
        dir.deleteRecursively()
    }

    println("$passed passed, $failed failed")
    exitProcess(if (failed == 0) 0 else 1)
}
