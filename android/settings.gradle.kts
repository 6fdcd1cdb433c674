// The coachcore Android build: the library module :coachcore, which builds the AAR
// (coachcore/build/outputs/aar/coachcore-release.aar), and the demo app :demo
// (../android-demo/app), which depends on it as an app depends on the AAR. Fill the library module
// first with ../android-demo/build-aar.sh (the .so files and the generated Kotlin); see
// docs/packages.md.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
    plugins {
        id("com.android.library") version "8.7.3"
        id("com.android.application") version "8.7.3"
        id("org.jetbrains.kotlin.android") version "2.0.21"
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "coachcore-android"
include(":coachcore")
include(":demo")
project(":demo").projectDir = file("../android-demo/app")
