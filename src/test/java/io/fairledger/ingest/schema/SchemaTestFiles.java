package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

import io.fairledger.testsupport.SharedData;

/** Where the tests find {@code kafka-schemas/} and the shared real-world samples. */
final class SchemaTestFiles {

    private SchemaTestFiles() {
    }

    /** {@code kafka-schemas/} at the project root (Maven runs tests there). */
    static Path kafkaSchemas() {
        Path dir = Path.of("kafka-schemas").toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            fail("kafka-schemas/ not found at " + dir + "; run the tests from the project root");
        }
        return dir;
    }

    /** {@code ../shared/data/formats/<sub>}, the real resource-manager samples; fails clearly when absent. */
    static Path sharedFormats(String sub) {
        return SharedData.dir("formats", sub);
    }

    /** The {@code .avsc} files directly in {@code dir}, sorted. */
    static List<Path> schemaFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".avsc")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The example files, {@code kafka-schemas/examples/<topic>.jsonl}, sorted. */
    static List<Path> exampleFiles() {
        try (Stream<Path> files = Files.list(kafkaSchemas().resolve("examples"))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The topic an example file is for: its name without {@code .jsonl}. */
    static String topicOf(Path exampleFile) {
        String name = exampleFile.getFileName().toString();
        return name.substring(0, name.length() - ".jsonl".length());
    }

    /** The non-blank lines of a file. */
    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream().filter(line -> !line.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every line of every example file, with the topic it belongs on: {@code {topic, line}}. */
    static Arbitrary<String[]> exampleLines() {
        return Arbitraries.of(exampleFiles().stream()
                .flatMap(file -> lines(file).stream().map(line -> new String[]{topicOf(file), line})).toList());
    }
}
