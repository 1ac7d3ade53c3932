package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options the {@code fairledger} launcher gives the server (docs/configuration.md, "Memory"), read from a
 * stand-in {@code java} that prints its arguments, in a copy of the launcher beside a built jar.
 */
class LauncherOptionsTest {

    @TempDir
    static Path home;

    @BeforeAll
    static void layout() throws IOException {
        Files.copy(Path.of("fairledger"), home.resolve("fairledger"));
        Files.createDirectories(home.resolve("src/main"));
        Files.writeString(home.resolve("pom.xml"), "");
        Path jar = Files.createDirectories(home.resolve("target/standalone-app")).resolve("quarkus-run.jar");
        Files.writeString(jar, "");
        // built after the sources, so the launcher does not build
        FileTime later = FileTime.fromMillis(System.currentTimeMillis() + 60_000);
        Files.setLastModifiedTime(jar, later);
        Path java = Files.createDirectories(home.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"$@\"\n");
        java.toFile().setExecutable(true);
    }

    @Test
    void serveGetsTheHeapG1AndAnExitOnOutOfMemory() throws Exception {
        assertThat(launch(Map.of(), "serve")).contains("-Xmx512m", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError")
                .endsWith("serve");
    }

    @Test
    void theUsersOptionsReplaceTheDefaultsTheyName() throws Exception {
        String args = launch(Map.of("FAIRLEDGER_JAVA_OPTS", "-Xmx2g -XX:+HeapDumpOnOutOfMemoryError"), "serve");
        assertThat(args).contains("-Xmx2g", "-XX:+HeapDumpOnOutOfMemoryError", "-XX:+UseG1GC")
                .doesNotContain("-Xmx512m", "ExitOnOutOfMemoryError");
    }

    @Test
    void otherSubcommandsKeepTheJvmsDefaults() throws Exception {
        assertThat(launch(Map.of(), "account", "--help")).startsWith("-jar ").doesNotContain("-Xmx", "-XX:");
    }

    private static String launch(Map<String, String> env, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                Stream.concat(Stream.of("bash", "fairledger"), Stream.of(args)).toList())
                .directory(home.toFile()).redirectErrorStream(true);
        pb.environment().remove("FAIRLEDGER_JAVA_OPTS");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().put("JAVA_HOME", home.resolve("jdk").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the launcher returned").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
