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
        // the glibc setting the launcher exports on the first line, the JVM's arguments on the second
        Files.writeString(java, "#!/bin/sh\necho \"MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-unset}\"\necho \"$@\"\n");
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
    void serveDefersC2UnlessTheUserTunesTheTiers() throws Exception {
        assertThat(launch(Map.of(), "serve")).contains("-XX:Tier4InvocationThreshold=50000",
                "-XX:Tier4MinInvocationThreshold=6000", "-XX:Tier4CompileThreshold=150000",
                "-XX:Tier4BackEdgeThreshold=400000");
        assertThat(launch(Map.of("FAIRLEDGER_JAVA_OPTS", "-XX:TieredStopAtLevel=1"), "serve"))
                .contains("-XX:TieredStopAtLevel=1").doesNotContain("Tier4");
    }

    @Test
    void otherSubcommandsKeepTheJvmsDefaults() throws Exception {
        assertThat(launch(Map.of(), "account", "--help")).startsWith("-jar ").doesNotContain("-Xmx", "-XX:");
    }

    @Test
    void serveBoundsGlibcsMallocArenasUnlessTheUserDoes() throws Exception {
        assertThat(output(Map.of(), "serve")).startsWith("MALLOC_ARENA_MAX=2\n");
        assertThat(output(Map.of("MALLOC_ARENA_MAX", "4"), "serve")).startsWith("MALLOC_ARENA_MAX=4\n");
        assertThat(output(Map.of(), "account", "--help")).startsWith("MALLOC_ARENA_MAX=unset\n");
    }

    /** The arguments the launcher gives the JVM. */
    private static String launch(Map<String, String> env, String... args) throws Exception {
        String out = output(env, args);
        return out.substring(out.indexOf('\n') + 1);
    }

    /** The stand-in JVM's output: the launcher's {@code MALLOC_ARENA_MAX}, then the JVM's arguments. */
    private static String output(Map<String, String> env, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                Stream.concat(Stream.of("bash", "fairledger"), Stream.of(args)).toList())
                .directory(home.toFile()).redirectErrorStream(true);
        pb.environment().remove("FAIRLEDGER_JAVA_OPTS");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().remove("MALLOC_ARENA_MAX");
        pb.environment().put("JAVA_HOME", home.resolve("jdk").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the launcher returned").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
