// The demo app, module :demo of the Gradle project ../../android. The library, with its native
// code and bindings, is the :coachcore module there (filled by ../build-aar.sh): the same module
// that builds the AAR.
import org.jetbrains.kotlin.gradle.dsl.JvmTarget

plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "com.coachcore.demo"
    compileSdk = 35

    defaultConfig {
        applicationId = "com.coachcore.demo"
        minSdk = 24 // build-aar.sh builds for cargo-ndk's default API level, which is lower
        targetSdk = 35
        versionCode = 1
        versionName = "0.1.0"
        // Only the ABIs build-aar.sh builds; the JNA aar ships more.
        ndk { abiFilters += listOf("arm64-v8a", "x86_64") }
    }

    // A model shipped as assets/model.gguf stays uncompressed in the APK (MainActivity copies it
    // to filesDir once; the library loads files, not assets).
    androidResources { noCompress += "gguf" }

    buildTypes {
        release {
            // R8 may be turned on: the :coachcore module brings the rules JNA and the generated
            // bindings need (consumer-rules.pro).
            isMinifyEnabled = false
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }
}

kotlin {
    compilerOptions { jvmTarget.set(JvmTarget.JVM_17) }
}

dependencies {
    // coachcore: libcoachcore.so, the Kotlin bindings and their dependencies (JNA's Android aar).
    implementation(project(":coachcore"))
    implementation("org.jetbrains.kotlinx:kotlinx-coroutines-android:1.9.0")
    implementation("androidx.activity:activity-ktx:1.9.3")
    implementation("androidx.lifecycle:lifecycle-runtime-ktx:2.8.7")
}
