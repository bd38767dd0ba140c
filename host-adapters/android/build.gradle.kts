// The chat bridge's Android library: the receiver, the decoder and the bridge's scripts as assets.
// An app adds it as a Gradle project from node_modules (README.md says how); the app's build
// supplies the Android Gradle Plugin and the Kotlin plugin, as it does for Capacitor plugins.
import org.jetbrains.kotlin.gradle.dsl.JvmTarget

plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "dev.chatbridge"
    compileSdk = 35

    defaultConfig {
        // The bundle needs Android System WebView 71 or later, which updates apart from Android;
        // addWebMessageListener needs WebView 82, with @JavascriptInterface as the fallback.
        minSdk = 21
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    // src/main/assets/chat-bridge/ holds chat-bridge.js and chat-bridge.start.js, copied from
    // the npm package's dist/ by its build: they are in the package as published.
    sourceSets["main"].java.srcDir("src/main/kotlin")
}

kotlin {
    compilerOptions {
        jvmTarget.set(JvmTarget.JVM_17)
    }
}

dependencies {
    // WebViewCompat.addWebMessageListener and WebViewFeature.WEB_MESSAGE_LISTENER: 1.3.0 or later.
    implementation("androidx.webkit:webkit:1.12.1")
}
