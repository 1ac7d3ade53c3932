package io.fairledger.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Files a reader can hold in their head (docs/architecture.md, "The core and the shell"): no Java file of the server,
 * the perf tools, the integration tests or the bridges over 400 lines, and no class of the statement pipeline
 * ({@code io.fairledger.accounting}) over 250. A file that grows past its bound is split by what its parts do. And
 * every package of the server says in its {@code package-info.java} what it is for.
 */
class SourceLayoutTest {

    private static final int MAX_LINES = 400;
    private static final int MAX_PIPELINE_LINES = 250;

    @Test
    void noFileIsOverFourHundredLines() throws IOException {
        List<String> over = over(MAX_LINES, Path.of("src/main/java"), Path.of("src/test/java/io/fairledger/perf"),
                Path.of("integration-tests/src"), Path.of("integrations"));
        assertThat(over).as("files over %d lines", MAX_LINES).isEmpty();
    }

    @Test
    void noClassOfTheStatementPipelineIsOverTwoHundredFiftyLines() throws IOException {
        List<String> over = over(MAX_PIPELINE_LINES, Path.of("src/main/java/io/fairledger/accounting"));
        assertThat(over).as("statement pipeline classes over %d lines", MAX_PIPELINE_LINES).isEmpty();
    }

    @Test
    void everyPackageSaysWhatItIsFor() throws IOException {
        List<String> lacking = new ArrayList<>();
        try (Stream<Path> dirs = Files.walk(Path.of("src/main/java"))) {
            for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                boolean holdsJava;
                try (Stream<Path> files = Files.list(dir)) {
                    holdsJava = files.anyMatch(f -> f.toString().endsWith(".java"));
                }
                if (holdsJava && !Files.exists(dir.resolve("package-info.java"))) {
                    lacking.add(dir.toString());
                }
            }
        }
        assertThat(lacking).as("packages without a package-info.java").isEmpty();
    }

    private static List<String> over(int limit, Path... roots) throws IOException {
        assertThat(roots[0]).as("run from the repository's root").isDirectory();
        List<String> over = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                        .filter(f -> !f.toString().contains("/target/")).toList()) {
                    long lines;
                    try (Stream<String> text = Files.lines(file)) {
                        lines = text.count();
                    }
                    if (lines > limit) {
                        over.add(file + ": " + lines);
                    }
                }
            }
        }
        return over;
    }
}
