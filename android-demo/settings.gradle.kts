// The coachcore Android demo: the app module and, from ../android, the library module :coachcore
// that builds the AAR (the app depends on it as an app depends on the AAR). Fill the library
// module first with ./build-aar.sh (see README.md).
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
    plugins {
        id("com.android.application") version "8.7.3"
        id("com.android.library") version "8.7.3"
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

rootProject.name = "coachcore-demo"
include(":app")
include(":coachcore")
project(":coachcore").projectDir = file("../android/coachcore")
